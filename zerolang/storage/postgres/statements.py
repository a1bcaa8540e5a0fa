"""The shared SQL's statements on a psycopg 3 connection: what every PostgreSQL store runs its SQL with.

The SQL is written with `?` placeholders; each text becomes psycopg's `%s` once and is
kept. An `IN` list is one array (`= ANY(...)`), sent in binary: no text escaping.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from zerolang.storage.errors import translating
from zerolang.storage.sql.statements import Row, SqlStatements

if TYPE_CHECKING:
    import psycopg


@translating
class PsycopgStatements(SqlStatements):
    """`SqlStatements` on `connection`; a subclass holds the two attributes (its own slots)."""

    __slots__ = ()

    connection: psycopg.Connection[Any]
    _sql: dict[str, str]  # each SQL text as psycopg takes it

    def _text(self, sql: str) -> Any:
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = sql.replace("?", "%s")
        return text

    def rows(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        return self.connection.execute(self._text(sql), args).fetchall()

    def run(self, sql: str, args: Sequence[object] = ()) -> int:
        return self.connection.execute(self._text(sql), args).rowcount

    def run_many(self, sql: str, rows: Sequence[Sequence[object]]) -> int:
        if not rows:
            return 0
        with self.connection.cursor() as cursor:
            cursor.executemany(self._text(sql), rows)
            return max(cursor.rowcount, 0)

    def in_list(self, column: str, keys: Sequence[object]) -> Iterator[tuple[str, list[object]]]:
        yield f"{column} = ANY(%b)", [list(keys)]  # the array in binary: no text escaping
