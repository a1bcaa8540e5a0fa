"""Connecting to a PostgreSQL server: psycopg 3 (the `postgres` extra), its errors registered, and
every way a connection can fail as one `StorageError` line naming the server (password hidden).

A connection keeps no state of its own on the server between transactions, so that it works the
same behind a pooler in transaction mode (pgbouncer's `pool_mode = transaction`, where each
transaction may run on another server connection, docs/postgres-scaling.md): psycopg prepares no
statement (`prepare_threshold=None`: each runs as the unnamed statement, planned for its own values),
a setting is `SET LOCAL`, a lock is a transaction's (`pg_advisory_xact_lock`), and temporary tables
and functions are made, where needed, inside the transaction that uses them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from zerolang.storage.errors import StorageError, reason, register_driver
from zerolang.util.locations import display

if TYPE_CHECKING:
    from psycopg import Connection


# What psycopg logs, as a warning, of an error met while it ends a pipeline or rolls back after an
# error already raised (a write row-level security refused, say): that first error is the one a
# command reports, in one line; the echo would print a second one, naming a `psycopg.Pipeline`.
_ECHOES = ("error ignored terminating", "error ignored in rollback")


def _not_an_echo(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith(_ECHOES)


def connect(url: str, *, timeout: float | None = None) -> Connection[Any]:
    """An autocommit connection to the database `url` names (giving up after `timeout` seconds where
    given), which prepares no statement."""
    where = display(url)
    try:
        import psycopg
    except ImportError:
        from zerolang.util.extras import install_hint

        raise StorageError(f"{where}: PostgreSQL needs psycopg 3: {install_hint('postgres')}") from None
    register_driver(psycopg.Error, psycopg.IntegrityError)
    driver_log = logging.getLogger("psycopg")
    if _not_an_echo not in driver_log.filters:
        driver_log.addFilter(_not_an_echo)
    try:
        if timeout is None:
            return psycopg.connect(url, autocommit=True, prepare_threshold=None)
        return psycopg.connect(
            url, autocommit=True, prepare_threshold=None, connect_timeout=max(1, round(timeout))
        )
    except psycopg.Error as error:
        raise StorageError(f"{where}: cannot connect to PostgreSQL ({reason(error, last=True)})") from None
