"""Traversal, ranking and activation against hand-computed numbers.

The graph (confidences on the edges, all observed at T0):

    s --0.9--> a --0.8--> b --0.9--> e        s --0.05--> d  (below the minimum)
    s --0.5--> c <--0.6-- b

From `s` at depth 2: a (0.9), c (0.5), and b at depth 2 by the best of
s-a-b (0.9 * 0.8 = 0.72) and s-c-b (0.5 * 0.6 = 0.3).
"""

from __future__ import annotations

import pytest

from tests.knowledge.recall.conftest import Clock, add
from zerolang.knowledge.recall import RecallOptions, TraversalConfig, Weights, bfs, recall, spread, walk
from zerolang.knowledge.recall.ranking import importance
from zerolang.knowledge.tiers import EpisodicMemory
from zerolang.memory import MemoryStore, concept_hash, fact_hash
from zerolang.util.errors import ZeroError


@pytest.fixture
def graph(store: MemoryStore) -> MemoryStore:
    add(
        store,
        ("s", "r", "a", 0.9),
        ("a", "r", "b", 0.8),
        ("b", "r", "e", 0.9),
        ("s", "r", "c", 0.5),
        ("b", "r", "c", 0.6),
        ("s", "r", "d", 0.05),
    )
    return store


def hits_of(store: MemoryStore, depth: int, **options: object) -> dict[str, tuple[int, float]]:
    hits = bfs(store.backend, concept_hash("s"), TraversalConfig(max_depth=depth, **options))  # type: ignore[arg-type]
    labels = {concept_hash(x): x for x in "abcde"}
    return {labels[hit.concept]: (hit.depth, round(hit.path_confidence, 9)) for hit in hits}


def test_bfs_follows_both_directions_to_the_depth(graph: MemoryStore) -> None:
    assert hits_of(graph, 1) == {"a": (1, 0.9), "c": (1, 0.5)}
    assert hits_of(graph, 2) == {"a": (1, 0.9), "b": (2, 0.72), "c": (1, 0.5)}
    assert hits_of(graph, 3)["e"] == (3, 0.648)


def test_bfs_keeps_the_most_confident_path(graph: MemoryStore) -> None:
    (b,) = [
        h for h in bfs(graph.backend, concept_hash("s"), TraversalConfig(2)) if h.concept == concept_hash("b")
    ]
    assert b.path == (fact_hash("s", "r", "a"), fact_hash("a", "r", "b"))


def test_bfs_limits_and_minimum_confidence(graph: MemoryStore) -> None:
    assert list(hits_of(graph, 2, max_results=2)) == ["a", "b"]  # most confident first
    assert hits_of(graph, 1, min_confidence=0.0)["d"] == (1, 0.05)
    assert hits_of(graph, 2, min_confidence=0.7) == {"a": (1, 0.9), "b": (2, 0.72)}
    assert hits_of(graph, 2, predicates=frozenset({"other"})) == {}


def test_activation_accumulates_where_paths_meet(graph: MemoryStore) -> None:
    active = spread(graph.backend, concept_hash("s"), max_depth=2, decay=0.5)
    named = {x: active.get(concept_hash(x).digest) for x in "abc"}
    # a: 0.9 * 0.5; c: 0.5 * 0.5; b: 0.45 * 0.8 * 0.5 + 0.25 * 0.6 * 0.5 (two paths meet)
    assert named == pytest.approx({"a": 0.45, "c": 0.25, "b": 0.255})
    assert concept_hash("s").digest not in active


def test_importance_is_the_weighted_sum() -> None:
    factors = {"confidence": 1.0, "recency": 1.0, "frequency": 0.0, "connectivity": 0.5}
    assert importance(factors) == pytest.approx(0.35 + 0.25 + 0.10)
    assert importance(factors, Weights(1, 0, 0, 0)) == 1.0


def test_recall_ranks_by_the_four_factors(graph: MemoryStore, clock: Clock) -> None:
    results = recall(graph, "s", RecallOptions(depth=2), clock=clock)
    # degrees: a 2, c 2, b 3; recency 1 (observed now); nothing accessed yet
    assert [r.label for r in results] == ["b", "a", "c"]
    b, a, c = results
    assert b.factors == pytest.approx(
        {"confidence": 0.72, "recency": 1.0, "frequency": 0.0, "connectivity": 1.0}
    )
    assert b.score == pytest.approx(0.35 * 0.72 + 0.25 + 0.2)
    assert a.score == pytest.approx(0.35 * 0.9 + 0.25 + 0.2 * 2 / 3)
    assert c.score == pytest.approx(0.35 * 0.5 + 0.25 + 0.2 * 2 / 3)
    assert b.path_labels == ("s r a", "a r b")


def test_recall_touches_what_it_returns_and_frequency_follows(graph: MemoryStore, clock: Clock) -> None:
    recall(graph, "s", RecallOptions(depth=1, limit=1), clock=clock)  # returns a: touches s-r-a
    counts = {e.fact_hash: e.access_count for e in EpisodicMemory(graph, clock=clock).all()}
    assert counts[fact_hash("s", "r", "a")] == 1
    assert counts[fact_hash("s", "r", "c")] == 0
    results = {r.label: r for r in recall(graph, "s", RecallOptions(depth=1, touch=False), clock=clock)}
    assert results["a"].factors["frequency"] == 1.0
    assert results["c"].factors["frequency"] == 0.0


def test_recency_halves_with_the_half_life(graph: MemoryStore, clock: Clock) -> None:
    clock.advance(days=7)
    (a,) = recall(graph, "s", RecallOptions(depth=1, limit=1), clock=clock)
    assert a.factors["recency"] == pytest.approx(0.5)


def test_rank_by_activation(graph: MemoryStore, clock: Clock) -> None:
    results = recall(graph, "s", RecallOptions(depth=2, ranker="activation"), clock=clock)
    assert [(r.label, round(r.score, 9)) for r in results] == [("a", 0.45), ("b", 0.255), ("c", 0.25)]
    assert results[1].factors["activation"] == pytest.approx(0.255)


def test_unknown_seed_is_a_zero_error(graph: MemoryStore) -> None:
    with pytest.raises(ZeroError, match="no concept"):
        recall(graph, "nowhere")


def test_walk_keeps_the_paths_facts_as_the_store_holds_them(graph: MemoryStore) -> None:
    """Recall shows a path from the edges the walk loaded and the labels of their ends: the same
    ends and predicate as reading each fact again (`fact_ends`), on every backend."""
    for depth in (1, 2, 3):
        hits, edges = walk(graph.backend, concept_hash("s"), TraversalConfig(depth))
        paths = sorted({fact.digest for hit in hits for fact in hit.path})
        assert sorted(edges) == paths
        ends = {end for edge in edges.values() for end in (edge.subject, edge.object)}
        inputs = graph.backend.recall_inputs([], [], [], sorted(ends))
        derived = {
            key: (
                edge.subject,
                inputs.labels[edge.subject],
                edge.predicate,
                edge.object,
                inputs.labels[edge.object],
            )
            for key, edge in edges.items()
        }
        assert derived == graph.backend.fact_ends(paths)
