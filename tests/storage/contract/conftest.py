"""The contract suite's stores: every test runs on SQLite, on PostgreSQL, and on PostgreSQL through
pgbouncer in transaction pooling mode (`tests/pooler.py`: no session state between transactions).

On PostgreSQL every test gets a space of its own in the session's scratch
database, which spaces isolate completely (what `test_spaces` proves).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.backends import scratch
from tests.pooler import pgbouncer
from zerolang import storage
from zerolang.memory import MemoryStore

BACKENDS = ["sqlite", "postgres", "postgres-pgbouncer"]
POOLED = "postgres-pgbouncer"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with scratch() as url:
        yield url


@pytest.fixture(scope="session")
def pooled_url(postgres_url: str) -> Iterator[str]:
    """The session's scratch database through pgbouncer (transaction pooling)."""
    if "options=" in postgres_url:
        pytest.skip("pgbouncer passes no startup options: the scratch schema needs a database of its own")
    with pgbouncer(postgres_url) as url:
        yield url


@pytest.fixture
def roles(postgres_url: str) -> Iterator[tuple[str, str]]:
    """Two new login roles on the test server, dropped with whatever they own at the end."""
    import psycopg

    token = secrets.token_hex(4)
    names = (f"zt_backend_{token}_a", f"zt_backend_{token}_b")
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE ROLE "{name}" LOGIN')
    yield names
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        for name in names:
            admin.execute(f'DROP OWNED BY "{name}"')
            admin.execute(f'DROP ROLE "{name}"')


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def location(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where this test's store lives: a fresh SQLite file, or the session's PostgreSQL database."""
    if backend == POOLED:
        return str(request.getfixturevalue("pooled_url"))
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "memory.db")


@pytest.fixture
def space(backend: str) -> str:
    """This test's own space (on SQLite the file is fresh anyway)."""
    return "default" if backend == "sqlite" else f"t-{secrets.token_hex(6)}"


@pytest.fixture
def open_store(location: str, space: str) -> Iterator[Callable[..., MemoryStore]]:
    opened: list[MemoryStore] = []

    def make(other_space: str | None = None, *, create: bool = True) -> MemoryStore:
        store = storage.open_store(location, space=other_space or space, create=create)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Callable[..., MemoryStore]) -> MemoryStore:
    return open_store()
