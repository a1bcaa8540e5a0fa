"""What `zero recall` runs: the memory and the experience database opened, the question answered."""

from __future__ import annotations

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
    """`Memory.ask` over the memory as every surface resolves it (a memory not made yet: none) and the
    experience database `db` names (else beside the memory)."""
    from zerolang.memory import open_memory
    from zerolang.memory.settings import resolve_stores
    from zerolang.util.errors import ZeroError
    from zerolang.util.locations import IN_MEMORY

    if not text.strip():
        raise ZeroError("nothing to recall: the query is empty")
    stores = resolve_stores(experiences=db)
    memory = stores.memory.target
    if stores.memory.holds_nothing_yet:
        memory = IN_MEMORY  # no facts stored yet: ask the conversations alone, create nothing
    with open_memory(
        memory, space=stores.space, experiences=stores.experiences.target, create=False
    ) as opened:
        found = opened.ask(text, budget=budget, ids=ids, explain=explain, now=now, as_json=as_json)
    if budget is not None and not found.items and found.offered:
        raise ZeroError(f"--budget {budget} is too small: not even one line fits")
    return found
