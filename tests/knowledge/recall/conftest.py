"""Small stores with hand-computable numbers, and a pinned clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from zerolang.knowledge.types import CompilerInput, ContextMeta, SemanticTuple
from zerolang.memory import MemoryStore, ingest
from zerolang.storage import open_store

T0 = datetime(2026, 3, 1, tzinfo=UTC)
DAY = timedelta(days=1)
NOW = "2026-03-01T00:00:00.000Z"


class Clock:
    """A settable clock: `clock()` is now, `clock.advance(days=...)` moves it."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def fact_input(*tuples: tuple[str, str, str, float], when: datetime = T0, scope: str = "s") -> CompilerInput:
    meta = ContextMeta(when.isoformat().replace("+00:00", "Z"), "user_prompt", scope)
    return CompilerInput(tuple(SemanticTuple(s, p, o, c) for s, p, o, c in tuples), meta)


def add(
    store: MemoryStore,
    *tuples: tuple[str, str, str, float],
    when: datetime = T0,
    scope: str = "s",
    learned: datetime | None = None,
) -> None:
    """Ingest the tuples observed at `when` (event time), learned by the store at `learned`
    (default `NOW`): decay counts from when a memory was learned, never from its event time."""
    stamp = NOW if learned is None else learned.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    ingest(store, [fact_input(*tuples, when=when, scope=scope)], now=stamp)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store() -> Iterator[MemoryStore]:
    with open_store() as memory:
        yield memory
