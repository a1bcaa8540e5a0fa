"""Connecting to a PostgreSQL server: psycopg 3 (the `postgres` extra), its errors registered, and
every way a connection can fail as one `StorageError` line naming the server (password hidden)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zerolang.storage.errors import StorageError, reason, register_driver
from zerolang.util.locations import display

if TYPE_CHECKING:
    from psycopg import Connection


def connect(url: str) -> Connection[Any]:
    """An autocommit connection to the database `url` names."""
    where = display(url)
    try:
        import psycopg
    except ImportError:
        raise StorageError(f'{where}: PostgreSQL needs psycopg 3: pip install "zerolang[postgres]"') from None
    register_driver(psycopg.Error, psycopg.IntegrityError)
    try:
        return psycopg.connect(url, autocommit=True)
    except psycopg.Error as error:
        raise StorageError(f"{where}: cannot connect to PostgreSQL ({reason(error, last=True)})") from None
