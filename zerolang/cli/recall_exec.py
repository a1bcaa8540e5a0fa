"""What `zero recall` runs: the memory and the experience database opened, the question answered."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.memory.asking import Answer


def answer_question(
    text: str,
    *,
    db: str | Path | None,
    budget: int | None,
    ids: bool,
    explain: bool,
    now: str | None,
    as_json: bool,
) -> Answer:
    """`zerolang.memory.asking.answer` over the memory as every surface resolves it (none where it is
    not made yet) and the experience database `db` names (else beside the memory), both only read:
    the experiences with the memory's purges hidden, as a reader sees them."""
    from zerolang.cli.experience_store import open_store, read_hiding_purges, store_location
    from zerolang.memory import open_memory
    from zerolang.memory.asking import answer
    from zerolang.memory.settings import resolve_stores
    from zerolang.util.errors import ZeroError

    if not text.strip():
        raise ZeroError("nothing to recall: the query is empty")
    stores = resolve_stores(beside(db), experiences=db)
    with ExitStack() as stack:
        facts = None
        if not stores.memory.holds_nothing_yet:
            memory = stack.enter_context(open_memory(stores.memory.target, space=stores.space, create=False))
            facts = memory.store
        experiences = None
        if db is not None or not store_location(db, create=False).holds_nothing_yet:
            opened = stack.enter_context(open_store(db, create=False))
            experiences = read_hiding_purges(opened)  # what the memory purged stays out, even here
        found = answer(
            text,
            facts=facts,
            experiences=experiences,
            budget=budget,
            ids=ids,
            explain=explain,
            now=now,
            as_json=as_json,
        )
    if budget is not None and not found.items and found.offered:
        raise ZeroError(f"--budget {budget} is too small: not even one line fits")
    return found


def beside(db: str | Path | None) -> str | None:
    """The memory an experience database was kept beside, where `$ZERO_MEMORY_DB` names none:
    `NAME.db` for `NAME.experiences.db`, `memory.db` for `experiences.db` (the per-user pair), in
    its folder (none there: no facts); None otherwise (the memory as every surface resolves it)."""
    import os

    if db is None or os.environ.get("ZERO_MEMORY_DB") or "://" in str(db):
        return None
    path = Path(db)
    if not path.name.endswith("experiences.db"):
        return None
    name = path.name.removesuffix("experiences.db").removesuffix(".") or "memory"
    return str(path.with_name(name + ".db"))
