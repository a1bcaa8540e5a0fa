"""The summary index: one contract suite for every IndexStore.

The stores: the in-memory reference, and the memory backends' `memory_index` (a backend's
`.index`) on SQLite (a file, and `:memory:`) and on PostgreSQL (a space of its own in the
session's scratch database).
"""

from __future__ import annotations

import itertools
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from zerolang.archive.index import IndexError_, IndexQuery, IndexRecord, IndexStore, MemoryIndex
from zerolang.storage import open_backend, open_index
from zerolang.util.errors import ZeroError

TODAY = date(2026, 11, 24)


def record(number: int, **changes: object) -> IndexRecord:
    base = IndexRecord(
        hash=f"{number:064x}",
        summary=f"Summary {number}: the user likes tea",
        day=TODAY - timedelta(days=number),
        source_channel="dm:alice",
        source_session="s-1",
        created_at=f"2026-11-{10 + number % 10:02d}T10:00:00Z",
        consent_scope="personal",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


STORES = ["memory", "sqlite-file", "sqlite-memory", "postgres"]


@pytest.fixture(params=STORES)
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[IndexStore]:
    store: IndexStore
    if request.param == "memory":
        store = MemoryIndex()
    elif request.param == "sqlite-file":
        store = open_index(str(tmp_path / "memory.db"))
    elif request.param == "sqlite-memory":
        store = open_index("sqlite::memory:")
    else:
        store = open_index(request.getfixturevalue("postgres_url"), space=f"t-{secrets.token_hex(6)}")
    yield store
    store.close()


def test_put_get_replace_delete(index: IndexStore) -> None:
    first = record(1, y_privacy=-3, z_abstraction=7, cluster_id="c1", consent_flags=("b", "a", "b"))
    index.put(first)
    assert index.get(first.hash) == first
    assert first.consent_flags == ("a", "b")
    index.put(replace(first, summary="changed"))
    assert index.get(f"sha256:{first.hash.upper()}").summary == "changed"  # type: ignore[union-attr]
    assert index.count() == 1
    assert index.delete(first.hash) and not index.delete(first.hash)
    assert index.get(first.hash) is None


def test_t_x_is_computed_against_today_not_stored(index: IndexStore) -> None:
    index.put(record(3))
    stored = index.get(record(3).hash)
    assert stored is not None
    assert stored.t_x(TODAY) == -3
    assert stored.t_x(TODAY + timedelta(days=10)) == -13
    assert stored.to_json(TODAY)["t_x"] == -3
    future = record(4, day=TODAY + timedelta(days=2))
    assert future.t_x(TODAY) == 2


def test_search_filters_and_order(index: IndexStore) -> None:
    for number in range(8):
        index.put(
            record(
                number,
                y_privacy=number * 2 - 7,
                z_abstraction=-number,
                source_channel="dm:alice" if number % 2 else "slack:general",
                source_session=f"s-{number % 3}",
                cluster_id="even" if number % 2 == 0 else None,
                summary=f"Summary {number}: the user likes {'coffee' if number < 4 else 'tea'}",
            )
        )

    def hashes(**query: object) -> list[int]:
        found = index.search(IndexQuery(today=TODAY, **query))  # type: ignore[arg-type]
        return [int(item.hash, 16) for item in found]

    assert hashes() == list(range(8))  # newest day first
    assert hashes(text="LIKES Coffee") == [0, 1, 2, 3]
    assert hashes(text="tea user") == [4, 5, 6, 7]
    assert hashes(text="wine") == []
    assert hashes(channels=("dm:alice",)) == [1, 3, 5, 7]
    assert hashes(channels=()) == []
    assert hashes(session="s-1") == [1, 4, 7]
    assert hashes(privacy_max=0) == [0, 1, 2, 3]
    assert hashes(privacy_min=1, privacy_max=5) == [4, 5, 6]
    assert hashes(abstraction_min=-2) == [0, 1, 2]
    assert hashes(abstraction_max=-6) == [6, 7]
    assert hashes(t_min=-2) == [0, 1, 2]
    assert hashes(t_min=-5, t_max=-4) == [4, 5]
    assert hashes(t_min=-(10**9)) == list(range(8))
    assert hashes(cluster_id="even") == [0, 2, 4, 6]
    assert hashes(limit=3) == [0, 1, 2]


def test_revoked_records_are_hidden_unless_asked(index: IndexStore) -> None:
    index.put(record(1))
    index.put(record(2))
    assert index.set_flags(record(1).hash, ["revoked"]) is not None
    assert [r.hash for r in index.search(IndexQuery(today=TODAY))] == [record(2).hash]
    assert len(index.search(IndexQuery(today=TODAY, include_revoked=True))) == 2
    assert index.set_flags("f" * 64, ["revoked"]) is None


def test_touch_counts_accesses(index: IndexStore) -> None:
    index.put(record(1))
    index.touch(record(1).hash, "2026-11-24T10:00:00Z")
    touched = index.touch(record(1).hash, "2026-11-24T11:00:00Z")
    assert touched is not None
    assert (touched.reinforcement_count, touched.last_accessed_at) == (2, "2026-11-24T11:00:00Z")
    assert index.touch("e" * 64, "2026-11-24T11:00:00Z") is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"y_privacy": 16}, "y_privacy must be an integer from -15 to 15"),
        ({"y_privacy": -16}, "y_privacy"),
        ({"z_abstraction": 15.5}, "z_abstraction"),
        ({"z_abstraction": True}, "z_abstraction"),
        ({"decay_score": 1.5}, "decay_score"),
        ({"decay_score": float("nan")}, "decay_score"),
        ({"reinforcement_count": -1}, "reinforcement_count"),
        ({"summary": "  "}, "summary must be non-empty"),
        ({"hash": "../../etc/passwd"}, "not a document hash"),
        ({"consent_flags": ("Revoked!",)}, "consent flag"),
        ({"created_at": "now"}, "created_at"),
        ({"source_channel": ""}, "source_channel"),
        ({"consent_scope": ""}, "consent_scope"),
    ],
)
def test_records_are_validated(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ZeroError, match=message):
        record(1, **changes)


