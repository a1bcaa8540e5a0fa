"""Connecting to a PostgreSQL server: psycopg 3 (the `postgres` extra), its errors registered, and
every way a connection can fail as one `StorageError` line naming the server (password hidden).

A connection keeps no state of its own on the server between transactions where a pooler stands
between it and the server (pgbouncer's `pool_mode = transaction`, where each transaction may run on
another server connection; docs/postgres-scaling.md): a setting is `SET LOCAL`, a lock is a
transaction's (`pg_advisory_xact_lock`), and temporary tables and functions are made, where needed,
inside the transaction that uses them. Prepared statements are the one thing worth keeping on a
direct connection (psycopg prepares a statement it runs often: no parsing again): a connection
through a pooler prepares none (`prepare_threshold=None`, `pooled`). A pooler is told apart by the
key it gives the client to cancel with: it is its own, so its process id is not the server's."""

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
    given); through a pooler, one that prepares no statement (`pooled`)."""
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
    waits: dict[str, Any] = {} if timeout is None else {"connect_timeout": max(1, round(timeout))}
    try:
        connection = psycopg.connect(url, autocommit=True, **waits)
        if connection.execute("SELECT pg_backend_pid()").fetchone() != (connection.info.backend_pid,):
            connection.prepare_threshold = None  # a pooler's key: the next statement may run elsewhere
    except psycopg.Error as error:
        raise StorageError(f"{where}: cannot connect to PostgreSQL ({reason(error, last=True)})") from None
    return connection


def pooled(connection: Connection[Any]) -> bool:
    """Whether `connection` goes through a pooler (`connect`): it may keep nothing between transactions."""
    return connection.prepare_threshold is None


def plan_each_execution(connection: Connection[Any]) -> None:
    """Plan every execution of a prepared statement with its values: a generic plan for
    `hash = ANY($1)` cannot see how short the array is and may scan the table. A setting of the
    session, so on a direct connection only: through a pooler nothing is prepared (`connect`), and
    each statement is planned so anyway."""
    if not pooled(connection):
        connection.execute("SET plan_cache_mode = force_custom_plan")
