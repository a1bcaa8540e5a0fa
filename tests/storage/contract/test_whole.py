"""`MemoryStore.whole`: one write transaction that an error undoes whole, on both backends, with
or without a transaction around it, and with transactions opened inside it (SQLite gives those no
savepoint of their own: nothing to undo apart)."""

from __future__ import annotations

from typing import Any

import pytest

from zerolang.knowledge.compiler import compile_records
from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple


def records(tag: str, count: int) -> list[Any]:
    inputs = [
        CompilerInput(
            (SemanticTuple(f"{tag} {n}", "needs", f"{tag} {n + 1}"),),
            ContextMeta("2026-02-18T00:00:00Z", "test", f"{tag}{n}"),
        )
        for n in range(count)
    ]
    return compile_records(inputs, now="2026-03-01T00:00:00.000Z")


def state(store: MemoryStore) -> tuple[Any, ...]:
    counts = store.counts()
    return counts, sorted(store.backend.raw_seals(), key=repr), len(store.backend.log_entries())


def test_a_whole_write_commits_what_it_wrote(store: MemoryStore) -> None:
    with store.whole():
        store.apply(records("a", 3))
        with store.transaction():
            store.apply(records("b", 2))
    assert store.counts().episodes == 5
    assert store.check().ok


@pytest.mark.parametrize("outer", [False, True])
def test_an_error_inside_a_whole_write_undoes_all_of_it(store: MemoryStore, outer: bool) -> None:
    store.apply(records("kept", 2))
    before = state(store)

    def fail() -> None:
        with store.whole():
            store.apply(records("a", 3))
            with store.transaction():  # opened inside: undone with the rest
                store.apply(records("b", 2))
                raise RuntimeError("fails after its writes")

    if outer:
        with store.transaction():
            store.apply(records("c", 1))
            with pytest.raises(RuntimeError):
                fail()
            assert store.counts().episodes == 3  # the block undone, what came before it kept
    else:
        with pytest.raises(RuntimeError):
            fail()
        assert state(store) == before
    store.apply(records("d", 1))  # the store goes on as usual
    assert store.counts().episodes == (4 if outer else 3)
    assert store.check().ok


def test_sqlite_takes_no_savepoint_inside_a_whole_write(store: MemoryStore, backend: str) -> None:
    if backend != "sqlite":
        pytest.skip("PostgreSQL's transactions inside keep their savepoints")
    connection: Any = store.backend.connection  # type: ignore[attr-defined]
    statements: list[str] = []
    connection.set_trace_callback(statements.append)
    try:
        with store.whole():
            store.apply(records("a", 2))
        with store.transaction():
            store.apply(records("b", 2))
    finally:
        connection.set_trace_callback(None)
    split = next(n for n, s in enumerate(statements) if s.startswith("COMMIT"))
    assert not [s for s in statements[:split] if s.startswith("SAVEPOINT")]
    assert [s for s in statements[split:] if s.startswith("SAVEPOINT")]  # a plain one still takes them
    # in WAL mode a commit waits for no other connection: no quick busy timeout set around it
    assert not statements[split - 1].startswith("PRAGMA")
    assert statements[split + 1 : split + 3] == statements[:2]  # then the next begins as the first did
    assert statements[1] == "BEGIN IMMEDIATE"
