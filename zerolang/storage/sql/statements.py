"""What any store's SQL runs on: row access, `IN` lists and transactions on one connection.

`SqlStatements` is what the memory backends (`zerolang.storage.sql.core.SqlCore`) and the experience
database's stores alike run their SQL on; it needs nothing of the memory domain, so opening an
experience store (what a hook does) imports none of it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from itertools import chain
from typing import Any

from zerolang.storage.errors import translating
from zerolang.storage.sql.memo import WriteMemo

Row = tuple[Any, ...]
INSERT_ARGUMENTS = 999
"""The arguments of one `insert_rows` statement, at most (what every engine and build takes)."""


@translating
class SqlStatements(ABC):
    """What runs SQL on one connection: queries, statements, `IN` lists and transactions."""

    __slots__ = ()

    @abstractmethod
    def rows(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        """Run a query, every row."""

    @abstractmethod
    def run(self, sql: str, args: Sequence[object] = ()) -> int:
        """Run a statement; the rows it changed."""

    @abstractmethod
    def run_many(self, sql: str, rows: Sequence[Sequence[object]]) -> int:
        """Run a statement once per row; the rows it changed, summed."""

    @abstractmethod
    def in_list(self, column: str, keys: Sequence[object]) -> Iterator[tuple[str, list[object]]]:
        """`column` restricted to `keys`: (condition, its arguments), one or more slices."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]: ...

    def write_memo(self) -> WriteMemo | None:
        """The open write transaction's memo (`sql.memo`), or None: read every time."""
        return None

    def insert_rows(self, into: str, rows: Sequence[Sequence[object]], *, skip_held: bool = False) -> int:
        """`INSERT INTO {into}` (a table and its columns) `VALUES` each of `rows` (all as wide), as many
        rows a statement as `INSERT_ARGUMENTS` hold, in order; with `skip_held`, a row whose key the
        table (or an earlier row) holds is left out (`skipping`). The rows it inserted. A statement
        run once per row pays the driver's call and the engine's step for each: most of the cost of
        inserting short rows (postings, edges)."""
        if not rows:
            return 0
        head, tail = self.skipping(into) if skip_held else (f"INSERT INTO {into}", "")
        width = len(rows[0])
        per = max(1, INSERT_ARGUMENTS // width)
        group = f"({', '.join('?' * width)})"
        whole = len(rows) - len(rows) % per
        changed = 0
        if whole:
            changed += self.run_many(
                f"{head} VALUES {', '.join([group] * per)}{tail}",
                [tuple(chain.from_iterable(rows[start : start + per])) for start in range(0, whole, per)],
            )
        if whole < len(rows):
            changed += self.run_many(f"{head} VALUES {group}{tail}", rows[whole:])
        return changed

    def skipping(self, into: str) -> tuple[str, str]:
        """What goes before `VALUES` and after the rows in an insert into `into` that leaves out the
        rows whose key is held."""
        return f"INSERT INTO {into}", " ON CONFLICT DO NOTHING"

    def one(self, sql: str, args: Sequence[object] = ()) -> Row | None:
        found = self.rows(sql, args)
        return found[0] if found else None

    def select_in(
        self, sql: str, column: str, keys: Sequence[object], args: Sequence[object] = (), tail: str = ""
    ) -> list[Row]:
        """`sql` (which ends in a WHERE clause) AND `column` in `keys`, over as many slices as needed.

        `args` are `sql`'s own arguments (a memory backend's: the space first), `tail` follows the condition.
        """
        found: list[Row] = []
        if not keys:
            return found
        for condition, values in self.in_list(column, keys):
            found.extend(self.rows(f"{sql} AND {condition}{tail}", [*args, *values]))
        return found
