"""The shared SQL's statements on a psycopg 3 connection: what every PostgreSQL store runs its SQL with.

The SQL is written with `?` placeholders; each text becomes psycopg's `%s` once and is
kept. An `IN` list is one array (`= ANY(...)`), sent in binary: no text escaping.

A `SELECT` outside a transaction goes to a hot standby where one serves it (`reading`,
`zerolang.storage.postgres.replicas`); a write, and whatever runs in a transaction, to the primary,
and a write that commits there is noted (`wrote`), so that the process's next reads see it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from zerolang.storage.errors import translating
from zerolang.storage.postgres.replicas import wrote
from zerolang.storage.sql.statements import Row, SqlStatements

if TYPE_CHECKING:
    import psycopg

    from zerolang.storage.postgres.replicas import Replicas

T = TypeVar("T")


@translating
class PsycopgStatements(SqlStatements):
    """`SqlStatements` on `connection`; a subclass holds the two attributes (its own slots)."""

    __slots__ = ()

    connection: psycopg.Connection[Any]  # the primary's
    _sql: dict[str, str]  # each SQL text as psycopg takes it
    _replicas: Replicas | None  # the standbys reads may go to (`$ZERO_MEMORY_READ_DB`), if any

    def _text(self, sql: str) -> Any:
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = sql.replace("?", "%s")
        return text

    def rows(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        text = self._text(sql)
        if sql.lstrip()[:6].upper() == "SELECT":
            return self.reading(lambda connection: connection.execute(text, args).fetchall())
        found = self.connection.execute(text, args).fetchall()
        self._wrote()
        return found

    def run(self, sql: str, args: Sequence[object] = ()) -> int:
        count = self.connection.execute(self._text(sql), args).rowcount
        self._wrote()
        return count

    def run_many(self, sql: str, rows: Sequence[Sequence[object]]) -> int:
        if not rows:
            return 0
        with self.connection.cursor() as cursor:
            cursor.executemany(self._text(sql), rows)
            self._wrote()
            return max(cursor.rowcount, 0)

    def reading(self, read: Callable[[psycopg.Connection[Any]], T]) -> T:
        """`read` (only reads) on a standby that serves it, outside a transaction, else on the primary;
        a standby that fails it is left alone for a while, and the primary reads instead."""
        replicas = self._replicas
        if replicas is not None and self.connection.info.transaction_status == 0:  # idle: no transaction
            standby = replicas.reader()
            if standby is not None:
                import psycopg

                try:
                    return read(standby)
                except psycopg.Error:
                    replicas.failed(standby)
        return read(self.connection)

    def _wrote(self) -> None:
        """A statement ran on the primary outside a transaction: it may have written."""
        if self.connection.info.transaction_status == 0:
            wrote()

    def in_list(self, column: str, keys: Sequence[object]) -> Iterator[tuple[str, list[object]]]:
        yield f"{column} = ANY(%b)", [list(keys)]  # the array in binary: no text escaping
