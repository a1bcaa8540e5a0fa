"""The raw scans `zerolang.knowledge.check` verifies: rows and seals as stored, keys not trusted to be
hashes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from zerolang.knowledge import backend, integrity
from zerolang.knowledge.integrity import MARKER_SPACE
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import Row, SqlCore


def _key(value: object) -> object:
    return bytes(value) if isinstance(value, bytes | bytearray | memoryview) else value


@translating
class Integrity(SqlCore, backend.Integrity):
    __slots__ = ()

    def integrity_problems(self) -> list[str]:
        """What the engine itself finds wrong (nothing, where the engine enforces its constraints)."""
        return []

    def raw_concepts(self) -> Iterator[tuple[Any, str]]:
        for key, label in self.stream("SELECT hash, label FROM concepts WHERE space = ?", [self.space]):
            yield _key(key), label

    def raw_aliases(self) -> Iterator[tuple[Any, str]]:
        for key, alias in self.stream(
            "SELECT concept_hash, alias FROM concept_aliases WHERE space = ?", [self.space]
        ):
            yield _key(key), alias

    def raw_facts(self) -> Iterator[tuple[Any, Any, str, Any, float, int]]:
        for key, subject, predicate, obj, confidence, observations in self.stream(
            "SELECT hash, subject_hash, predicate, object_hash, confidence, observations FROM facts"
            " WHERE space = ?",
            [self.space],
        ):
            yield _key(key), _key(subject), predicate, _key(obj), confidence, observations

    def raw_contexts(self) -> Iterator[tuple[Any, str, str, str]]:
        for key, event_time, source, scope in self.stream(
            "SELECT hash, event_time, source, scope FROM contexts WHERE space = ?", [self.space]
        ):
            yield _key(key), event_time, source, scope

    def raw_episodes(self) -> Iterator[tuple[Any, Any, Any, float]]:
        for key, fact, context, confidence in self.stream(
            "SELECT hash, fact_hash, context_hash, confidence FROM episodes WHERE space = ?", [self.space]
        ):
            yield _key(key), _key(fact), _key(context), confidence

    def raw_pruned(self) -> Iterator[tuple[Any, Any, Any, float]]:
        for key, fact, context, confidence in self.stream(
            "SELECT hash, fact_hash, context_hash, confidence FROM pruned_episodes WHERE space = ?",
            [self.space],
        ):
            yield _key(key), _key(fact), _key(context), confidence

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
