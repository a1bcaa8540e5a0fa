"""What one write transaction reads more than once, read once: a space's table seals, and answers
that depend on one table only (`has_periods`, `declarations`), each kept with that table's seal.

A call of a server writes a few rows and reads the seals several times in one transaction: the
caller's change token (`raw_seals`), the fold of the records' changes, the fold of the log's. Under
the write lock nothing but this connection changes the store, and every write here folds what it
changes into the seals (`Seals.seal_apply`, which keeps the memo's copy up to date), so:

- the seals read (or folded) earlier in the transaction are the stored ones;
- an answer kept with the seal its table had then still holds while that seal is unchanged.

The memo lives from `BEGIN IMMEDIATE` to the end of that transaction and is emptied whenever the
seals may have changed otherwise: a rollback to a savepoint, any other statement that names
`table_seals` (`reseal`, a generation's sealing, a space's deletion). A dialect without one
(`SqlCore.write_memo` is None) reads every time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SealRow = tuple[str, int, str]  # (table, rows, digest) as `table_seals` holds it


@dataclass(slots=True)
class WriteMemo:
    open: bool = False  # inside a write transaction of this connection
    seals: dict[str, tuple[SealRow, ...]] = field(default_factory=dict)  # space → its seal rows, by table
    answers: dict[tuple[str, str], tuple[SealRow | None, Any]] = field(default_factory=dict)

    def begin(self) -> None:
        self.forget()
        self.open = True

    def end(self) -> None:
        self.forget()
        self.open = False

    def forget(self) -> None:
        self.seals.clear()
        self.answers.clear()

    def seal_of(self, space: str, table: str) -> tuple[bool, SealRow | None]:
        """(whether the space's seals are known, the seal row `table` has there: None if none)."""
        rows = self.seals.get(space)
        if rows is None:
            return False, None
        return True, next((row for row in rows if row[0] == table), None)

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
