"""Table seals in SQL (`zerolang.memory.integrity`): kept in `table_seals` by every write.

One row per (space, table): its row count and digest sum, updated inside the
write transaction that changes the table (writers to a space are serialised,
so the read-modify-write is exact). A store made before seals existed is
sealed once, from its rows, when first opened; a marker row says so.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from zerolang.memory import integrity
from zerolang.memory.backends.sql.core import Row, SqlCore
from zerolang.memory.integrity import MARKER_SPACE, MARKER_TABLE, SEALED, Seal

_UPSERT = (
    "INSERT INTO table_seals (space, tbl, row_count, digest) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (space, tbl) DO UPDATE SET row_count = excluded.row_count, digest = excluded.digest"
)


class Seals(SqlCore):
    __slots__ = ()

    def seal_apply(self, changes: Mapping[str, Seal]) -> None:
        """Fold what a write did to each table into this space's seals (inside the write)."""
        changes = {table: seal for table, seal in changes.items() if seal.rows or seal.total}
        if not changes:
            return
        stored = {
            table: Seal.parse(rows, digest) or Seal()
            for table, rows, digest in self.rows(
                "SELECT tbl, row_count, digest FROM table_seals WHERE space = ?", [self.space]
            )
        }
        self.run_many(
            _UPSERT,
            [
                (self.space, table, new.rows, new.hex)
                for table, change in sorted(changes.items())
                for new in [stored.get(table, Seal()).add(change)]
            ],
        )

    def reseal(self) -> None:
        """Count this space's sealed tables again from their rows (inside the write that changed them).

        For writes that change many rows at once in ways a per-row change does not follow
        (a forget, a purge, a restore, a restatement): the seals then equal what `check`
        recomputes, so only edits made outside the store stand out.
        """
        self.run("DELETE FROM table_seals WHERE space = ?", [self.space])
        seals = {
            table: integrity.seal_of(
                table,
                self.stream(f"SELECT {integrity.columns(table)} FROM {table} WHERE space = ?", [self.space]),
            )
            for table in SEALED
        }
        self.run_many(
            _UPSERT,
            [(self.space, table, seal.rows, seal.hex) for table, seal in sorted(seals.items())],
        )

    def sealed_rows(self, table: str, keys: Sequence[bytes]) -> list[Row]:
        """The sealed columns of the rows of `table` with these hashes (before a write changes them)."""
        return self.select_in(
            f"SELECT {integrity.columns(table)} FROM {table} WHERE space = ?", "hash", keys, [self.space]
        )

    def ensure_sealed(self) -> None:
        """Seal every table of every space from its rows, once (a store made before seals existed)."""
        marker = [MARKER_SPACE, MARKER_TABLE]
        if self.one("SELECT 1 FROM table_seals WHERE space = ? AND tbl = ?", marker) is not None:
            return
        with self.transaction():
            if self.one("SELECT 1 FROM table_seals WHERE space = ? AND tbl = ?", marker) is not None:
                return
            seals: dict[tuple[str, str], Seal] = {}
            for table in SEALED:
                for space, *row in self.stream(f"SELECT space, {integrity.columns(table)} FROM {table}"):
                    key = (space, table)
                    seals[key] = seals.get(key, Seal()).add(Seal(1, integrity.row_digest(table, row)))
            rows = [(space, table, seal.rows, seal.hex) for (space, table), seal in sorted(seals.items())]
            self.run_many(_UPSERT, [*rows, (MARKER_SPACE, MARKER_TABLE, 0, Seal().hex)])

    # ---- for `check`: as stored, trusting nothing ----

    def raw_seals(self) -> Iterator[tuple[Any, Any, Any]]:
        """(table, rows, digest) of this space's seals; nothing if the store was never sealed."""
        yield from self.stream("SELECT tbl, row_count, digest FROM table_seals WHERE space = ?", [self.space])

    def raw_sealed_rows(self, table: str) -> Iterator[Row]:
        """Every row of `table` in this space, its sealed columns as stored."""
        yield from self.stream(
            f"SELECT {integrity.columns(table)} FROM {table} WHERE space = ?", [self.space]
        )
