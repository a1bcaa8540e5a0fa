"""The experience database in a PostgreSQL schema of its own: what its two stores run on.

Each store connects (psycopg 3, autocommit) to the schema the caller names, creating it
and the store's tables if they are missing (`zerolang.storage.schema.store_tables`), and
keeps its search_path there (a session setting, made only where the server's default search_path
does not already start there: the memory's own `public` needs none, and works behind a pooler).
Tables an older release made without a space are upgraded in place first (`StoreTables.upgrade`):
their rows land in the default space. Where the database holds the memory's grants, the tables get
the memory's row-level security and its tenants their privileges (`StoreTables.secure`); a tenant
role opens what the owner made, creating nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from zerolang.storage.errors import StorageError, translating
from zerolang.storage.postgres.connection import connect, pooled
from zerolang.storage.postgres.replicas import replicas_of, wrote
from zerolang.storage.postgres.statements import PsycopgStatements
from zerolang.storage.schema import CONVERSATIONS, EXPERIENCES, GRANTS, SPACE, store_tables
from zerolang.storage.sql.database import SqlDatabase
from zerolang.util.locations import display

if TYPE_CHECKING:
    from psycopg import Connection

    from zerolang.storage.postgres.replicas import Replicas

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_CREATE_LOCK = 0x5A455850  # with the schema's hash: a transaction's advisory lock while a store is made

SCHEMA = "public"
"""The schema the experience and conversation stores keep their tables in, unless told another."""


@translating
class PostgresDatabase(PsycopgStatements, SqlDatabase):
    """One autocommit connection whose search_path is the experience database's schema."""

    __slots__ = ("_replicas", "_sql", "connection")

    dialect = "postgresql"

    def __init__(self, connection: Connection[Any]) -> None:
        self.connection = connection
        self._sql = {}
        self._replicas: Replicas | None = None  # the hot standbys reads may go to ($ZERO_MEMORY_READ_DB)

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
            if not db.rows(
                "SELECT 1 FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid"
                " WHERE n.nspname = ? AND c.relname = ?",
                (schema, tables.keyed),
            ):  # a first opening: one at a time, so that two never create the same tables at once
                db.rows("SELECT pg_advisory_xact_lock(?, hashtext(?))", (_CREATE_LOCK, schema))
            if not db.rows("SELECT 1 FROM pg_namespace WHERE nspname = ?", (schema,)):
                db.run(f"CREATE SCHEMA IF NOT EXISTS {schema}")
            if db.rows("SELECT current_schema()") != [(schema,)]:  # the usual `public`: nothing to set
                if pooled(connection):  # the next transaction may run where this was never set
                    raise StorageError(
                        f"{display(dsn)}: schema {schema!r} needs a session's search_path, which a pooler"
                        " in transaction mode does not keep: connect to the server itself"
                    )
                db.run(f"SET search_path TO {schema}")
            # what a tenant role (which may create nothing) opens is left as it is: the owner made it
            older = False
            for other in (EXPERIENCES, CONVERSATIONS):  # each reads the other's blocked terms: both
                found = store_tables(cls.dialect, other)
                if db.has_table(found.keyed) and not db.has_column(found.keyed, SPACE):
                    older = True
                    for statement in found.upgrade:  # schema 1: every row to the default space
                        connection.execute(statement)  # as written: no placeholders (a DO block's `%I`)
            # experience schema 3 numbered turns and concepts: older tables are set aside and filled again
            compacting = db.has_table("exp_turn") and not db.has_column("exp_turn", "seq")
            experiences = store_tables(cls.dialect, EXPERIENCES)
            if compacting:
                for statement in experiences.set_aside:
                    connection.execute(statement)
            made = older or compacting or not all(db.has_table(name) for name in tables.tables)
            if made:
                for statement in tables.create:
                    db.run(statement)
            if compacting:
                for statement in (*experiences.create, *experiences.compact):
                    connection.execute(statement)
            privileges = f"zero_{store}_privileges(text)"  # made with the tables (`secure`)
            if (
                made
                or db.unsecured(tables.keyed)
                or db.one("SELECT to_regprocedure(?)", (privileges,)) == (None,)
            ):
                for statement in tables.secure:
                    connection.execute(statement)
        db._replicas = replicas_of(connection, dsn)
        return db

    def unsecured(self, table: str) -> bool:
        """Whether the database holds the memory's grants (`zero_space_grants`) but `table` has no
        row-level security yet (the memory came after the experiences)."""
        return self.has_table(GRANTS) and not self.rows(
            "SELECT 1 FROM pg_policies WHERE schemaname = current_schema() AND tablename = ?"
            " AND policyname = 'zero_space'",
            (table,),
        )

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
        """A transaction on the primary; once the outermost commits, the process's next reads wait for
        a standby to replay it (`wrote`)."""
        with self.connection.transaction():
            yield
        if self.connection.info.transaction_status == 0:
            wrote()

    def has_table(self, name: str) -> bool:
        return self.rows("SELECT to_regclass(?) IS NOT NULL", (name,))[0][0] is True

    def erase_freed(self) -> None:
        """Nothing: the server reuses dead rows' space itself (autovacuum)."""

    def close(self) -> None:
        if self._replicas is not None:
            self._replicas.close()
        self.connection.close()
