"""Recall: traversal from a seed concept, ranked by importance or by spreading activation.

- `traversal`: BFS over both edge directions, bounded depth, results and edge confidence;
- `ranking`: the weighted `confidence x recency x frequency x connectivity` score;
- `activation`: spreading activation, the second ranker.

`recall` ties them together and touches what it returns (the episodes of the
fact that reached each result), so access counts feed later frequency.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

from zerolang.knowledge.backend import FactEnds, Traversal
from zerolang.knowledge.recall.activation import DEFAULT_DECAY, spread
from zerolang.knowledge.recall.ranking import (
    DEFAULT_WEIGHTS,
    Weights,
    factors_for,
    importance,
    stats_of,
)
from zerolang.knowledge.recall.traversal import (
    Edge,
    EdgeFilter,
    TraversalConfig,
    TraversalHit,
    bfs,
    neighbours,
    walk,
)
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.tiers import DEFAULT_HALF_LIFE, EpisodicMemory
from zerolang.knowledge.types import ConceptHash, EpisodeHash, FactHash
from zerolang.util.errors import ZeroError
from zerolang.util.times import Clock, system_clock

Ranker = Literal["score", "activation"]

__all__ = [
    "DEFAULT_WEIGHTS",
    "Edge",
    "EdgeFilter",
    "RecallOptions",
    "RecallResult",
    "TraversalConfig",
    "TraversalHit",
    "Weights",
    "bfs",
    "neighbours",
    "recall",
    "recall_from",
    "spread",
    "walk",
]


@dataclass(frozen=True, slots=True)
class RecallOptions:
    depth: int = 2
    limit: int = 10
    min_confidence: float = 0.1
    ranker: Ranker = "score"
    weights: Weights = DEFAULT_WEIGHTS
    half_life: float = DEFAULT_HALF_LIFE
    activation_decay: float = DEFAULT_DECAY
    predicates: frozenset[str] | None = None
    candidates: int | None = None  # traversal pool; default max(50, 5 * limit)
    touch: bool = True


@dataclass(frozen=True, slots=True)
class RecallResult:
    """One recalled concept, its score and every factor behind it."""

    concept: ConceptHash
    label: str
    depth: int
    path: tuple[FactHash, ...]
    path_labels: tuple[str, ...]  # each fact on the path as `subject predicate object`
    score: float
    factors: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "concept": self.label,
            "hash": str(self.concept),
            "depth": self.depth,
            "score": round(self.score, 6),
            "factors": {name: round(value, 6) for name, value in self.factors.items()},
            "path": list(self.path_labels),
        }


def recall(
    store: MemoryStore,
    seed: str,
    options: RecallOptions = RecallOptions(),
    *,
    clock: Clock = system_clock,
    edge_filter: EdgeFilter | None = None,
) -> list[RecallResult]:
    """Recall from the concept named `seed` (label, alias or hash); unknown seeds are a `ZeroError`."""
    concept = store.find_concept(seed)
    if concept is None:
        raise ZeroError(f"no concept {seed!r} in {store.path}")
    return recall_from(store, concept.hash, options, clock=clock, edge_filter=edge_filter)


def recall_from(
    store: MemoryStore,
    seed: ConceptHash,
    options: RecallOptions = RecallOptions(),
    *,
    clock: Clock = system_clock,
    edge_filter: EdgeFilter | None = None,
) -> list[RecallResult]:
    episodic = EpisodicMemory(store, options.half_life, clock=clock)
    backend: Traversal = store.backend
    pool = options.candidates if options.candidates is not None else max(50, 5 * options.limit)
    config = TraversalConfig(options.depth, pool, options.min_confidence, options.predicates)
    hits, edges = walk(backend, seed, config, edge_filter)
    inputs = backend.recall_inputs(
        [hit.path[-1].digest for hit in hits],
        [hit.concept.digest for hit in hits],
        [],
        sorted({end for edge in edges.values() for end in (edge.subject, edge.object)}),
    )
    stats = stats_of(inputs.episodes)
    factors = factors_for(hits, stats, inputs.degrees, episodic.now(), options.half_life)
    if options.ranker == "activation":
        active = spread(
            backend,
            seed,
            max_depth=options.depth,
            min_confidence=options.min_confidence,
            decay=options.activation_decay,
            predicates=options.predicates,
            edge_filter=edge_filter,
        )
        for hit, entry in zip(hits, factors, strict=True):
            entry["activation"] = active.get(hit.concept.digest, 0.0)
        scores = [entry["activation"] for entry in factors]
    else:
        scores = [importance(entry, options.weights) for entry in factors]
    order = sorted(range(len(hits)), key=lambda i: (-scores[i], hits[i].depth, hits[i].concept.digest))
    chosen = order[: options.limit]
    results = _results(
        _ends(edges, inputs.labels),
        [hits[i] for i in chosen],
        [scores[i] for i in chosen],
        [factors[i] for i in chosen],
    )
    if options.touch:
        touched = [episode for i in chosen for episode in stats[hits[i].path[-1].digest].episodes]
        episodic.touch(EpisodeHash(key) for key in touched)
    return results


def _ends(edges: dict[bytes, Edge], labels: dict[bytes, str]) -> dict[bytes, FactEnds]:
    """Each path fact's ends with their labels, and its predicate (as `Traversal.fact_ends`: a fact
    one of whose ends has no concept row is left out)."""
    ends: dict[bytes, FactEnds] = {}
    for key, edge in edges.items():
        subject, obj = labels.get(edge.subject), labels.get(edge.object)
        if subject is not None and obj is not None:
            ends[key] = (edge.subject, subject, edge.predicate, edge.object, obj)
    return ends


def _results(
    ends: dict[bytes, FactEnds],
    hits: list[TraversalHit],
    scores: list[float],
    factors: list[dict[str, float]],
) -> list[RecallResult]:
    def text(key: FactHash) -> str:
        found = ends.get(key.digest)
        return key.short() if found is None else f"{found[1]} {found[2]} {found[4]}"

    def label(hit: TraversalHit) -> str:
        found = ends.get(hit.path[-1].digest)  # the fact that reached the concept has it at one end
        if found is None:
            return hit.concept.short()
        return found[1] if found[0] == hit.concept.digest else found[4]

    return [
        RecallResult(
            hit.concept, label(hit), hit.depth, hit.path, tuple(text(k) for k in hit.path), score, entry
        )
        for hit, score, entry in zip(hits, scores, factors, strict=True)
    ]


def concept_labels(store: MemoryStore, keys: Collection[bytes]) -> dict[bytes, str]:
    return store.backend.labels(sorted(set(keys)))


def fact_texts(store: MemoryStore, keys: Collection[bytes]) -> dict[bytes, str]:
    """Each fact as `subject predicate object`, labels resolved."""
    facts = store.backend.facts(sorted(set(keys)))
    labels = store.backend.labels(
        [f.subject_hash.digest for f in facts.values()] + [f.object_hash.digest for f in facts.values()]
    )
    return {
        key: f"{labels[f.subject_hash.digest]} {f.predicate} {labels[f.object_hash.digest]}"
        for key, f in facts.items()
    }


def touch_facts(store: MemoryStore, facts: Collection[bytes], clock: Clock = system_clock) -> None:
    """Touch every episode of `facts` (what a query returned)."""
    episodes = [row.hash for row in store.backend.episodes_of(sorted(set(facts)))]
    EpisodicMemory(store, clock=clock).touch(EpisodeHash(key) for key in episodes)
