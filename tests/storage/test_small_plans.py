"""SQLite inserts a small plan's rows directly, a larger one's through staging tables: the same store.

`SqliteBackend.write_plan` stages a plan of `STAGE_FROM` new rows or more (a temporary table
each, moved by one `INSERT ... SELECT`) and inserts a smaller one directly. Whichever path a
batch takes, every table holds the same rows in the same order (rowids included), with the
same seals, and the store checks clean.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple, ingest
from zerolang.storage import open_store
from zerolang.storage.sqlite import backend as sqlite_backend

TABLES = ("concepts", "concept_aliases", "contexts", "facts", "episodes", "space_log", "table_seals")
WORDS = ("alice", "bob", "Bob", "carol", "the lab", "paris", "x")

tuples = st.tuples(
    st.sampled_from(WORDS),
    st.sampled_from(("likes", "works at", "lives in")),
    st.sampled_from(WORDS),
    st.sampled_from((0.5, 0.9, 1.0)),
)
batches = st.lists(
    st.lists(st.tuples(st.lists(tuples, min_size=1, max_size=4), st.sampled_from(("a", "b"))), max_size=4),
    min_size=1,
    max_size=5,
)


@contextmanager
def staging_from(rows: int) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sqlite_backend, "STAGE_FROM", rows)
        yield


def written(
    plan: list[list[tuple[list[tuple[str, str, str, float]], str]]],
) -> tuple[dict[str, list[tuple[object, ...]]], MemoryStore]:
    store = open_store(":memory:")
    for number, batch in enumerate(plan):
        inputs = [
            CompilerInput(
                tuple(SemanticTuple(*t) for t in facts),
                ContextMeta(f"2026-02-{number + 1:02d}T00:00:00Z", "user_prompt", scope),
            )
            for facts, scope in batch
        ]
        ingest(store, inputs, now=f"2026-03-{number + 1:02d}T00:00:00.000Z")
    db = store.backend.connection  # type: ignore[attr-defined]
    rows = {table: _dump(db, table) for table in TABLES}
    return rows, store


def _dump(db: sqlite3.Connection, table: str) -> list[tuple[object, ...]]:
    """A table's rows as stored: with their rowids, or in key order (a table without rowids)."""
    listed = db.execute("SELECT sql FROM sqlite_schema WHERE name = ?", [table]).fetchone()[0]
    rowid = "" if "WITHOUT ROWID" in listed.upper() else "rowid, "
    return db.execute(f"SELECT {rowid}* FROM {table}").fetchall()


@settings(max_examples=40, deadline=None)
@given(plan=batches)
def test_direct_and_staged_inserts_make_the_same_store(
    plan: list[list[tuple[list[tuple[str, str, str, float]], str]]],
) -> None:
    with staging_from(10**9):
        direct, direct_store = written(plan)
    with staging_from(0):
        staged, staged_store = written(plan)
    assert direct == staged
    assert direct_store.check().ok and staged_store.check().ok
    direct_store.close()
    staged_store.close()


def test_a_small_plan_makes_no_staging_table() -> None:
    with open_store(":memory:") as store:
        ingest(
            store,
            [
                CompilerInput(
                    (SemanticTuple("alice", "likes", "tea"),),
                    ContextMeta("2026-02-01T00:00:00Z", "user_prompt", "a"),
                )
            ],
        )
        temp = store.backend.connection.execute("SELECT name FROM temp.sqlite_schema").fetchall()  # type: ignore[attr-defined]
        assert temp == []
        assert store.counts().episodes == 1
