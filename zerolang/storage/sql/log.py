"""The space's append-only event log in SQL (`space_log`), sealed as every other table, and the
rows of any append-only table of a space as they are (what `zerolang.storage.copy` carries)."""

from __future__ import annotations

from collections.abc import Sequence

from zerolang.knowledge import backend
from zerolang.knowledge.backend import LogEntry
from zerolang.knowledge.integrity import SEALED, change, columns
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import Row
from zerolang.storage.sql.seals import Seals


@translating
class Log(Seals, backend.Log):
    __slots__ = ()

    def append_log(self, at: str, kind: str, subject: bytes, detail: str = "") -> None:
        with self.write():
            self.run(
                "INSERT INTO space_log (space, at, kind, subject, detail) VALUES (?, ?, ?, ?, ?)",
                [self.space, at, kind, subject, detail],
            )
            self.seal_apply({"space_log": change("space_log", [(at, kind, subject, detail)])})

    def log_entries(self, limit: int | None = None) -> list[LogEntry]:
        """Numbered from 1 in the space (the table's own ids count every space's entries: they would
        show other spaces' activity, and change when a space is copied to another store)."""
        rows = self.rows(
            "SELECT at, kind, subject, detail FROM space_log WHERE space = ? ORDER BY seq",
            [self.space],
        )
        entries = [LogEntry(number, r[0], r[1], bytes(r[2]), r[3]) for number, r in enumerate(rows, 1)]
        return entries if limit is None else entries[-limit:]

    def appended_rows(self, table: str, order: str) -> list[Row]:
        """The sealed columns of this space's rows of the append-only `table`, in the order of its id
        column `order` (digests as bytes on every engine)."""
        return [
            tuple(bytes(value) if isinstance(value, memoryview) else value for value in row)
            for row in self.rows(
                f"SELECT {columns(table)} FROM {table} WHERE space = ? ORDER BY {order}", [self.space]
            )
        ]

    def append_rows(self, table: str, rows: Sequence[Row]) -> None:
        """Append `rows` (its sealed columns, as `appended_rows` gives them) to this space's `table`."""
        if not rows:
            return
        names = [name for name, _ in SEALED[table]]
        marks = ", ".join("?" for _ in range(len(names) + 1))
        with self.write():
            self.run_many(
                f"INSERT INTO {table} (space, {', '.join(names)}) VALUES ({marks})",
                [(self.space, *row) for row in rows],
            )
            self.seal_apply({table: change(table, rows)})
