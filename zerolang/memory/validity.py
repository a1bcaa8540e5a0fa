"""Which stored facts hold now, and retracting those that do: the MCP knowledge graph's two questions
of time (`zerolang.mcp.graph`), answered here so that surfaces never reach `zerolang.knowledge.temporal`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.knowledge.backend import FactTimes
    from zerolang.knowledge.store import MemoryStore

__all__ = ["current_facts", "retract_current"]


def current_facts(store: MemoryStore, keys: Collection[bytes]) -> tuple[set[bytes], str | None]:
    """Of the facts `keys` name: those stored, believed current now and not blocked by a forget;
    and the next moment (after now) a believed validity period of one of them begins or ends (None:
    no such moment)."""
    from zerolang.knowledge import temporal
    from zerolang.util.times import utc_now

    backend = store.backend
    facts = backend.facts(list(set(keys)))
    blocked = backend.blocked(list(facts))
    until: str | None = None
    if not backend.has_periods():  # every stored fact is current, for good (`temporal.visible`)
        live = set(facts)
    else:
        now = utc_now()
        live = set()
        for key, rows in temporal.beliefs(backend, list(facts.values())).items():
            if temporal.shown(rows, now, None, None):
                live.add(key)
            for row in temporal.believed(rows):
                for moment in (row.valid_from, row.valid_to):
                    if moment is not None and moment > now and (until is None or moment < until):
                        until = moment
    return live - blocked, until


def retract_current(store: MemoryStore, keys: Collection[bytes]) -> None:
    """Retract, now, each fact of `keys` that is believed to hold now or later (as `zero memory
    retract` does); kept for history."""
    from zerolang.knowledge import temporal
    from zerolang.util.times import utc_now

    backend = store.backend
    facts = backend.facts(list(dict.fromkeys(keys)))
    at = utc_now()
    single = store.single_valued
    for key, fact in facts.items():
        held = temporal.believed(temporal.beliefs(backend, [fact])[key])
        if not any(row.valid_to is None or row.valid_to > at for row in held):
            continue
        start = min(row.valid_from for row in held)
        temporal.retract(backend, fact, at=at, valid_to=max(at, start), single=single)


def times_now(store: MemoryStore, facts: Sequence[bytes], now: str) -> dict[bytes, FactTimes]:
    """The times (validity, retraction, supersession) of these facts (raw fact hashes) as of `now`,
    by fact; a fact the store does not hold is left out (`zero explore` draws past facts apart)."""
    from zerolang.knowledge.temporal import times_of

    found = store.backend.facts(list(facts))
    return times_of(store.backend, list(found.values()), now)
