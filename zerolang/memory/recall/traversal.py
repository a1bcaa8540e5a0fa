"""Breadth-first traversal from a seed concept over both edge directions (seed 001, V1.5).

Neighbours are loaded one BFS level at a time with indexed `IN (...)`
queries on `facts_by_subject` and `facts_by_object`, so a level costs a few
queries however wide it is. A concept is reached at its smallest depth; of
the paths of that length the most confident is kept (confidence = product
of the facts' folded confidences along the path).
"""

from __future__ import annotations

import heapq
import sqlite3
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from zerolang.memory.store import chunks
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
    db: sqlite3.Connection,
    frontier: Sequence[bytes],
    min_confidence: float,
    predicates: Collection[str] | None = None,
) -> list[Edge]:
    """Every fact touching the frontier (as subject or object) at or above `min_confidence`."""
    extra, extra_args = "", list[object]()
    if predicates is not None:
        extra = f" AND predicate IN ({','.join('?' * len(predicates))})"
        extra_args = [*sorted(predicates)]
    edges: dict[bytes, Edge] = {}
    columns = "hash, subject_hash, predicate, object_hash, confidence"
    for chunk, marks in chunks(frontier):
        for side in ("subject_hash", "object_hash"):
            query = f"SELECT {columns} FROM facts WHERE {side} IN ({marks}) AND confidence >= ?{extra}"
            for edge in map(Edge._make, db.execute(query, [*chunk, min_confidence, *extra_args])):
                edges[edge.fact] = edge
    return sorted(edges.values(), key=lambda edge: edge.fact)


def bfs(
    db: sqlite3.Connection,
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
        edges = neighbours(db, frontier, config.min_confidence, config.predicates)
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
