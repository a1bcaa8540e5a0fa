"""The raw scans `zerolang.knowledge.check` verifies: rows and seals as stored, keys not trusted to be
hashes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from zerolang.knowledge import backend, integrity
from zerolang.knowledge.integrity import MARKER_SPACE
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import Row, SqlCore


@translating
class Integrity(SqlCore, backend.Integrity):
    __slots__ = ()

    def integrity_problems(self) -> list[str]:
        """What the engine itself finds wrong (nothing, where the engine enforces its constraints)."""
        return []

    # ---- the seals ----

    def raw_seals(self) -> Iterator[tuple[Any, Any, Any]]:
        """(table, rows, digest) of this space's seals; nothing if the store was never sealed."""
        yield from self.stream("SELECT tbl, row_count, digest FROM table_seals WHERE space = ?", [self.space])

    def raw_seal_markers(self) -> set[str]:
        """The marker rows of the store (which generations of the seals it holds), as stored."""
        return {
            row[0]
            for row in self.stream("SELECT tbl FROM table_seals WHERE space = ?", [MARKER_SPACE])
            if isinstance(row[0], str)
        }

    def raw_sealed_rows(self, table: str) -> Iterator[Row]:
        """Every row of `table` in this space, its sealed columns as stored."""
        yield from self.stream(
            f"SELECT {integrity.columns(table)} FROM {table} WHERE space = ?", [self.space]
        )
