"""The experience database in a SQLite file (WAL) or `:memory:`: what its two stores run on.

A write transaction starts with `BEGIN IMMEDIATE` (the write lock up front, never an
upgrade that could deadlock) and waits up to `busy_ms()` for another writer; readers never
wait (WAL). The experience and the conversation store each open their own connection,
often to one file, which may hold other zerolang tables too: each store's tables are
made where missing, and the experience tables carry their own schema version (`exp_meta`). A
store an older release made without spaces is copied into today's tables on opening, its rows
in the default space (`_upgrade`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from zerolang.storage.errors import EngineError, StorageError, translating
from zerolang.storage.locks import lock_timeout
from zerolang.storage.schema import CONVERSATIONS, EXPERIENCES, SPACE, StoreTables, store_tables
from zerolang.storage.sql.database import SqlDatabase
from zerolang.storage.sql.statements import Row
from zerolang.storage.sqlite.statements import SqliteStatements, bound
from zerolang.storage.sqlite.waits import READERS, WRITER, checkpoint, said_if_waiting
from zerolang.util.spaces import DEFAULT_SPACE


def busy_ms() -> int:
    """How long a write waits for another writer's lock: the memory's own wait (`lock_timeout()`, 60 s
    or `$ZERO_MEMORY_LOCK_TIMEOUT`), since the conversations may share the memory's file."""
    return round(lock_timeout() * 1000)


IN_MEMORY = ":memory:"

# What each store calls the database when it is missing or unusable, and what makes one.
_NAMES = {
    EXPERIENCES: ("experience database", "capture a transcript first"),
    CONVERSATIONS: ("database", "store a conversation first"),
}


