"""Reads from hot standbys (`$ZERO_MEMORY_READ_DB`, `zerolang.util.config.read_settings`).

A store's read outside a transaction (a `SELECT`: recall, query, search, reading the graph) goes
to a standby that serves it, else to the primary; everything in a transaction, and every write,
goes to the primary. The standbys take turns (`turn`): each read starts at the standby after the
one the last read started at, and a process's first read at the one its process id picks, so two
processes, and two reads of one, land on different standbys; from there the listed order is tried
until one serves. A standby serves a read when

- it answers (one that does not, or that fails a read, is left alone for `RETRY_S`, and the read
  goes to the primary);
- it is a copy of this primary (the same `pg_control_system()` identifier: a standby of another
  server, listed for a memory elsewhere, is never read);
- it is still a standby (`pg_is_in_recovery()`: a promoted one has a history of its own);
- it lags no more than `lag` seconds: WAL it received but has not replayed yet counts from the
  last transaction it replayed (a paused replay, a long recovery conflict);
- it has replayed this process's writes: after a write (`wrote`), the next read asks the primary
  for its WAL insert position once and waits, up to `wait` seconds, for the standby to replay
  up to it; else the primary serves the read. A process's reads see its own writes, wherever
  they are served.

A standby's state is looked at again after `RECHECK_S` at most (a read in between trusts the
last look), or when it has not replayed a write this process is waiting for.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from zerolang.storage.errors import StorageError
from zerolang.storage.postgres.connection import connect, plan_each_execution
from zerolang.util.locations import display

if TYPE_CHECKING:
    from psycopg import Connection

    from zerolang.util.config import ReadSettings

RETRY_S = 5.0  # a standby that did not answer is tried again after this long
RECHECK_S = 0.25  # how long one look at a standby's replay and lag is trusted
POLL_S = 0.005  # the pause between two looks while a read waits for a standby to replay a write

_STATE = (
    "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() - '0/0'::pg_lsn,"
    " CASE WHEN pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn()"
    " THEN coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 'Infinity')"
    " ELSE 0 END"
)
_WRITTEN_UP_TO = "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn"
_CLUSTER = "SELECT system_identifier FROM pg_control_system()"


class _Writes:
    """How many writes this process committed on a primary (`wrote`); a store asks its primary
    where its WAL is when this changed since it last asked."""

    count = 0


def wrote() -> None:
    """A write committed on a primary: the next read from a standby waits until it has replayed it."""
    _Writes.count += 1


def turn(count: int, start: int) -> list[int]:
    """The order in which `count` standbys are tried for a read starting at `start`: round the list."""
    return [(start + step) % count for step in range(count)]


@dataclass(slots=True)
class Standby:
    url: str
    connection: Connection[Any] | None = None
    down_until: float = 0.0  # not tried before this (time.monotonic)
    looked_at: float = float("-inf")  # the last look at its replay and lag
    replayed: int = 0  # the WAL position it had replayed then
    fresh: bool = False  # whether it lagged no more than the bound then


class Replicas:
    """The standbys one primary connection reads from; `reader` picks one for a read, or none."""

    __slots__ = ("_cluster", "_next", "_primary", "_settings", "_standbys", "_writes", "_written_up_to")

    def __init__(self, primary: Connection[Any], settings: ReadSettings) -> None:
        self._primary = primary
        self._settings = settings
        self._standbys = [Standby(url) for url in settings.standbys]
        self._writes = -1  # `_Writes.count` when the primary was last asked where its WAL is
        self._written_up_to = 0
        self._cluster: object = None  # the primary's system identifier, asked when first needed
        self._next = os.getpid() % max(1, len(self._standbys))  # where the next read starts

    def reader(self) -> Connection[Any] | None:
        """A standby's connection that serves a read now, else None (read the primary)."""
        if self._writes != _Writes.count:  # this process wrote since: where is the primary's WAL now
            self._writes = _Writes.count
            row = self._primary.execute(_WRITTEN_UP_TO).fetchone()
            self._written_up_to = 0 if row is None else int(row[0])
        count = len(self._standbys)
        start, self._next = self._next, (self._next + 1) % max(1, count)
        for index in turn(count, start):
            connection = self._serving(self._standbys[index])
            if connection is not None:
                return connection
        return None

    def failed(self, connection: Connection[Any]) -> None:
        """A read on `connection` failed: its standby is left alone for a while."""
        for standby in self._standbys:
            if standby.connection is connection:
                self._down(standby)

    def close(self) -> None:
        for standby in self._standbys:
            if standby.connection is not None:
                standby.connection.close()
                standby.connection = None

    def _serving(self, standby: Standby) -> Connection[Any] | None:
        import psycopg

        now = time.monotonic()
        if now < standby.down_until:
            return None
        try:
            if standby.connection is None or standby.connection.closed:
                standby.connection = connect(standby.url, timeout=1)
                if self._cluster is None:
                    self._cluster = self._primary.execute(_CLUSTER).fetchone()
                if standby.connection.execute(_CLUSTER).fetchone() != self._cluster:
                    standby.down_until = float("inf")  # another server's standby: never this one's
                    raise StorageError(f"{display(standby.url)}: a standby of another server")
                plan_each_execution(standby.connection)  # as the primary's (`PostgresBackend`)
            if now - standby.looked_at > RECHECK_S or standby.replayed < self._written_up_to:
                self._look(standby, standby.connection)
            if not standby.fresh:
                return None
            deadline = now + self._settings.wait
            while standby.replayed < self._written_up_to:
                if time.monotonic() >= deadline:
                    return None
                time.sleep(POLL_S)
                self._look(standby, standby.connection)
        except (StorageError, psycopg.Error):
            self._down(standby)
            return None
        return standby.connection if standby.fresh else None

    def _look(self, standby: Standby, connection: Connection[Any]) -> None:
        row = connection.execute(_STATE).fetchone()
        standby.looked_at = time.monotonic()
        if row is None or not row[0]:  # promoted (or never a standby): not this primary's copy
            raise StorageError(f"{display(standby.url)}: not a standby")
        standby.replayed = int(row[1] or 0)
        standby.fresh = float(row[2]) <= self._settings.lag

    def _down(self, standby: Standby) -> None:
        standby.down_until = max(standby.down_until, time.monotonic() + RETRY_S)
        standby.looked_at = float("-inf")
        if standby.connection is not None:
            standby.connection.close()
            standby.connection = None


def replicas_of(primary: Connection[Any], url: str) -> Replicas | None:
    """The standbys `$ZERO_MEMORY_READ_DB` lists for the primary at `url` (each on `url`'s database
    where it names none), None where it lists none."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    from zerolang.util.config import read_settings

    settings = read_settings()
    if not settings.standbys:
        return None
    database = conninfo_to_dict(url).get("dbname")
    urls = tuple(
        make_conninfo(standby, dbname=str(database))
        if database is not None and conninfo_to_dict(standby).get("dbname") is None
        else standby
        for standby in settings.standbys
    )
    return Replicas(primary, replace(settings, standbys=urls))
