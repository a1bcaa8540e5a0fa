"""The experience database in a PostgreSQL schema of its own: what its two stores run on.

Each store connects (psycopg 3, autocommit) to the schema the caller names, creating it
and the store's tables if they are missing (`zerolang.storage.schema.store_tables`), and
keeps its search_path there. Tables an older release made without a space are upgraded in
place first (`StoreTables.upgrade`): their rows land in the default space.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from zerolang.storage.errors import StorageError, translating
from zerolang.storage.postgres.connection import connect
from zerolang.storage.postgres.statements import PsycopgStatements
from zerolang.storage.schema import SPACE, store_tables
from zerolang.storage.sql.database import SqlDatabase
from zerolang.util.locations import display

if TYPE_CHECKING:
    from psycopg import Connection

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


@translating
class PostgresDatabase(PsycopgStatements, SqlDatabase):
    """One autocommit connection whose search_path is the experience database's schema."""

    __slots__ = ("_sql", "connection")

    dialect = "postgresql"

    def __init__(self, connection: Connection[Any]) -> None:
        self.connection = connection
        self._sql = {}

    @classmethod
    def connect(cls, dsn: str, schema: str, store: str) -> PostgresDatabase:
        """A connection to `schema` after creating it and `store`'s tables where missing, in one
        transaction; a StorageError for a bad name, no server or no psycopg."""
        if not _SCHEMA_NAME.fullmatch(schema):
            raise StorageError(f"{display(dsn)}: schema {schema!r}: use lowercase letters, digits and _")
        connection = connect(dsn)
        db = cls(connection)
        tables = store_tables(cls.dialect, store)
        with db.transaction():
            db.run(f"CREATE SCHEMA IF NOT EXISTS {schema}")
            db.run(f"SET search_path TO {schema}")
            if db.has_table(tables.keyed) and not db.has_column(tables.keyed, SPACE):
                for statement in tables.upgrade:  # schema 1: every row to the default space
                    connection.execute(statement)  # as written: no placeholders (a DO block's `%I`)
            for statement in tables.create:
                db.run(statement)
        return db

    def has_column(self, table: str, column: str) -> bool:
        return bool(
            self.rows(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()"
                " AND table_name = ? AND column_name = ?",
                (table, column),
            )
        )

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self.connection.transaction():
            yield

    def has_table(self, name: str) -> bool:
        return self.rows("SELECT to_regclass(?) IS NOT NULL", (name,))[0][0] is True

    def erase_freed(self) -> None:
        """Nothing: the server reuses dead rows' space itself (autovacuum)."""

    def close(self) -> None:
        self.connection.close()
