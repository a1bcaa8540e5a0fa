"""`Traversal`: the facts around concepts, as recall and the BFS read them, a frontier at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from zerolang.knowledge.backend.rows import FactEnds, RecallInputs
from zerolang.knowledge.types import Fact


class Traversal(Protocol):
    """A concept's neighbourhood: the facts touching it, their ends, its degree, a recall's inputs."""

    __slots__ = ()

    def facts_touching(
        self, concepts: Sequence[bytes], min_confidence: float = 0.0, predicates: frozenset[str] | None = None
    ) -> list[Fact]:
        """Every fact a concept of `concepts` is subject or object of: one frontier, one round trip."""

    def edges_touching(
        self, concepts: Sequence[bytes], min_confidence: float = 0.0, predicates: frozenset[str] | None = None
    ) -> list[tuple[bytes, bytes, str, bytes, float]]:
        """As `facts_touching`, as bare (fact, subject, predicate, object, confidence) rows: traversal's
        hot path, where building validated `Fact`s would cost more than the query."""

    def edges_above(
        self,
        floors: Sequence[tuple[bytes, float]],
        predicates: frozenset[str] | None = None,
        limit: int | None = None,
    ) -> list[tuple[bytes, bytes, bytes, str, bytes, float]]:
        """Per (concept, floor) pair, the facts touching the concept with a confidence at or above its
        floor, at most `limit` of them (most confident first, then by fact hash): rows of (that concept,
        fact, subject, predicate, object, confidence), in no particular order. Pruned traversal's read:
        one statement for a whole frontier, each concept with a floor of its own."""

    def degrees(self, concepts: Sequence[bytes]) -> dict[bytes, int]:
        """How many fact ends each concept is (a self-loop counts twice)."""

    def fact_ends(self, facts: Sequence[bytes]) -> dict[bytes, FactEnds]:
        """Each fact's subject and object with their labels, and its predicate."""

    def recall_inputs(
        self,
        arriving: Sequence[bytes],
        concepts: Sequence[bytes],
        paths: Sequence[bytes],
        labelled: Sequence[bytes] = (),
    ) -> RecallInputs:
        """`episodes_of(arriving)`, `degrees(concepts)`, `fact_ends(paths)` and the labels of `labelled`
        (a caller that knows the paths' facts asks for their ends' labels, a look-up each, instead of
        their ends): one round trip on a server."""