def test_queries_are_validated() -> None:
    with pytest.raises(IndexError_, match="privacy_max must be an integer from -15 to 15"):
        IndexQuery(privacy_max=40)
    with pytest.raises(IndexError_, match="limit"):
        IndexQuery(limit=0)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_spaces_do_not_see_each_other(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    location = str(tmp_path / "memory.db") if backend == "sqlite" else request.getfixturevalue("postgres_url")
    index = open_index(location, space=f"m-{secrets.token_hex(6)}")
    index.put(record(1))
    other = open_index(location, space=f"o-{secrets.token_hex(6)}")
    try:
        assert other.get(record(1).hash) is None and other.count() == 0
        assert other.search(IndexQuery(today=TODAY)) == []
        other.put(record(1, summary="another space's summary"))
        assert not other.delete(record(2).hash)
    finally:
        other.close()
    stored = index.get(record(1).hash)
    assert stored is not None and stored.summary == record(1).summary
    assert index.count() == 1
    index.close()


def test_a_backend_exposes_its_index_and_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    backend = open_backend(path, space="notes")
    backend.index.put(record(1))
    backend.index.close()  # the backend's own index: closing it leaves the store open
    assert backend.index.count() == 1
    assert backend.spaces() == ["notes"]
    backend.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT space, hash FROM memory_index").fetchall() == [("notes", record(1).hash)]
    reopened = open_index(f"sqlite:///{path}", space="notes", create=False)
    assert reopened.get(record(1).hash) == record(1)
    reopened.close()


BAD_ROWS = [
    "y_privacy = 16",
    "y_privacy = -16",
    "z_abstraction = 99",
    "z_abstraction = -16",
    "decay_score = 2",
    "reinforcement_count = -1",
    "day = '2026-02-30'",
    "hash = 'xyz'",
    "summary = ' '",
]


@pytest.mark.parametrize("change", BAD_ROWS)
def test_sqlite_refuses_bad_rows_even_by_hand(change: str, tmp_path: Path) -> None:
    index = open_index(str(tmp_path / "memory.db"))
    index.put(record(1))
    index.close()
    with sqlite3.connect(tmp_path / "memory.db") as db, pytest.raises(sqlite3.IntegrityError):
        db.execute(f"UPDATE memory_index SET {change}")
    with sqlite3.connect(tmp_path / "memory.db") as db:
        assert db.execute("SELECT y_privacy FROM memory_index").fetchall() == [(0,)]


@pytest.mark.parametrize("change", BAD_ROWS)
def test_postgres_refuses_bad_rows_even_by_hand(change: str, postgres_url: str) -> None:
    import psycopg

    space = f"t-{secrets.token_hex(6)}"
    index = open_index(postgres_url, space=space)
    index.put(record(1))
    index.close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        # a CHECK refuses it (an impossible date already fails the cast inside the CHECK)
        with pytest.raises((psycopg.errors.CheckViolation, psycopg.errors.DatetimeFieldOverflow)):
            db.execute(f"UPDATE memory_index SET {change} WHERE space = %s", (space,))
        row = db.execute("SELECT y_privacy FROM memory_index WHERE space = %s", (space,)).fetchone()
        assert row == (0,)


def test_t_x_is_not_a_column(postgres_url: str, tmp_path: Path) -> None:
    """The time axis is stored as the day; a t_x column would go stale overnight."""
    import psycopg

    with sqlite3.connect(tmp_path / "memory.db") as db:
        open_index(str(tmp_path / "memory.db")).close()
        sqlite_columns = [row[1] for row in db.execute("PRAGMA table_info(memory_index)")]
    with psycopg.connect(postgres_url) as db:
        open_index(postgres_url).close()
        postgres_columns = [
            row[0]
            for row in db.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'memory_index'"
                " ORDER BY ordinal_position"
            )
        ]
    assert sqlite_columns == postgres_columns
    assert "day" in sqlite_columns and "t_x" not in sqlite_columns and sqlite_columns[0] == "space"


