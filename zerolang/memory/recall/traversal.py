"""Breadth-first traversal from a seed concept over both edge directions (seed 001, V1.5).

Neighbours are loaded one BFS level at a time: the whole frontier is one
`MemoryBackend.facts_touching` call (one round trip on PostgreSQL, a few
indexed queries on SQLite) however wide it is. A concept is reached at its smallest depth; of
the paths of that length the most confident is kept (confidence = product
of the facts' folded confidences along the path).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from zerolang.memory.backend import MemoryBackend
from zerolang.memory.types import ConceptHash, FactHash


class Edge(NamedTuple):
    """One fact as a graph edge (a named tuple: traversal makes one per loaded row)."""

    fact: bytes
    subject: bytes
    predicate: str
    object: bytes
    confidence: float


EdgeFilter = Callable[[list[Edge]], list[Edge]]


@dataclass(frozen=True, slots=True)
class TraversalConfig:
    max_depth: int = 3
    max_results: int = 50
    min_confidence: float = 0.1
    predicates: frozenset[str] | None = None  # only these predicates, when set


@dataclass(frozen=True, slots=True)
class TraversalHit:
    concept: ConceptHash
    path: tuple[FactHash, ...]  # from the seed to the concept
    depth: int
    path_confidence: float


def neighbours(
    backend: MemoryBackend,
    frontier: Sequence[bytes],
    min_confidence: float,
    predicates: Collection[str] | None = None,
) -> list[Edge]:
    """Every fact touching the frontier (as subject or object) at or above `min_confidence`."""
    wanted = None if predicates is None else frozenset(predicates)
    return list(map(Edge._make, backend.edges_touching(frontier, min_confidence, wanted)))


def bfs(
    backend: MemoryBackend,
    seed: ConceptHash,
    config: TraversalConfig,
    edge_filter: EdgeFilter | None = None,
) -> list[TraversalHit]:
    """The concepts within `max_depth` of `seed`, most confident path first, at most `max_results`."""
    reached: dict[bytes, tuple[tuple[bytes, ...], float]] = {seed.digest: ((), 1.0)}
    depth_of: dict[bytes, int] = {}
    frontier = [seed.digest]
    for depth in range(1, config.max_depth + 1):
        if not frontier:
            break
        edges = neighbours(backend, frontier, config.min_confidence, config.predicates)
        if edge_filter is not None:
            edges = edge_filter(edges)
        level = _expand(reached, set(frontier), edges)
        for key, found in level.items():
            reached[key] = found
            depth_of[key] = depth
        frontier = sorted(level)
    del reached[seed.digest]
    best = heapq.nsmallest(
        config.max_results, reached.items(), key=lambda item: (-item[1][1], depth_of[item[0]], item[0])
    )
    return [
        TraversalHit(ConceptHash(key), tuple(FactHash(f) for f in path), depth_of[key], confidence)
        for key, (path, confidence) in best
    ]


def _expand(
    reached: dict[bytes, tuple[tuple[bytes, ...], float]], frontier: set[bytes], edges: list[Edge]
) -> dict[bytes, tuple[tuple[bytes, ...], float]]:
    """One BFS level: the best path to each concept first reached through `edges`."""
    level: dict[bytes, tuple[tuple[bytes, ...], float]] = {}
    for edge in edges:
        for source, target in ((edge.subject, edge.object), (edge.object, edge.subject)):
            if source not in frontier or target in reached or source == target:
                continue
            path, confidence = reached[source]
            candidate = ((*path, edge.fact), confidence * edge.confidence)
            best = level.get(target)
            if best is None or candidate[1] > best[1]:
                level[target] = candidate
    return level
