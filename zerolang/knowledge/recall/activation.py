"""Spreading activation, the second ranker (seed 000 V3.4).

The seed starts with activation 1. At each hop every concept activated at
the previous hop passes `activation * edge confidence * decay` to each
neighbour; what arrives at a concept by several paths adds up, so concepts
where paths meet rank above a concept reached by one path of the same
strength. The seed itself never receives activation back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from zerolang.knowledge.backend import Traversal
from zerolang.knowledge.recall.traversal import EdgeFilter, neighbours
from zerolang.knowledge.types import ConceptHash

DEFAULT_DECAY = 0.5


def spread(
    backend: Traversal,
    seed: ConceptHash,
    *,
    max_depth: int,
    min_confidence: float = 0.1,
    decay: float = DEFAULT_DECAY,
    predicates: Collection[str] | None = None,
    edge_filter: EdgeFilter | None = None,
) -> dict[bytes, float]:
    """Total activation per concept reached within `max_depth` hops (the seed excluded)."""
    total: dict[bytes, float] = defaultdict(float)
    pulse: dict[bytes, float] = {seed.digest: 1.0}
    for _ in range(max_depth):
        if not pulse:
            break
        edges = neighbours(backend, sorted(pulse), min_confidence, predicates)
        if edge_filter is not None:
            edges = edge_filter(edges)
        arriving: dict[bytes, float] = defaultdict(float)
        for edge in edges:
            for source, target in ((edge.subject, edge.object), (edge.object, edge.subject)):
                if source in pulse and target != seed.digest and source != target:
                    arriving[target] += pulse[source] * edge.confidence * decay
        for key, value in arriving.items():
            total[key] += value
        pulse = dict(arriving)
    return dict(total)
