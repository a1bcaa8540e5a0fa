"""Breadth-first traversal from a seed concept over both edge directions (seed 001, V1.5).

Neighbours are loaded one BFS level at a time: the whole frontier is one
`Traversal.edges_touching` call (one round trip on PostgreSQL, a few
indexed queries on SQLite) however wide it is; the last level is pruned to
the edges that can still reach the result pool (`_last_level`), so a hub's
two-hop neighbourhood is never loaded whole. A concept is reached at its smallest depth; of
the paths of that length the most confident is kept (confidence = product
of the facts' folded confidences along the path).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from zerolang.knowledge.backend import Traversal
from zerolang.knowledge.types import ConceptHash, FactHash


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
    backend: Traversal,
    frontier: Sequence[bytes],
    min_confidence: float,
    predicates: Collection[str] | None = None,
) -> list[Edge]:
    """Every fact touching the frontier (as subject or object) at or above `min_confidence`."""
    wanted = None if predicates is None else frozenset(predicates)
    return list(map(Edge._make, backend.edges_touching(frontier, min_confidence, wanted)))


Found = tuple[tuple[bytes, ...], float]  # the best path to a concept and its confidence
Cut = tuple[float, int]  # the confidence and depth of the last concept that makes the pool


def bfs(
    backend: Traversal,
    seed: ConceptHash,
    config: TraversalConfig,
    edge_filter: EdgeFilter | None = None,
) -> list[TraversalHit]:
    """The concepts within `max_depth` of `seed`, most confident path first, at most `max_results`.

    Every level but the last is loaded whole (a concept counts at its smallest depth, so a later
    level needs to know all of the earlier ones); the last level is loaded pruned, see `_last_level`.
    The result is the same as from loading every level whole.
    """
    return walk(backend, seed, config, edge_filter)[0]


def walk(
    backend: Traversal,
    seed: ConceptHash,
    config: TraversalConfig,
    edge_filter: EdgeFilter | None = None,
) -> tuple[list[TraversalHit], dict[bytes, Edge]]:
    """`bfs`, and each fact on the hits' paths as the edge it was loaded as (its ends and predicate:
    what showing a path needs, without reading the facts again)."""
    reached: dict[bytes, Found] = {seed.digest: ((), 1.0)}
    depth_of: dict[bytes, int] = {seed.digest: 0}
    frontier = [seed.digest]
    seen: dict[bytes, Edge] = {}  # the fact by which each concept was reached, as its edge
    for depth in range(1, config.max_depth + 1):
        if not frontier:
            break
        arrived: dict[bytes, Edge] = {}
        if depth < config.max_depth:
            edges = neighbours(backend, frontier, config.min_confidence, config.predicates)
            if edge_filter is not None:
                edges = edge_filter(edges)
            level = _expand(reached, set(frontier), edges, arrived)
        else:
            level = _last_level(backend, reached, depth_of, frontier, config, edge_filter, arrived)
        for key, found in level.items():
            reached[key] = found
            depth_of[key] = depth
            seen[found[0][-1]] = arrived[key]
        frontier = sorted(level)
    del reached[seed.digest]
    best = heapq.nsmallest(
        config.max_results, reached.items(), key=lambda item: (-item[1][1], depth_of[item[0]], item[0])
    )
    hits = [
        TraversalHit(ConceptHash(key), tuple(FactHash(f) for f in path), depth_of[key], confidence)
        for key, (path, confidence) in best
    ]
    return hits, {fact: seen[fact] for hit in hits for fact in (f.digest for f in hit.path)}


def _last_level(
    backend: Traversal,
    reached: dict[bytes, Found],
    depth_of: dict[bytes, int],
    frontier: list[bytes],
    config: TraversalConfig,
    edge_filter: EdgeFilter | None,
    arrived: dict[bytes, Edge] | None = None,
) -> dict[bytes, Found]:
    """The last BFS level, loading only the edges that can reach the result pool (the pruning rule).

    Results are ordered by (path confidence descending, depth, hash) and the first `max_results`
    kept; the *cut* is the confidence and depth of the last one kept among what is known so far.
    A path's confidence is a product of confidences in [0, 1], so an edge of confidence `e` from a
    frontier concept `p` gives at most `conf(p) * e`. Knowing more concepts only raises the cut,
    so any cut computed from a subset is a safe lower bound, and an edge whose best case ranks
    after it (`conf(p) * e` below the cut's confidence, or equal to it at a greater depth) can
    never reach the pool: it is not loaded. Concretely:

    1. When the earlier levels already fill the pool, their cut gives every frontier concept a
       floor (`cut / conf(p)`); frontier concepts whose own confidence is below the cut are not
       read at all, the others read only their edges at or above their floor. One read.
    2. Otherwise each frontier concept reads its `max_results` most confident edges; the cut of
       what that gives is the floor for a second read of the concepts that had more edges and
       whose least confident edge read could still reach the pool.

    Every edge that can rank a concept into the pool is loaded, and the paths tied for a
    concept's best come in fact-hash order as in a whole load, so the pool is the same as
    loading the whole level. Only the last level is pruned: an unloaded edge of an earlier level
    could hide that a concept is nearer than it looks.
    """
    seed = next(key for key, depth in depth_of.items() if depth == 0)
    depth = depth_of[frontier[0]] + 1
    pool = config.max_results
    earlier = [(-found[1], depth_of[key], key) for key, found in reached.items() if key != seed]
    cut = _cut(earlier, pool)
    loaded: dict[bytes, Edge] = {}

    def read(floors: list[tuple[bytes, float]], limit: int | None) -> dict[bytes, tuple[int, float]]:
        """Load edges; per concept read, how many rows came and the lowest confidence among them."""
        seen: dict[bytes, tuple[int, float]] = {}
        for parent, *row in backend.edges_above(floors, config.predicates, limit):
            edge = Edge._make(row)
            loaded[edge.fact] = edge
            count, lowest = seen.get(parent, (0, 1.0))
            seen[parent] = (count + 1, min(lowest, edge.confidence))
        return seen

    def level() -> dict[bytes, Found]:
        edges = [loaded[key] for key in sorted(loaded)]
        if arrived is not None:
            arrived.clear()  # a second read makes the level again
        kept = edge_filter(edges) if edge_filter is not None else edges
        return _expand(reached, set(frontier), kept, arrived)

    if cut is not None:
        read(
            [
                (p, _floor(cut, reached[p][1], config))
                for p in frontier
                if not _after(reached[p][1], depth, cut)
            ],
            None,
        )
        return level()
    seen = read([(p, config.min_confidence) for p in frontier], pool)
    found = level()
    cut = _cut(earlier + [(-conf, depth, key) for key, (_, conf) in found.items()], pool)
    again = [
        p
        for p, (count, lowest) in seen.items()
        if count >= pool and (cut is None or not _after(reached[p][1] * lowest, depth, cut))
    ]
    if not again:
        return found
    read(
        [(p, config.min_confidence if cut is None else _floor(cut, reached[p][1], config)) for p in again],
        None,
    )
    return level()


def _cut(ranked: list[tuple[float, int, bytes]], pool: int) -> Cut | None:
    """Confidence and depth of the `pool`-th of `ranked` (negated confidences first), if there is one."""
    if len(ranked) < pool or pool <= 0:
        return None
    last = heapq.nsmallest(pool, ranked)[-1]
    return -last[0], last[1]


def _after(best: float, depth: int, cut: Cut) -> bool:
    """Whether a concept at `depth` with a path confidence of at most `best` ranks after the cut."""
    return best < cut[0] or (best == cut[0] and depth > cut[1])


def _floor(cut: Cut, through: float, config: TraversalConfig) -> float:
    """The least edge confidence from a concept reached at `through` that may reach the pool.

    A hair under the exact quotient, so that float rounding loads a tie rather than drop it.
    """
    if through <= 0.0:
        return config.min_confidence  # every fact from it gives 0: only a cut of 0 leaves it here
    return max(config.min_confidence, cut[0] / through * (1 - 1e-9))


def _expand(
    reached: dict[bytes, Found],
    frontier: set[bytes],
    edges: list[Edge],
    arrived: dict[bytes, Edge] | None = None,
) -> dict[bytes, Found]:
    """One BFS level: the best path to each concept first reached through `edges` (and, into
    `arrived`, the edge that path ends with)."""
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
                if arrived is not None:
                    arrived[target] = edge
    return level