def test_unknown_locations() -> None:
    for location in ("sqlite:relative", "sqlite:", "sqlite://", ""):
        with pytest.raises(ZeroError, match=r"not a SQLite location|cannot be empty"):
            open_index(location)
    with pytest.raises(ZeroError, match=r"no storage engine serves mysql://"):
        open_index("mysql://somebody@somewhere/db")
    with pytest.raises(ZeroError, match="cannot connect to PostgreSQL"):
        open_index("postgresql://nobody@127.0.0.1:1/none")
    assert isinstance(open_index("memory:"), MemoryIndex)


axes = st.integers(min_value=-15, max_value=15)
records = st.builds(
    lambda n, y, z, day, channel, words: record(
        n,
        y_privacy=y,
        z_abstraction=z,
        day=TODAY + timedelta(days=day),
        source_channel=channel,
        summary=" ".join(words) or "x",
    ),
    st.integers(min_value=0, max_value=50),
    axes,
    axes,
    st.integers(min_value=-400, max_value=30),
    st.sampled_from(["a", "b", "c"]),
    st.lists(st.sampled_from(["tea", "Tea", "coffee", "ß", "SS", "straße"]), max_size=3),
)
queries = st.builds(
    IndexQuery,
    text=st.sampled_from(["", "tea", "TEA coffee", "ss", "straße"]),
    channels=st.none() | st.sampled_from([("a",), ("a", "b"), ()]),
    privacy_max=st.none() | axes,
    abstraction_min=st.none() | axes,
    t_min=st.none() | st.integers(min_value=-500, max_value=40),
    t_max=st.none() | st.integers(min_value=-500, max_value=40),
    limit=st.integers(min_value=1, max_value=60),
    today=st.just(TODAY),
)


_spaces = itertools.count()


@pytest.fixture(params=["sqlite", "postgres"])
def fresh_index(request: pytest.FixtureRequest) -> Iterator[Callable[[], IndexStore]]:
    """A function returning an empty index of one backend (a fresh space each call), for hypothesis."""
    location = ":memory:" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    backend = open_backend(location, space="h-0")
    run = secrets.token_hex(4)
    try:
        yield lambda: backend.in_space(f"h-{run}-{next(_spaces)}").index
    finally:
        backend.close()


@settings(max_examples=scaled(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(records, max_size=12), queries)
def test_backends_answer_exactly_as_the_reference(
    fresh_index: Callable[[], IndexStore], items: list[IndexRecord], query: IndexQuery
) -> None:
    reference, stored = MemoryIndex(), fresh_index()
    for item in items:
        reference.put(item)
        stored.put(item)
    assert stored.search(query) == reference.search(query)
