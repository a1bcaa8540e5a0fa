"""Stores for the forget, correct and transfer tests: every test runs on SQLite and on PostgreSQL.

PostgreSQL is `$ZERO_TEST_POSTGRES_URL`, else the local server; the session
makes a database of its own (`zt_forget_<pid>_<random>`) and drops it at the end.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from zerolang import storage
from zerolang.memory import MemoryStore

PG_URL = os.environ.get("ZERO_TEST_POSTGRES_URL") or "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    import psycopg

    name = f"zt_forget_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(PG_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    head, _, _ = PG_URL.rpartition("/")
    try:
        yield f"{head}/{name}"
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "memory.db")


@pytest.fixture
def space(location: str) -> str:
    """A fresh space per test (the PostgreSQL database is shared by the session)."""
    return f"t-{secrets.token_hex(6)}"


@pytest.fixture
def open_store(location: str, space: str) -> Iterator[Callable[..., MemoryStore]]:
    opened: list[MemoryStore] = []

    def make(other: str | None = None) -> MemoryStore:
        store = storage.open_store(location, space=other or space)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Callable[..., MemoryStore]) -> MemoryStore:
    return open_store()


def inputs(*groups: tuple[str, str, str, list[tuple[str, str, str, float]]]) -> str:
    """A memory input file's text: (event_time, source, scope, tuples) per record."""
    return json.dumps(
        [
            {
                "tuples": [
                    {"subject": s, "predicate": p, "object": o, "confidence": c} for s, p, o, c in tuples
                ],
                "context": {"event_time": when, "source": source, "scope": scope},
            }
            for when, source, scope, tuples in groups
        ]
    )
