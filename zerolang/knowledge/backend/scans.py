"""`Scans`: the whole space, in hash order: what checkpoints, exports and copies read."""

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
    def scan_concepts(self) -> Iterator[ConceptNode]: ...
    def scan_contexts(self) -> Iterator[tuple[ContextNode, str]]: ...
    def scan_relations(self, facts: Sequence[bytes] | None = None) -> Iterator[RelationNode]: ...
    def scan_episodes(self) -> Iterator[EpisodeRow]: ...
    def pruned(self) -> list[PrunedEpisode]:
        """The episodes maintenance pruned, with when and why (`Tiers.prune_episodes`)."""
