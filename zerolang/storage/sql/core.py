"""What every piece of the shared SQL stands on: row access, `IN` lists and, for memory, the space.

A dialect (SQLite, PostgreSQL) implements the abstract methods; the SQL
texts use `?` placeholders, which a dialect may rewrite once per text.
`SqlStatements` (`zerolang.storage.sql.statements`, re-exported here) is what any store's SQL runs
on (the memory backends and the experience database's stores alike); `SqlCore` is a memory
backend's.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from zerolang.knowledge import backend
from zerolang.knowledge.backend import EpisodeRow
from zerolang.knowledge.terms import Forgotten
from zerolang.storage.errors import StorageError, translating
from zerolang.storage.sql.statements import Row, SqlStatements

__all__ = ["Row", "SqlCore", "SqlStatements"]


@translating
class SqlCore(SqlStatements, backend.Lifetime):
    """The connection-facing half of a SQL backend: row access, and the `backend.Lifetime` role, which
    a dialect completes (its connection, its location, closing it, seeing another space)."""

    __slots__ = ()

    greatest: str  # the two-argument max: `max` (SQLite) or `greatest` (PostgreSQL)
    code_points: str  # the collation ordering text by code point: `BINARY` (SQLite) or `"C"` (PostgreSQL)

    _location: str  # where the store is, as messages show it (a dialect's slot)
    _space: str  # the space this backend sees (a dialect's slot)

    @property
    def location(self) -> str:
        return self._location

    @property
    def space(self) -> str:
        return self._space

    @abstractmethod
    def stream(self, sql: str, args: Sequence[object] = ()) -> Iterator[Row]:
        """Run a query, rows as they come (large scans)."""

    @abstractmethod
    def write(self) -> AbstractContextManager[None]:
        """A write transaction holding the space's write lock from its first statement."""

    def _set_up(self, setup: Callable[[], None], failure: type[Exception], what: str) -> None:
        """Make a new connection ready: `setup` (the dialect's session and schema), then the seals.
        On any failure the connection is closed; a driver's `failure` is one line saying the store
        at this location is `what`."""
        try:
            setup()
            self.ensure_sealed()
            self.ensure_periods()
        except failure as error:
            self.close()
            raise StorageError(f"{self.location}: {what} ({str(error).strip()})") from None
        except BaseException:
            self.close()
            raise

    def ensure_sealed(self) -> None:
        """Seal, once, the tables a store from before their seals holds (`seals.Seals` implements it)."""
        raise NotImplementedError

    def ensure_periods(self) -> None:
        """Record again, once, the periods of a store from before them (`temporal.Temporal` does)."""
        raise NotImplementedError

    def spaces(self) -> list[str]:
        rows = self.rows(
            "SELECT space FROM concepts UNION SELECT space FROM contexts"
            " UNION SELECT space FROM pruned_episodes UNION SELECT space FROM memory_index"
        )
        return sorted(row[0] for row in rows)

    def exclude_writers(self) -> None:
        """Inside a `transaction`, wait for the writers of every space and hold them off until it ends
        (what a whole-store recount of the seals needs). A dialect whose transactions already exclude
        each other, as SQLite's `BEGIN IMMEDIATE` does, needs nothing more."""
        return None

    def delete_rows(
        self, table: str, column: str | None = None, keys: Sequence[object] = (), space: str | None = None
    ) -> int:
        """Delete the rows of `table` in `space` (this backend's by default) whose `column` is one of
        `keys`, or all of them where no `column` is given; how many went. Every delete of a space's
        rows is this one, so a dialect may route it (PostgreSQL's tenant roles delete through a
        function that checks their grant)."""
        space = self.space if space is None else space
        if column is None:
            return self.run(f"DELETE FROM {table} WHERE space = ?", [space])
        changed = 0
        for condition, values in self.in_list(column, list(keys)) if keys else ():
            changed += self.run(f"DELETE FROM {table} WHERE space = ? AND {condition}", [space, *values])
        return changed

    def any_blocked(self) -> bool:
        """Whether a tombstone of this space blocks any key (`forgetting.Forgetting` implements it)."""
        raise NotImplementedError

    def blocked(self, keys: Sequence[bytes]) -> set[bytes]:
        """Which of `keys` a tombstone blocks (`forgetting.Forgetting` implements it)."""
        raise NotImplementedError

    def blocked_terms(self) -> Forgotten:
        """The terms the space's purges blocked (`forgetting.Forgetting` implements it)."""
        raise NotImplementedError

    def episodes_of(self, facts: Sequence[bytes]) -> list[EpisodeRow]:
        raise NotImplementedError  # `records.Records`

    def add_fact_events(self, events: Sequence[Any]) -> None:
        raise NotImplementedError  # `temporal.Temporal`
