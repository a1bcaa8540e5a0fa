"""The experience database's tables, defined once (`schema.experience_tables`), are the ones every
release made: a database the stores create today has the schema of one an older release created.

The older databases are the fixtures `test_older_experiences` reads (`make_experiences.py`
wrote them, with the DDL each engine's stores then spelled out). Opening the stores needs no
SQLAlchemy; a SQLite store a newer zerolang made is refused, and one from before `exp_forgotten`
gains the table, as one from before `exp_cursor` does.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.backends import Scratch, postgres_server, restored, scratch
from tests.storage.schemas import postgres_schema, sqlite_schema
from zerolang.storage import open_conversations, open_experiences
from zerolang.util.errors import ZeroError

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "stores"
RELEASE = "experiences-2026-11-28"
LATER = "exp_cursor"  # a table added after that release without a new number: opening adds it


def before_later(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema without the tables added after `RELEASE`, rows keyed by table name first."""
    out: dict[str, Any] = {}
    for part, value in schema.items():
        if isinstance(value, dict):
            out[part] = {name: item for name, item in value.items() if name != LATER}
        else:
            out[part] = [row for row in value if not (isinstance(row, tuple) and row and row[0] == LATER)]
    return out


def create(location: str) -> None:
    """An experience database as today's stores make it: both stores' tables."""
    open_experiences(location).close()
    open_conversations(location).close()


def sqlite_database(path: Path) -> dict[str, object]:
    with sqlite3.connect(path) as connection:
        meta = sorted(connection.execute("SELECT key, value FROM exp_meta").fetchall())
        return {"schema": sqlite_schema(connection), "meta": meta}


@pytest.fixture
def older_sqlite(tmp_path: Path) -> Path:
    copy = tmp_path / "older.db"
    shutil.copyfile(FIXTURES / f"{RELEASE}.db", copy)
    return copy


def test_a_new_sqlite_database_has_the_schema_an_older_release_made(
    older_sqlite: Path, tmp_path: Path
) -> None:
    new = tmp_path / "new.db"
    create(str(new))
    made, older = sqlite_database(new), sqlite_database(older_sqlite)
    assert made["schema"] != older["schema"]
    assert {**made, "schema": before_later(made["schema"])} == older  # type: ignore[arg-type]
    create(str(older_sqlite))  # opening adds what came later, and changes nothing else
    assert sqlite_database(new) == sqlite_database(older_sqlite)


def test_a_new_postgres_database_has_the_schema_an_older_release_made() -> None:
    with scratch() as new_url, restored(FIXTURES / f"{RELEASE}.pg.sql") as old_url:
        import psycopg

        create(new_url)
        with psycopg.connect(new_url) as new, psycopg.connect(old_url) as old:
            assert before_later(postgres_schema(new)) == postgres_schema(old)
        create(old_url)  # opening adds what came later, and changes nothing else
        with psycopg.connect(new_url) as new, psycopg.connect(old_url) as old:
            assert postgres_schema(new) == postgres_schema(old)


def test_a_sqlite_store_from_before_the_blocked_terms_gains_their_table(
    older_sqlite: Path, tmp_path: Path
) -> None:
    with sqlite3.connect(older_sqlite) as connection:
        connection.execute("DROP TABLE exp_forgotten")
    with open_experiences(str(older_sqlite), create=False) as store:
        assert store.forgotten_terms() == []
    new = tmp_path / "new.db"
    create(str(new))
    assert sqlite_database(new) == sqlite_database(older_sqlite)


def test_a_sqlite_store_of_a_newer_experience_schema_is_refused(older_sqlite: Path) -> None:
    with sqlite3.connect(older_sqlite) as connection:
        connection.execute("UPDATE exp_meta SET value = '2' WHERE key = 'schema'")
    with pytest.raises(
        ZeroError, match=r"made by a newer zerolang \(experience schema 2, this one reads 1\)"
    ):
        open_experiences(str(older_sqlite), create=False)


@pytest.fixture
def locations(tmp_path: Path) -> Iterator[list[str]]:
    """Where a subprocess creates and then opens each store: a SQLite file, and PostgreSQL if it answers."""
    found = [str(tmp_path / "e.db")]
    server = postgres_server()
    if server.url is None:
        yield found
        return
    with Scratch(server.url) as url:
        yield [*found, url]


def test_opening_and_creating_the_stores_never_imports_sqlalchemy(locations: list[str]) -> None:
    script = (
        "import sys\n"
        "from zerolang.storage import open_conversations, open_experiences\n"
        f"for where in {locations!r}:\n"
        "    for opener in (open_experiences, open_conversations):\n"
        "        opener(where).close()\n"
        "        opener(where, create=False).close()\n"
        "print(any(name.split('.')[0] in ('sqlalchemy', 'alembic') for name in sys.modules))\n"
    )
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert completed.stdout.strip() == "False", completed.stderr
