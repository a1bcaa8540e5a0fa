"""The archive index and the access counts are sealed (issue 28, point 3), on both backends.

Every write of `memory_index` (put, touch, flags, delete, erase) and of `episode_access` (recall's
`touch`, a copied tier state, a sweep, a forget) keeps `check` passing; any single hand edit of
either table (privacy, consent flags, summary, a row deleted or added; an access count) makes
`check` fail, naming the table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from tests.storage.contract.helpers import before_words, example
from zerolang import storage
from zerolang.archive.index import IndexRecord
from zerolang.knowledge.terms import Forgotten
from zerolang.memory import MemoryStore
from zerolang.storage.sql.backend import SqlBackend

RECORDS = [
    IndexRecord(
        hash=f"{number:064x}",
        summary=f"summary {number} about tea",
        day=date(2026, 11, number),
        source_channel="dm:alice",
        created_at="2026-11-20T09:30:00Z",
        consent_scope="personal",
        y_privacy=3 if number == 2 else 0,
        consent_flags=("revoked",) if number == 3 else (),
    )
    for number in range(1, 5)
]
H1, H2, H3 = (f"'{record.hash}'" for record in RECORDS[:3])

EDITS = [
    ("index-privacy", "memory_index", f"UPDATE memory_index SET y_privacy = 0 WHERE hash = {H2}"),
    ("index-flags-cleared", "memory_index", f"UPDATE memory_index SET consent_flags = '' WHERE hash = {H3}"),
    (
        "index-summary",
        "memory_index",
        f"UPDATE memory_index SET summary = 'nothing to see' WHERE hash = {H1}",
    ),
    ("index-count", "memory_index", f"UPDATE memory_index SET reinforcement_count = 7 WHERE hash = {H1}"),
    ("index-deleted", "memory_index", f"DELETE FROM memory_index WHERE hash = {H2}"),
    (
        "index-added",
        "memory_index",
        "INSERT INTO memory_index (space, hash, summary, day, y_privacy, z_abstraction, cluster_id,"
        " decay_score, reinforcement_count, last_accessed_at, consent_scope, consent_flags, source_session,"
        " source_channel, created_at) SELECT space, '"
        + "f"
        * 64
        + "', summary, day, y_privacy, z_abstraction,"
        f" cluster_id, decay_score, reinforcement_count, last_accessed_at, consent_scope, consent_flags,"
        f" source_session, source_channel, created_at FROM memory_index WHERE hash = {H1}",
    ),
    ("access-count", "episode_access", "UPDATE episode_access SET access_count = access_count + 5"),
    ("access-time", "episode_access", "UPDATE episode_access SET last_access = '2099-01-01T00:00:00.000Z'"),
    ("access-deleted", "episode_access", "DELETE FROM episode_access"),
]


def _populated(store: MemoryStore) -> None:
    example(store)
    index = _sql(store).index
    for record in RECORDS:
        index.put(record)
    index.touch(RECORDS[0].hash, "2026-11-21T00:00:00Z")
    index.set_flags(RECORDS[1].hash, ["no-export"])
    _sql(store).touch([bytes(e[0]) for e in _sql(store).rows("SELECT hash FROM episodes")], "2026-11-21")
    _sql(store).touch([bytes(e[0]) for e in _sql(store).rows("SELECT hash FROM episodes")], "2026-11-22")


def _sql(store: MemoryStore) -> SqlBackend:
    backend = store.backend
    assert isinstance(backend, SqlBackend)
    return backend


def _edit(location: str, space: str, sql: str) -> int:
    if location.startswith("postgresql"):
        import psycopg

        with psycopg.connect(location, autocommit=True) as server:
            return server.execute(
                f"{sql} {'AND' if 'WHERE' in sql else 'WHERE'} space = %s", [space]
            ).rowcount
    connection = sqlite3.connect(location)
    try:
        changed = connection.execute(sql).rowcount
        connection.commit()
        return changed
    finally:
        connection.close()


def _problems(store: MemoryStore) -> list[str]:
    return [str(problem) for problem in store.check().problems]


def test_writes_of_the_index_and_the_access_counts_keep_the_seals(
    open_store: Callable[..., MemoryStore],
) -> None:
    store = open_store()
    _populated(store)
    assert _problems(store) == []
    index = _sql(store).index
    assert index.delete(RECORDS[3].hash)
    index.put(RECORDS[0])  # a row rewritten as it was
    assert _problems(store) == []
    assert index.erase(Forgotten(), [RECORDS[2].hash]) == [RECORDS[2].hash]
    assert _problems(store) == []
    state = _sql(store).tier_state()
    assert state.accesses
    _sql(store).put_tier_state(state)  # migrate's copy of the counts, onto themselves
    assert _problems(store) == []


def _seal_of(location: str, space: str, table: str) -> Any:
    if location.startswith("postgresql"):
        import psycopg

        with psycopg.connect(location, autocommit=True) as server:
            return server.execute(
                "SELECT row_count, digest FROM table_seals WHERE space = %s AND tbl = %s", [space, table]
            ).fetchone()
    connection = sqlite3.connect(location)
    try:
        return connection.execute(
            "SELECT row_count, digest FROM table_seals WHERE space = ? AND tbl = ?", [space, table]
        ).fetchone()
    finally:
        connection.close()


def test_the_seals_kept_on_write_equal_a_recount(
    open_store: Callable[..., MemoryStore], location: str, space: str
) -> None:
    """What the writers folded in is what a whole recount of the rows gives."""
    store = open_store()
    _populated(store)
    kept = {table: _seal_of(location, space, table) for table in ("memory_index", "episode_access")}
    assert all(seal is not None and seal[0] > 0 for seal in kept.values()), kept
    with _sql(store).write():
        _sql(store).reseal()
    assert {table: _seal_of(location, space, table) for table in kept} == kept


@pytest.mark.parametrize(("name", "table", "sql"), EDITS, ids=[edit[0] for edit in EDITS])
def test_check_sees_a_hand_edit_of_the_index_and_the_access_counts(
    open_store: Callable[..., MemoryStore], location: str, space: str, name: str, table: str, sql: str
) -> None:
    store = open_store()
    _populated(store)
    assert _problems(store) == []
    assert _edit(location, space, sql) > 0
    problems = _problems(store)
    assert problems, f"{name} went unseen"
    assert any(table in problem for problem in problems), problems


def test_a_store_from_before_the_fourth_seals_is_sealed_when_opened(
    open_store: Callable[..., MemoryStore], location: str, space: str, backend: str
) -> None:
    if backend != "sqlite":
        pytest.skip("the schema version of a file is set by hand here")
    with storage.open_store(location, space=space) as first:
        _populated(first)
    connection = sqlite3.connect(location)
    connection.execute(
        "DELETE FROM table_seals WHERE tbl IN ('memory_index', 'episode_access', '*sealed:4*')"
    )
    connection.execute("PRAGMA user_version = 14")  # step 15 brought the fourth generation
    before_words(connection)
    connection.commit()
    connection.close()
    store = open_store()
    assert _problems(store) == []
    _edit(location, space, f"UPDATE memory_index SET y_privacy = 0 WHERE hash = {H2}")
    assert any("memory_index" in problem for problem in _problems(store))


def test_a_deleted_fourth_marker_is_reported(
    open_store: Callable[..., MemoryStore], location: str, backend: str
) -> None:
    if backend != "sqlite":
        pytest.skip("the marker rows are shared by every space of the database")
    store = open_store()
    _populated(store)
    _edit(location, "", "DELETE FROM table_seals WHERE tbl = '*sealed:4*'")
    assert any("'*sealed:4*'" in problem for problem in _problems(store))
