"""The shared SQL's statements on a `sqlite3` connection: what every SQLite store runs its SQL with.

An `IN` list is cut into slices of the store's `chunk` keys (one statement each). Loading
this module makes `sqlite3`'s errors storage errors (`zerolang.storage.errors`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence

from zerolang.storage.errors import register_driver, translating
from zerolang.storage.sql.statements import SqlStatements

register_driver(sqlite3.Error, sqlite3.IntegrityError)


@translating
class SqliteStatements(SqlStatements):
    """Statements on `connection` (autocommit); a subclass holds it (its own slot), says its `chunk`
    and how it reads rows."""

    __slots__ = ()

    connection: sqlite3.Connection
    chunk: int  # keys per `IN (...)`

    def run(self, sql: str, args: Sequence[object] = ()) -> int:
        if "table_seals" in sql:
            self._seals_written()
        return self.connection.execute(sql, bound(args)).rowcount

    def run_many(self, sql: str, rows: Sequence[Sequence[object]]) -> int:
        if not rows:
            return 0
        if "table_seals" in sql:
            self._seals_written()
        return max(self.connection.executemany(sql, rows).rowcount, 0)

    def skipping(self, into: str) -> tuple[str, str]:
        """`INSERT OR IGNORE`: a statement of many rows that may abort (a NOT NULL column's default on
        a conflict, which `ON CONFLICT DO NOTHING` keeps) makes SQLite keep a statement journal in the
        transaction, a page written for each page the statement changes (a 25 MB capture's system
        time 0.67 against 0.41 s); one that ignores cannot abort. It leaves out a row breaking NOT NULL
        too: the rows the stores insert this way give every such column a value."""
        return f"INSERT OR IGNORE INTO {into}", ""

    def _seals_written(self) -> None:
        """A statement writes seals: the write memo's copy is no longer known to be the stored one (a
        fold that keeps it, `Seals.seal_apply`, puts it back after)."""
        memo = self.write_memo()
        if memo is not None:
            memo.seals.clear()

    def in_list(self, column: str, keys: Sequence[object]) -> Iterator[tuple[str, list[object]]]:
        for start in range(0, len(keys), self.chunk):
            chunk = bound(keys[start : start + self.chunk])
            yield f"{column} IN ({','.join('?' * len(chunk))})", chunk


def bound(values: Sequence[object]) -> list[object]:
    """`values` to bind, `bytes` as `bytearray`: the `sqlite3` module (3.11) binds a `bytearray` at once
    but first looks a `bytes` up in its adapter registry, about 1 us per value, which is most of the cost
    of an `IN` list of hashes. (Rows of `run_many` are left as they are: few, or short.)"""
    return [bytearray(value) if type(value) is bytes else value for value in values]
