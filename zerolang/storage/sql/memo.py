"""What one write transaction reads more than once, read once: a space's table seals, and answers
that depend on one table only (`has_periods`, `declarations`), each kept with that table's seal.

A call of a server writes a few rows and reads the seals several times in one transaction: the
caller's change token (`raw_seals`), the fold of the records' changes, the fold of the log's. Under
the write lock nothing but this connection changes the store, and every write here folds what it
changes into the seals (`Seals.seal_apply`, which keeps the memo's copy up to date), so:

- the seals read (or folded) earlier in the transaction are the stored ones;
- an answer kept with the seal its table had then still holds while that seal is unchanged.

The memo is used from `BEGIN IMMEDIATE` to the end of that transaction and is emptied whenever the
seals may have changed otherwise: a rollback to a savepoint, any other statement that names
`table_seals` (`reseal`, a generation's sealing, a space's deletion). A dialect without one
(`SqlCore.write_memo` is None) reads every time.

A committed transaction's memo is kept for the connection's next one (`held`) with what tells
whether anything wrote in between: SQLite's `PRAGMA data_version` (which changes when another
connection commits) and the connection's own count of changed rows (`total_changes`, which any
statement of its own that writes a row outside a transaction moves). The next `BEGIN IMMEDIATE`
reads both under the write lock; if either moved, the memo starts empty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

T = TypeVar("T")
SealRow = tuple[str, int, str]  # (table, rows, digest) as `table_seals` holds it


@dataclass(slots=True)
class WriteMemo:
    open: bool = False  # inside a write transaction of this connection
    seals: dict[str, tuple[SealRow, ...]] = field(default_factory=dict)  # space → its seal rows, by table
    answers: dict[tuple[str, str], tuple[Any, Any]] = field(default_factory=dict)
    held: tuple[int, int] | None = None  # (data version, own changes) when the last commit kept it

    def begin(self, now: tuple[int, int] | None = None) -> None:
        """A write transaction begins; `now`: the connection's (data version, own changes) read under
        its write lock: what the memo holds is kept if they are those it was held with."""
        if now is None or now != self.held:
            self.forget()
        self.held = None
        self.open = True

    def end(self) -> None:
        self.forget()
        self.open = False

    def hold(self, now: tuple[int, int]) -> None:
        """The transaction committed: keep what the memo holds for the next one, with `now`."""
        self.open = False
        self.held = now

    def forget(self) -> None:
        self.seals.clear()
        self.answers.clear()
        self.held = None

    def seal_of(self, space: str, table: str) -> tuple[bool, SealRow | None]:
        """(whether the space's seals are known, the seal row `table` has there: None if none)."""
        rows = self.seals.get(space)
        if rows is None:
            return False, None
        return True, next((row for row in rows if row[0] == table), None)

    def seals_of(self, space: str, tables: tuple[str, ...]) -> tuple[bool, tuple[SealRow | None, ...]]:
        """(whether the space's seals are known, the seal row each of `tables` has there)."""
        rows = self.seals.get(space)
        if rows is None:
            return False, ()
        by_table = {row[0]: row for row in rows}
        return True, tuple(by_table.get(table) for table in tables)

    def answer(self, space: str, table: str, name: str) -> tuple[bool, Any]:
        """(True, the answer `name` kept while `table`'s seal is unchanged) or (False, None)."""
        known, seal = self.seal_of(space, table)
        kept = self.answers.get((space, name))
        if not known or kept is None or kept[0] != seal:
            return False, None
        return True, kept[1]

    def keep(self, space: str, table: str, name: str, value: Any) -> None:
        known, seal = self.seal_of(space, table)
        if known:
            self.answers[(space, name)] = (seal, value)


def remembered(memo: WriteMemo | None, space: str, table: str, name: str, read: Callable[[], T]) -> T:
    """`read()`, or the answer `name` the write memo kept while `table`'s seal is unchanged (then kept
    for the next ask); without a memo (`write_memo` is None), `read()` every time."""
    if memo is None:
        return read()
    known, kept = memo.answer(space, table, name)
    if known:
        return cast(T, kept)
    found = read()
    memo.keep(space, table, name, found)
    return found


def clean(rows: list[tuple[Any, Any, Any]]) -> tuple[SealRow, ...] | None:
    """Seal rows read as stored, if every one is well formed (text that is UTF-8, a whole count)."""
    for table, count, digest in rows:
        if not (isinstance(table, str) and isinstance(digest, str) and type(count) is int):
            return None
        try:
            table.encode("utf-8")
            digest.encode("utf-8")
        except UnicodeEncodeError:  # read with surrogate escapes: not UTF-8 as stored
            return None
    return tuple(rows)
