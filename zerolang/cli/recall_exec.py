"""What `zero recall` runs: the memory and its conversations opened to read, the question answered."""

from __future__ import annotations

from contextlib import ExitStack
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.memory.asking import Answer
    from zerolang.memory.settings import Stores


def answer_question(
    text: str,
    *,
    stores: Stores,
    budget: int | None,
    ids: bool,
    explain: bool,
    now: str | None,
    as_json: bool,
) -> Answer:
    """`zerolang.memory.asking.answer` over the memory `stores` name (`--db`, `--space`; none where it
    is not made yet) and its conversations (`Stores.experiences`), both only read: the conversations
    with the memory's purges hidden, as a reader sees them."""
    from zerolang.cli.experience_store import open_store, read_hiding_purges
    from zerolang.memory import open_memory
    from zerolang.memory.asking import answer
    from zerolang.util.errors import ZeroError

    if not text.strip():
        raise ZeroError("nothing to recall: the query is empty")
    if stores.memory_named and stores.memory.holds_nothing_yet and stores.experiences.holds_nothing_yet:
        raise ZeroError(
            f"no memory at {stores.memory.display}: nothing to recall (no facts, no conversations)"
        )
    with ExitStack() as stack:
        facts = None
        if not stores.memory.holds_nothing_yet:
            memory = stack.enter_context(open_memory(stores.memory.target, space=stores.space, create=False))
            facts = memory.store
        experiences = None
        if stores.experiences_named or not stores.experiences.holds_nothing_yet:
            opened = stack.enter_context(open_store(stores, create=False))
            experiences = read_hiding_purges(stores, opened)  # what the memory purged stays out, even here
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
