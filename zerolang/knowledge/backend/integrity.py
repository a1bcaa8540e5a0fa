"""`Integrity`: the rows as stored, trusting nothing, for `zerolang.knowledge.check`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol


class Integrity(Protocol):
    """The self-check's reads: the engine's own findings, sealed rows as stored, the seals and markers.

    Keys come as stored (`Any`): a tampered row may hold anything.
    """

    __slots__ = ()

    def integrity_problems(self) -> list[str]: ...
    def raw_sealed_rows(self, table: str) -> Iterator[tuple[Any, ...]]:
        """Every row of a sealed table in this space: its `integrity.SEALED` columns, as stored."""

    def raw_seals(self) -> Iterator[tuple[Any, Any, Any]]:
        """(table, rows, digest) of this space's seals, as stored."""

    def raw_seal_markers(self) -> set[str]:
        """The store's marker rows (which generations of `integrity.GENERATIONS` it holds sealed)."""
