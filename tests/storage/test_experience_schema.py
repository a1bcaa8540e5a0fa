"""The experience database's tables, defined once (`schema.experience_tables`), and the databases
every release made: opening one an older release created brings it to the schema of a new one.

The older databases are the fixtures `test_older_experiences` reads (`make_experiences.py`
wrote them, with the DDL each engine's stores then spelled out): schema 1, before spaces. Opened
today, such a database has the schema a new one has, its rows in the default space. Opening the
stores needs no SQLAlchemy; a SQLite store a newer zerolang made is refused, and one from before
`exp_forgotten` gains the table, as one from before `exp_cursor` does.
"""

from __future__ import annotations

import re
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
from zerolang.experience.ranking import full_text
from zerolang.storage import open_conversations, open_experiences
from zerolang.util.errors import ZeroError
from zerolang.util.spaces import DEFAULT_SPACE

EXPERIENCE_VERSION = 3  # what `zerolang.storage.schema.experience_tables` renders (read without SQLAlchemy)

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


def counted(location: str, space: str = DEFAULT_SPACE) -> tuple[dict[str, int], list[str]]:
    """What a space holds: the experience store's counts and the conversation keys."""
    with open_experiences(location, create=False, space=space) as experiences:
        counts = experiences.counts()
    with open_conversations(location, create=False, space=space) as conversations:
        keys = conversations.keys("", now=0)
    return counts, keys


def test_an_older_sqlite_database_opens_with_the_schema_a_new_one_has(
    older_sqlite: Path, tmp_path: Path
) -> None:
    new = tmp_path / "new.db"
    create(str(new))
    made, older = sqlite_database(new), sqlite_database(older_sqlite)
    assert older["meta"] == [("schema", "1")] and made["meta"] == [("schema", str(EXPERIENCE_VERSION))]
    assert made["schema"] != older["schema"]
    create(str(older_sqlite))  # opening upgrades it: its tables are today's
    assert sqlite_database(new) == sqlite_database(older_sqlite)


def test_an_older_postgres_database_opens_with_the_schema_a_new_one_has() -> None:
    with scratch() as new_url, restored(FIXTURES / f"{RELEASE}.pg.sql") as old_url:
        import psycopg

        create(new_url)
        with psycopg.connect(new_url) as new, psycopg.connect(old_url) as old:
            assert before_later(postgres_schema(new)) != postgres_schema(old)
        before = counted_raw(old_url)
        create(old_url)  # opening upgrades it in place: its tables are today's
        with psycopg.connect(new_url) as new, psycopg.connect(old_url) as old:
            assert postgres_schema(new) == postgres_schema(old)
        assert counted(old_url) == before  # every row in the default space
        assert counted(old_url, "bob") == ({"turns": 0, "experiences": 0, "concepts": 0, "edges": 0}, [])


def counted_raw(url: str) -> tuple[dict[str, int], list[str]]:
    """What an older PostgreSQL database holds, read without a store (which would upgrade it)."""
    import psycopg

    tables = {
        "turns": "exp_turn",
        "experiences": "exp_experience",
        "concepts": "exp_concept",
        "edges": "exp_edge",
    }
    with psycopg.connect(url) as connection:
        counts = {
            name: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for name, table in tables.items()
        }
        keys = [row[0] for row in connection.execute('SELECT key FROM convo_entry ORDER BY key COLLATE "C"')]
    return counts, keys


def test_an_older_sqlite_database_keeps_its_rows_in_the_default_space(older_sqlite: Path) -> None:
    with sqlite3.connect(older_sqlite) as connection:
        turns = connection.execute("SELECT count(*) FROM exp_turn").fetchone()[0]
        entries = sorted(row[0] for row in connection.execute("SELECT key FROM convo_entry"))
        text = connection.execute("SELECT what FROM exp_experience ORDER BY seq LIMIT 1").fetchone()[0]
    counts, keys = counted(str(older_sqlite))
    assert counts["turns"] == turns > 0 and keys == entries
    word = max(text.split(), key=len)
    with open_experiences(str(older_sqlite), create=False) as store:
        assert (
            full_text(store, [word], 5).experiences and full_text(store, [word], 5).turns
        )  # the full text came along
    with open_experiences(str(older_sqlite), create=False, space="bob") as store:
        assert full_text(store, [word], 5).experiences == [] and store.counts()["turns"] == 0
    assert counted(str(older_sqlite), "bob") == (
        {"turns": 0, "experiences": 0, "concepts": 0, "edges": 0},
        [],
    )


def test_a_sqlite_store_from_before_the_blocked_terms_gains_their_table(
    older_sqlite: Path, tmp_path: Path
) -> None:
    with sqlite3.connect(older_sqlite) as connection:
        connection.execute("DROP TABLE exp_forgotten")
    with open_experiences(str(older_sqlite), create=False) as store:
        assert store.forgotten_terms() == []
    open_conversations(str(older_sqlite)).close()
    new = tmp_path / "new.db"
    create(str(new))
    assert sqlite_database(new) == sqlite_database(older_sqlite)


