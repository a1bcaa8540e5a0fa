"""One connection to a PostgreSQL schema of its own, its tables created: what the experience
and conversation stores open (each keeps its tables in a schema the caller names)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from zerolang.util.errors import ZeroError

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg.rows import TupleRow

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def connect_schema(dsn: str, schema: str, tables: str) -> Connection[TupleRow]:
    """An autocommit connection whose search_path is `schema`, after creating it and `tables`
    (statements separated by `;`) if they are missing; a ZeroError for a bad name, no server or no
    psycopg."""
    try:
        import psycopg
    except ImportError:
        raise ZeroError("PostgreSQL needs psycopg 3: pip install 'zerolang[postgres]'") from None

    if not _SCHEMA_NAME.fullmatch(schema):
        raise ZeroError(f"schema {schema!r}: use lowercase letters, digits and _")
    try:
        db = psycopg.connect(dsn, autocommit=True)
    except psycopg.Error as error:
        reason = " ".join(str(error).split())
        raise ZeroError(f"cannot connect to PostgreSQL ({reason})") from None
    with db.transaction():
        db.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        db.execute(f"SET search_path TO {schema}")
        for statement in tables.split(";"):
            if statement.strip():
                db.execute(statement)
    return db
