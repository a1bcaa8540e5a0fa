"""`Records`: writing records by the merge rules, and reading what they stored, by key."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from zerolang.knowledge.backend.rows import EpisodeRow, FactFilter, InsertResult
from zerolang.knowledge.types import ConceptNode, ContextNode, Fact, MemoryRecord


class Records(Protocol):
    """Concepts, facts, contexts and episodes: applying records, and look-ups by key or filter."""

    __slots__ = ()

    # ---- writing ----
    def apply_records(self, records: Sequence[MemoryRecord]) -> InsertResult:
        """Apply records by the merge rules, atomically (a transaction, or a savepoint of the open one)."""

    def episode_confidences(self, episodes: Sequence[bytes]) -> dict[bytes, float]:
        """The stored confidence of each of these episodes that is live (what a restatement changes)."""

    def restate_episodes(self, changes: Sequence[tuple[bytes, bytes, float]], stamp: str) -> None:
        """Give episodes `(episode, fact, confidence)` a restated confidence; refold their facts."""

    def refresh_statistics(self, added: int | None = None) -> None:
        """Bring the query planner's statistics up to date after a bulk load, where the engine keeps them
        (PostgreSQL's ANALYZE, which autovacuum runs when it is on; SQLite's are fixed by its schema).
        `added`: the episodes the load wrote, when the engine may judge that too few to matter."""

    # ---- look-ups ----
    def concepts(self, keys: Sequence[bytes]) -> dict[bytes, ConceptNode]: ...
    def concept_by_alias(self, alias_key: str) -> bytes | None:
        """The first concept that was written with this normalised spelling."""

    def concepts_between(self, low: bytes, high: bytes, limit: int) -> list[bytes]:
        """Concept hashes in `[low, high]`, in hash order (prefix look-ups)."""

    def labels(self, keys: Sequence[bytes]) -> dict[bytes, str]: ...
    def facts(self, keys: Sequence[bytes]) -> dict[bytes, Fact]: ...
    def find_facts(self, where: FactFilter) -> list[Fact]:
        """The facts matching `where`, in hash order."""

    def contexts(self, keys: Sequence[bytes]) -> dict[bytes, tuple[ContextNode, str]]:
        """Contexts with the time each was first stored."""

    def episodes_of(self, facts: Sequence[bytes]) -> list[EpisodeRow]:
        """The live episodes of these facts, with contexts and accesses, by fact then episode hash."""

    def provenance_of(self, facts: Sequence[bytes]) -> list[EpisodeRow]:
        """Every episode of these facts, live or pruned by maintenance (`pruned_at` set), with its
        context: where each fact came from (source, scope, event time, confidence), which maintenance
        never takes away. By fact then episode hash."""