@translating
class SqliteDatabase(SqliteStatements, SqlDatabase):
    """One connection to the experience database in a SQLite file (or in memory)."""

    __slots__ = ("connection", "path")

    dialect = "sqlite"
    chunk = 500

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self.connection = connection
        self.path = path

    @classmethod
    def open(cls, path: str | Path, *, create: bool, store: str) -> SqliteDatabase:
        """The database at `path` with `store`'s tables (`_make_tables`). Refused with a StorageError
        when it is missing (`create=False`), cannot be opened, or is not a database the store can use."""
        location = str(path)
        noun, hint = _NAMES[store]
        in_memory = location == IN_MEMORY
        if not in_memory and not create and not Path(location).is_file():
            raise StorageError(f"{location}: no {noun} here ({hint}, or pass --db)")
        try:
            connection = sqlite3.connect(location, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise StorageError(f"{location}: cannot open the {noun} ({error})") from None
        db = cls(connection, location)
        try:
            connection.execute(f"PRAGMA busy_timeout = {busy_ms()}")
            if not in_memory:
                connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = NORMAL")
            db._make_tables(store)
        except BaseException as error:
            connection.close()
            cause = error.__cause__ if isinstance(error, EngineError) else error  # the driver's
            if isinstance(cause, sqlite3.DatabaseError):
                raise StorageError(f"{location}: not a usable {noun} ({cause})") from None
            raise
        return db

    def _make_tables(self, store: str) -> None:
        """Make `store`'s tables unless every one is there (then nothing is written, so opening never
        waits for a writer); a store that records its schema version is refused if it is newer. A
        store of an older experience schema is brought to today's: one without spaces (schema 1) is
        copied into today's tables (`_upgrade`), and the tables schema 3 numbered (`compacted`) are
        set aside and filled again from their rows (`_set_aside`, `StoreTables.compact`)."""
        tables = store_tables(self.dialect, store)
        if tables.version is not None:
            self._check_version(tables.version)
        older, compacting = self._older(), self._uncompacted()
        if not older and not compacting and all(self.has_table(name) for name in tables.tables):
            return
        experiences = store_tables(self.dialect, EXPERIENCES)
        with self.transaction():
            if compacting:
                for statement in experiences.set_aside:
                    self.run(statement)
                self._set_aside(experiences.compacted)
            # both stores' tables at once: each reads the other's (the blocked terms), so neither
            # may be left without its space
            for each in older:
                self._upgrade(each)
            for statement in tables.create:
                self.run(statement)
            if compacting:
                for statement in (*experiences.create, *experiences.compact):
                    self.run(statement)

    def _uncompacted(self) -> bool:
        """Whether the experience tables are of a schema before 3 (turns not numbered)."""
        return self.has_table("exp_turn") and not self.has_column("exp_turn", "seq")

    def _set_aside(self, names: tuple[str, ...]) -> None:
        """The older tables `names` renamed `NAME_old`, their indexes dropped (today's take their
        names), each with a `space` (the default space's, where it has none: schema 1)."""
        for name in names:
            if not self.has_table(name):  # new in schema 3 (`exp_session`)
                continue
            self._drop_indexes(name)
            self.run(f"ALTER TABLE {name} RENAME TO {name}_old")
            if not self.has_column(f"{name}_old", SPACE):
                self.run(f"ALTER TABLE {name}_old ADD COLUMN {SPACE} TEXT NOT NULL DEFAULT '{DEFAULT_SPACE}'")

    def _drop_indexes(self, name: str) -> None:
        for (index,) in self.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
            (name,),
        ):
            self.run(f"DROP INDEX {index}")

    def _older(self) -> list[StoreTables]:
        """The stores of this database an older release made without spaces (schema 1)."""
        found = [store_tables(self.dialect, store) for store in (EXPERIENCES, CONVERSATIONS)]
        return [
            tables
            for tables in found
            if self.has_table(tables.keyed) and not self.has_column(tables.keyed, SPACE)
        ]

    def _upgrade(self, tables: StoreTables) -> None:
        """A store of schema 1 (no space) brought to today's in the caller's transaction: SQLite cannot
        change a table's key, so each table is renamed aside, made again as today's schema has it and
        filled from the old one, its rows in the default space (an external-content index is made
        again from its rows); the old tables and their indexes go."""
        moved: list[tuple[str, bool]] = []  # (table, whether it is a full-text table)
        for name in tables.tables:
            if name == "exp_meta" or not self.has_table(name):
                continue
            virtual = any(
                sql.startswith(f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} ") for sql in tables.create
            )
            if virtual and "content=" in self._definition(name):
                self.run(f"DROP TABLE {name}")  # external content: rebuilt from its rows below
                continue
            self._drop_indexes(name)
            self.run(f"ALTER TABLE {name} RENAME TO {name}_v1")
            moved.append((name, virtual))
        for statement in tables.create:
            self.run(statement)
        for name, virtual in moved:
            columns = [str(row[1]) for row in self.rows(f"PRAGMA table_info({name}_v1)")]
            if virtual:
                columns = ["rowid", *columns]
            listed = ", ".join(columns)
            self.run(
                f"INSERT INTO {name} ({listed}, {SPACE}) SELECT {listed}, ? FROM {name}_v1", (DEFAULT_SPACE,)
            )
            self.run(f"DROP TABLE {name}_v1")
        for name in tables.tables:
            if self.has_table(name) and "content=" in self._definition(name):
                self.run(f"INSERT INTO {name} ({name}) VALUES ('rebuild')")

    def _definition(self, name: str) -> str:
        row = self.one("SELECT sql FROM sqlite_schema WHERE name = ?", (name,))
        return "" if row is None else str(row[0])

    def has_column(self, table: str, column: str) -> bool:
        return any(str(row[1]) == column for row in self.rows(f"PRAGMA table_info({table})"))

    def _check_version(self, reads: int) -> None:
        """The experience schema is recorded in `exp_meta` (where there is one yet)."""
        if not self.has_table("exp_meta"):
            return
        version = self.recorded_schema() or 0
        if version > reads:
            raise StorageError(
                f"{self.path}: made by a newer zerolang (experience schema {version}, this one reads {reads})"
            )

    @contextmanager
    def index_deferred(self, store: str, index: str) -> Iterator[None]:
        """`index` dropped, then made again as the schema declares it: SQLite builds an index by
        sorting, where inserting rows in random key order reads and writes a page per row once the
        index outgrows the page cache. In the caller's transaction, so a failure restores it."""
        create = next(sql for sql in store_tables(self.dialect, store).create if f" {index} ON " in sql)
        self.run(f"DROP INDEX {index}")
        yield
        self.run(create)

    @contextmanager
    def roomy_cache(self, kib: int) -> Iterator[None]:
        """The page cache at least `kib` KiB (the default is 2 MiB), restored after: pages are taken
        as they are needed, and given back when it shrinks again."""
        (before,) = self.connection.execute("PRAGMA cache_size").fetchone()
        wanted = -kib  # negative: KiB, not pages
        if before < 0 and before <= wanted:  # already as large
            yield
            return
        self.connection.execute(f"PRAGMA cache_size = {wanted}")
        try:
            yield
        finally:
            self.connection.execute(f"PRAGMA cache_size = {int(before)}")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        db = self.connection
        self._patiently(lambda: db.execute("BEGIN IMMEDIATE"), WRITER)
        try:
            yield
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def rows(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        return self.connection.execute(sql, bound(args)).fetchall()

    def has_table(self, name: str) -> bool:
        return self.one("SELECT 1 FROM sqlite_schema WHERE name = ?", (name,)) is not None

    def erase_freed(self) -> None:
        """Rewrite the file without free pages and empty the WAL into it (nothing in memory)."""
        if self.path == IN_MEMORY:
            return
        db = self.connection
        self._patiently(lambda: db.execute("VACUUM"), READERS)
        self._patiently(lambda: checkpoint(db), READERS)

    def _patiently(self, step: Callable[[], object], what: str) -> None:
        """`step`, waiting up to `busy_ms()` for other connections, the wait said if longer than a moment."""
        done, _ = said_if_waiting(
            self.connection, step, location=self.path, seconds=busy_ms() / 1000, what=what
        )
        if not done:
            step()

    def close(self) -> None:
        if self.connection.in_transaction:
            self.connection.execute("ROLLBACK")
        self.connection.close()


def holds_rows(path: Path, tables: tuple[str, ...]) -> bool:
    """Whether the SQLite file at `path` has a row in one of `tables`, read only (never created or
    written); False for a file that cannot be read as a database."""
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        for table in tables:
            held = connection.execute("SELECT 1 FROM sqlite_schema WHERE name = ?", (table,)).fetchone()
            if held and connection.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone():
                return True
        return False
    except sqlite3.Error:
        return False
    finally:
        connection.close()


def holds_space_rows(path: Path, table: str, space: str) -> bool:
    """Whether the SQLite file at `path` may hold a row of `space` in `table` (read only, never created
    or written): False only when it provably holds none (no such table, or none of its rows is of
    `space`); True when it cannot tell (a file it cannot read as a database, an older `table`)."""
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return True
    try:
        if not connection.execute("SELECT 1 FROM sqlite_schema WHERE name = ?", (table,)).fetchone():
            return False
        found = connection.execute(f"SELECT 1 FROM {table} WHERE space = ? LIMIT 1", (space,)).fetchone()
        return found is not None
    except sqlite3.Error:
        return True
    finally:
        connection.close()
