"""Which storage backends the test run can reach: SQLite always, PostgreSQL when a server answers.

The server is `$ZERO_TEST_POSTGRES_URL`, else `postgresql://postgres@127.0.0.1:5432/test` if it
answers. Each test session gets a database of its own (`zt_backend_<pid>_<random>`, dropped at
the end), or, where the role may not create databases, a schema of its own in the server's database.
"""

from __future__ import annotations

import functools
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

ENV = "ZERO_TEST_POSTGRES_URL"
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"


@dataclass(frozen=True, slots=True)
class Server:
    url: str | None  # the base URL, None when unreachable
    reason: str  # why it is not used, or where it is


@functools.cache
def postgres_server() -> Server:
    url = os.environ.get(ENV) or DEFAULT_URL
    try:
        import psycopg
    except ImportError:
        return Server(None, "psycopg is not installed (pip install -e '.[test]')")
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as error:
        source = ENV if os.environ.get(ENV) else "the default"
        return Server(None, f"no PostgreSQL at {url} ({source}): {str(error).strip().splitlines()[0]}")
    return Server(url, url)


class Scratch:
    """A database (or schema) for this session: created on first use, dropped by `drop`."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.name = f"zt_backend_{os.getpid()}_{secrets.token_hex(4)}"
        self.url = ""
        self.kind = ""

    def create(self) -> str:
        import psycopg

        with psycopg.connect(self.base, autocommit=True) as admin:
            try:
                admin.execute(f'CREATE DATABASE "{self.name}"')
                self.kind = "database"
                head, _, _ = self.base.rpartition("/")
                self.url = f"{head}/{self.name}"
            except psycopg.errors.InsufficientPrivilege:
                admin.execute(f'CREATE SCHEMA "{self.name}"')
                self.kind = "schema"
                joiner = "&" if "?" in self.base else "?"
                self.url = f"{self.base}{joiner}options={quote(f'-csearch_path={self.name}')}"
        return self.url

    def __enter__(self) -> str:
        return self.create()

    def __exit__(self, *exc: object) -> None:
        self.drop()

    def drop(self) -> None:
        if not self.kind:
            return
        import psycopg

        with psycopg.connect(self.base, autocommit=True) as admin:
            if self.kind == "database":
                admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            else:
                admin.execute(f'DROP SCHEMA IF EXISTS "{self.name}" CASCADE')


@contextmanager
def scratch() -> Iterator[str]:
    """A scratch database (or schema) for one test, dropped after it; the test is skipped without a server."""
    server = postgres_server()
    if server.url is None:
        import pytest

        pytest.skip(server.reason)
    with Scratch(server.url) as url:
        yield url


@contextmanager
def restored(dump: Path) -> Iterator[str]:
    """A scratch database holding a `pg_dump` (dropped afterwards); the test is skipped without a
    server, or where the role may not create databases (a dump names the public schema)."""
    import psycopg
    import pytest

    with scratch() as url:
        if "options=" in url:
            pytest.skip("the dump names the public schema: it needs a database of its own")
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(dump.read_text(encoding="utf-8").encode())
        yield url


def summary() -> str:
    from tests.pooler import binary

    server = postgres_server()
    if server.url is None:
        return f"memory backends: sqlite; postgres SKIPPED: {server.reason}"
    pooler = binary()
    if pooler is None:
        return (
            f"memory backends: sqlite, postgres ({server.reason}); postgres-pgbouncer SKIPPED: no pgbouncer"
        )
    return f"memory backends: sqlite, postgres ({server.reason}), postgres-pgbouncer ({pooler})"
