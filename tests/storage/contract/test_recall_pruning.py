"""Pruned recall returns exactly what loading every traversal level whole returns, on hub graphs.

The traversal loads its last level pruned to the edges that can still reach
the result pool (`traversal._last_level`). The reference below loads that
level whole, as recall did before the pruning; the pools, the ranked results
and their paths must be identical, on both backends, from hubs, from
concepts next to hubs and from ordinary concepts, with confidences that tie.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from zerolang.knowledge.backend import Traversal
from zerolang.knowledge.recall import RecallOptions, TraversalConfig, bfs, neighbours, recall_from, traversal
from zerolang.knowledge.recall.traversal import Edge, EdgeFilter, Found
from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple, concept_hash, ingest

CONCEPTS, RELATIONS = 400, 3_000
PREDICATES = ["needs", "feeds", "is a", "stores"]


def hub_graph(coarse: bool, seed: int = 3) -> list[CompilerInput]:
    """Power-law object degrees (a few hubs of hundreds of edges); `coarse` confidences tie often."""
    rng = random.Random(seed)
    labels = [f"n{index}" for index in range(CONCEPTS)]
    weights = list(itertools.accumulate(1.0 / (rank + 1) ** 0.9 for rank in range(CONCEPTS)))
    objects = rng.choices(labels, cum_weights=weights, k=RELATIONS)
    inputs = []
    for record in range(RELATIONS // 10):
        tuples = []
        for offset in range(10):
            index = record * 10 + offset
            subject, obj = labels[rng.randrange(CONCEPTS)], objects[index]
            if subject == obj:
                continue
            confidence = rng.choice([0.0, 0.5, 0.8, 1.0]) if coarse else round(rng.uniform(0.2, 1.0), 3)
            tuples.append(SemanticTuple(subject, rng.choice(PREDICATES), obj, confidence))
        event = f"2026-01-{1 + record % 28:02d}T00:00:00.000Z"
        inputs.append(CompilerInput(tuple(tuples), ContextMeta(event, "test", f"r{record}")))
    return inputs


def whole_level(
    backend: Traversal,
    reached: dict[bytes, Found],
    depth_of: dict[bytes, int],
    frontier: list[bytes],
    config: TraversalConfig,
    edge_filter: EdgeFilter | None,
    arrived: dict[bytes, Edge] | None = None,
) -> dict[bytes, Found]:
    """The reference: the last level loaded whole, as every other level is."""
    edges = neighbours(backend, frontier, config.min_confidence, config.predicates)
    if edge_filter is not None:
        edges = edge_filter(edges)
    return traversal._expand(reached, set(frontier), edges, arrived)


def seeds(store: MemoryStore) -> list[str]:
    """The three biggest hubs, a neighbour of each, and a few ordinary concepts."""
    degree = store.backend.degrees([concept_hash(f"n{i}").digest for i in range(CONCEPTS)])
    by_degree = sorted(range(CONCEPTS), key=lambda i: -degree.get(concept_hash(f"n{i}").digest, 0))
    hubs = [f"n{i}" for i in by_degree[:3]]
    near = []
    for hub in hubs:
        edges = store.backend.edges_touching([concept_hash(hub).digest], 0.0)
        other = next(
            e.object if e.subject == concept_hash(hub).digest else e.subject for e in map(Edge._make, edges)
        )
        near.append(store.backend.labels([other])[other])
    return hubs + near + [f"n{i}" for i in by_degree[-2:]] + ["n250"]


@pytest.fixture(params=[False, True], ids=["fine", "coarse"])
def hub_store(request: pytest.FixtureRequest, open_store: Callable[..., MemoryStore]) -> MemoryStore:
    store = open_store()
    ingest(store, hub_graph(bool(request.param)), now="2026-02-01T00:00:00.000Z")
    # A bulk load into fresh tables: without statistics PostgreSQL plans every recall read as if the
    # tables were empty (ten times slower here); autovacuum would ANALYZE them a minute later.
    store.backend.refresh_statistics()
    return store


def clock() -> datetime:
    return datetime(2026, 2, 1, tzinfo=UTC)


def only_odd_facts(edges: list[Edge]) -> list[Edge]:
    return [edge for edge in edges if edge.fact[0] % 2]


CASES = [
    RecallOptions(depth=2, limit=20, touch=False),
    RecallOptions(depth=2, limit=3, candidates=5, touch=False),
    RecallOptions(depth=1, limit=10, candidates=10, touch=False),
    RecallOptions(depth=3, limit=20, touch=False),
    RecallOptions(depth=2, limit=20, predicates=frozenset({"needs", "feeds"}), touch=False),
    RecallOptions(depth=2, limit=10, min_confidence=0.6, touch=False),
    RecallOptions(depth=2, limit=5, candidates=8, min_confidence=0.0, touch=False),
]


@pytest.mark.slow
def test_pruned_recall_equals_the_whole_load(hub_store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    for options in CASES:
        with monkeypatch.context() as patch:
            same_results(hub_store, options, patch)


def same_results(hub_store: MemoryStore, options: RecallOptions, monkeypatch: pytest.MonkeyPatch) -> None:
    pool = options.candidates if options.candidates is not None else max(50, 5 * options.limit)
    config = TraversalConfig(options.depth, pool, options.min_confidence, options.predicates)
    labels = seeds(hub_store)
    pruned = {
        (label, filtered): (
            bfs(hub_store.backend, concept_hash(label), config, only_odd_facts if filtered else None),
            recall_from(
                hub_store,
                concept_hash(label),
                options,
                clock=clock,
                edge_filter=only_odd_facts if filtered else None,
            ),
        )
        for label in labels
        for filtered in (False, True)
    }
    monkeypatch.setattr(traversal, "_last_level", whole_level)
    for (label, filtered), (hits, results) in pruned.items():
        edge_filter = only_odd_facts if filtered else None
        assert hits == bfs(hub_store.backend, concept_hash(label), config, edge_filter), label
        assert results == recall_from(
            hub_store, concept_hash(label), options, clock=clock, edge_filter=edge_filter
        ), label
    assert any(len(hits) == pool for hits, _ in pruned.values())  # the pools were full: pruning had work


def test_a_hub_reads_less_than_its_two_hop_neighbourhood(
    hub_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From the biggest hub, the pruned last level loads a fraction of the edges a whole load reads."""
    hub = seeds(hub_store)[0]
    backend = hub_store.backend
    first = [e for e in map(Edge._make, backend.edges_touching([concept_hash(hub).digest], 0.1))]
    frontier = sorted({e.object for e in first} | {e.subject for e in first} - {concept_hash(hub).digest})
    whole = len(backend.edges_touching(frontier, 0.1))
    read: list[int] = []
    original = type(backend).edges_above

    def counting(*args: object, **kwargs: object) -> list[tuple[bytes, bytes, bytes, str, bytes, float]]:
        rows = original(*args, **kwargs)  # type: ignore[arg-type]
        read.append(len(rows))
        return rows

    monkeypatch.setattr(type(backend), "edges_above", counting)
    bfs(backend, concept_hash(hub), TraversalConfig(2, 100, 0.1))
    assert read and sum(read) < whole / 2
