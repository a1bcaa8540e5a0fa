"""Inside one write transaction SQLite reads the seals, `has_periods` and `declarations` once
(`zerolang.storage.sql.memo`): after any write in it, what they return is what the store holds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import zerolang.memory
from zerolang.knowledge.ingest import ingest_one
from zerolang.memory import CompilerInput, ContextMeta, SemanticTuple
from zerolang.memory.api import Memory


def _input(subject: str, predicate: str, obj: str, day: int) -> CompilerInput:
    meta = ContextMeta(f"2026-01-{day:02d}T00:00:00Z", "user", "home")
    return CompilerInput((SemanticTuple(subject, predicate, obj),), meta)


def _stored(memory: Memory) -> tuple[Any, ...]:
    """The seals, whether periods exist and the declarations, read past the memo."""
    backend: Any = memory.store.backend
    db = backend.connection
    space = backend.space
    seals = db.execute("SELECT tbl, row_count, digest FROM table_seals WHERE space = ?", [space]).fetchall()
    periods = db.execute("SELECT 1 FROM fact_periods WHERE space = ? LIMIT 1", [space]).fetchone() is not None
    declared = db.execute("SELECT at, setting, value FROM declarations WHERE space = ? ORDER BY seq", [space])
    return seals, periods, declared.fetchall()


def _seen(memory: Memory) -> tuple[Any, ...]:
    """The same, as the backend answers (from its memo where it holds them)."""
    backend: Any = memory.store.backend
    declared = [(d.at, d.setting, d.value) for d in backend.declarations()]
    return list(backend.raw_seals()), backend.has_periods(), declared


def _fails(memory: Memory) -> None:
    with pytest.raises(RuntimeError), memory.store.transaction():
        memory.ingest([_input("ann", "likes", "fig", 9)], now="2026-02-09T00:00:00.000Z")
        raise RuntimeError("rolled back to its savepoint")


STEPS: list[Callable[[Memory], object]] = [
    lambda m: m.ingest([_input("ann", "likes", "tea", 1)], now="2026-02-01T00:00:00.000Z"),
    lambda m: m.declare_single_valued(["lives in"]),
    lambda m: m.ingest([_input("ann", "lives in", "paris", 2)], now="2026-02-02T00:00:00.000Z"),
    lambda m: m.ingest([_input("ann", "lives in", "rome", 3)], now="2026-02-03T00:00:00.000Z"),
    lambda m: m.retract("ann|likes|tea", now="2026-02-04T00:00:00.000Z"),
    _fails,
    lambda m: m.store.backend.reseal(),  # type: ignore[attr-defined]
    lambda m: m.declare_single_valued(["lives in"], remove=True),
    lambda m: m.ingest([_input("bob", "likes", "jam", 5)], now="2026-02-05T00:00:00.000Z"),
]


def test_what_a_write_transaction_reads_again_is_what_the_store_holds(tmp_path: Path) -> None:
    with zerolang.memory.open(tmp_path / "m.db") as memory:
        memory.ingest([_input("cat", "is", "here", 1)], now="2026-02-01T00:00:00.000Z")
        with memory.store.transaction():
            assert memory.store.backend.write_memo() is not None  # type: ignore[attr-defined]
            assert _seen(memory) == _stored(memory)
            for number, step in enumerate(STEPS):
                step(memory)
                assert _seen(memory) == _stored(memory), number
        assert memory.store.backend.write_memo() is None  # type: ignore[attr-defined]
        assert memory.store.check().ok
        assert _seen(memory) == _stored(memory)


def _in_write(memory: Memory) -> tuple[tuple[Any, ...], tuple[Any, ...], bool]:
    """In a write transaction: what the backend answers, what is stored, and whether it blocks any key."""
    backend: Any = memory.store.backend
    with memory.store.transaction():
        return _seen(memory), _stored(memory), backend.any_blocked()


def test_the_next_write_transaction_sees_what_another_connection_wrote(tmp_path: Path) -> None:
    """A committed transaction's memo is kept for the next one only while nothing else wrote."""
    with zerolang.memory.open(tmp_path / "m.db") as memory, zerolang.memory.open(tmp_path / "m.db") as other:
        memory.ingest([_input("cat", "is", "here", 1)], now="2026-02-01T00:00:00.000Z")
        seen, stored, _ = _in_write(memory)
        assert seen == stored
        assert _in_write(memory)[0] == stored  # kept: nothing wrote in between
        for number, step in enumerate(STEPS[:5] + STEPS[6:]):
            step(other)
            seen, stored, _ = _in_write(memory)
            assert seen == stored, number
        assert not _in_write(memory)[2]
        other.forget("concept", "bob", purge=True, now="2026-02-06T00:00:00.000Z")
        seen, stored, blocked = _in_write(memory)
        assert seen == stored
        assert blocked


def test_the_next_write_transaction_sees_its_connection_write_outside_one(tmp_path: Path) -> None:
    with zerolang.memory.open(tmp_path / "m.db") as memory:
        memory.ingest([_input("cat", "is", "here", 1)], now="2026-02-01T00:00:00.000Z")
        before = _in_write(memory)
        backend: Any = memory.store.backend
        backend.connection.execute(  # a statement of its own connection, outside a transaction
            "INSERT INTO declarations (space, at, setting, value, declared) VALUES (?, ?, ?, ?, ?)",
            [backend.space, "2026-02-02T00:00:00.000Z", "single_valued", "lives in", 1],
        )
        after = _in_write(memory)
        assert after[0] == after[1]
        assert after[0][2] != before[0][2]


@pytest.mark.parametrize("together", [True, False])
def test_a_table_found_empty_is_looked_up_once_it_has_rows(tmp_path: Path, together: bool) -> None:
    """Which tables hold rows is kept while the ones found empty keep their seals: the same record
    written again (in the same transaction or the next) is a restatement, not a second row."""
    with zerolang.memory.open(tmp_path / "m.db") as memory:
        backend: Any = memory.store.backend
        record = _input("ann", "likes", "tea", 1)
        with memory.store.transaction():
            list(backend.raw_seals())  # as a server's call begins: the seals known, every table empty
            ingest_one(memory.store, record, now="2026-02-01T00:00:00.000Z")  # no replay after an error
            if together:
                ingest_one(memory.store, record, now="2026-02-02T00:00:00.000Z")
        with memory.store.transaction():
            ingest_one(memory.store, record, now="2026-02-03T00:00:00.000Z")
        assert memory.store.counts().episodes == 1
        assert memory.store.check().ok
