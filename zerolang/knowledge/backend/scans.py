"""`Scans`: the whole space, in hash order: what checkpoints, exports and copies read; and its
concepts by label, a page at a time: what the explorer lists."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from zerolang.knowledge.backend.rows import Counts, EpisodeRow, PrunedEpisode
from zerolang.knowledge.types import ConceptNode, ContextNode, RelationNode


class Scans(Protocol):
    """Everything of a kind the space holds: counts, hashes, nodes, episodes live and pruned."""

    __slots__ = ()

    def counts(self) -> Counts: ...
    def concept_hashes(self) -> list[bytes]: ...
    def episode_hashes(self) -> list[bytes]: ...
    def concepts_by_label(
        self, containing: str, after: tuple[str, bytes] | None, limit: int
    ) -> list[tuple[bytes, str]]:
        """Up to `limit` concepts (hash, label) whose label contains `containing` (ASCII letters in
        either case; labels are stored normalised, in lower case), by label in code-point order, then
        hash; after the concept `after` (its label and hash) when given."""

    def count_by_label(self, containing: str, through: tuple[str, bytes] | None = None) -> int:
        """How many concepts `concepts_by_label(containing, ...)` lists in all, or up to and including
        the concept `through` (its label and hash) when given: where a page starts."""

    def scan_concepts(self) -> Iterator[ConceptNode]: ...
    def scan_contexts(self) -> Iterator[tuple[ContextNode, str]]: ...
    def scan_relations(self, facts: Sequence[bytes] | None = None) -> Iterator[RelationNode]: ...
    def scan_episodes(self) -> Iterator[EpisodeRow]: ...
    def pruned(self) -> list[PrunedEpisode]:
        """The episodes maintenance pruned, with when and why (`Tiers.prune_episodes`)."""