def test_a_sqlite_store_of_a_newer_experience_schema_is_refused(older_sqlite: Path) -> None:
    newer = EXPERIENCE_VERSION + 1
    with sqlite3.connect(older_sqlite) as connection:
        connection.execute(f"UPDATE exp_meta SET value = '{newer}' WHERE key = 'schema'")
    with pytest.raises(
        ZeroError,
        match=rf"made by a newer zerolang \(experience schema {newer}, this one reads {EXPERIENCE_VERSION}\)",
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


def test_the_conversations_of_an_older_sqlite_database_read_its_blocked_terms(older_sqlite: Path) -> None:
    """Opened first (`zero convo restore`), the conversation store upgrades the experience tables too:
    it reads their blocked terms, in its space."""
    with sqlite3.connect(older_sqlite) as connection:
        blocked = connection.execute("SELECT count(DISTINCT term) FROM exp_forgotten").fetchone()[0]
    with open_conversations(str(older_sqlite), create=False) as conversations:
        assert len(conversations.forgotten_terms()) == blocked > 0 and conversations.keys("", now=0)
    with sqlite3.connect(older_sqlite) as connection:
        assert connection.execute("SELECT value FROM exp_meta WHERE key = 'schema'").fetchone() == (
            str(EXPERIENCE_VERSION),
        )


def test_the_conversations_of_an_older_postgres_database_read_its_blocked_terms() -> None:
    with restored(FIXTURES / f"{RELEASE}.pg.sql") as old_url:
        with open_conversations(old_url, create=False) as conversations:
            assert conversations.forgotten_terms() and conversations.keys("", now=0)
        with open_experiences(old_url, create=False) as experiences:
            assert experiences.counts()["turns"] > 0


def test_stores_opened_at_once_on_a_new_postgres_database_all_open() -> None:
    """Agents starting together on a new database: each opening creates the tables only once, one
    at a time (two `CREATE TABLE`s of one name at once collide in PostgreSQL's catalogue)."""
    import threading

    with scratch() as url:
        start = threading.Barrier(6)
        failed: list[BaseException] = []

        def open_one(number: int) -> None:
            start.wait()
            try:
                opener = open_experiences if number % 2 else open_conversations
                opener(url).close()
            except BaseException as error:  # what each thread met is the result
                failed.append(error)

        threads = [threading.Thread(target=open_one, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failed == []
        with open_experiences(url) as store:
            assert store.counts()["turns"] == 0


NUMBERED = "experiences-2026-12-07"  # experience schema 2: hashes in every edge, turns not numbered


def test_a_sqlite_store_of_schema_2_opens_with_the_schema_a_new_one_has(tmp_path: Path) -> None:
    older = tmp_path / "older.db"
    shutil.copyfile(FIXTURES / f"{NUMBERED}.db", older)
    with sqlite3.connect(older) as connection:
        edges = connection.execute("SELECT count(*) FROM exp_edge").fetchone()[0]
        assert connection.execute("SELECT typeof(src) FROM exp_edge LIMIT 1").fetchone() == ("text",)
    new = tmp_path / "new.db"
    create(str(new))
    assert sqlite_database(older)["meta"] == [("schema", "2")]
    create(str(older))
    assert sqlite_database(new) == sqlite_database(older)
    with sqlite3.connect(older) as connection:
        assert connection.execute("SELECT count(*) FROM exp_edge").fetchone()[0] == edges > 0
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        held = connection.execute("SELECT name FROM sqlite_schema WHERE name LIKE 'exp_%fts%'").fetchall()
        assert held == []  # schema 3 keeps no FTS5 table of experiences
    with open_experiences(str(older), create=False) as store:  # opening makes recall's postings
        assert full_text(store, ["compost"], 3).experiences
    with sqlite3.connect(older) as connection:
        lengths, experiences = connection.execute(
            "SELECT (SELECT count(*) FROM exp_length), (SELECT count(*) FROM exp_experience)"
        ).fetchone()
        assert lengths == experiences > 0


def test_a_secured_postgres_store_of_schema_2_opens_with_the_schema_a_new_one_has() -> None:
    """Where the memory's grants are and the older tables had row-level security, the tables made
    again have it too."""
    from zerolang import storage
    from zerolang.storage.schema import EXPERIENCES, store_tables

    with scratch() as new_url, restored(FIXTURES / f"{NUMBERED}.pg.sql") as old_url:
        import psycopg

        for url in (new_url, old_url):
            storage.open_backend(url).close()  # the memory's tables, its grants among them
        with psycopg.connect(old_url, autocommit=True) as old:  # secured as the release secured it
            for statement in store_tables(
                "postgresql", EXPERIENCES
            ).secure:  # (it had no exp_session, exp_term, exp_length)
                policy = (
                    r"ALTER TABLE exp_(session|term|length) ENABLE ROW LEVEL SECURITY; CREATE POLICY [^;]*; "
                )
                old.execute(re.sub(policy, "", statement).encode())
            edges = old.execute("SELECT count(*) FROM exp_edge").fetchone()
        create(new_url)
        create(old_url)
        with psycopg.connect(new_url) as new, psycopg.connect(old_url) as old:
            assert postgres_schema(new) == postgres_schema(old)
            assert old.execute("SELECT count(*) FROM exp_edge").fetchone() == edges
            policies = old.execute("SELECT count(*) FROM pg_policies WHERE tablename = 'exp_edge'").fetchone()
            assert policies == (1,)
        with open_experiences(old_url, create=False) as store:
            assert full_text(store, ["compost"], 3).experiences and store.counts()["edges"] == edges[0]
