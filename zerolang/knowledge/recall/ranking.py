"""Multi-factor ranking: confidence x recency x frequency x connectivity (seed 001, V1.6).

Each factor is in [0, 1] and the score is their weighted sum, default
weights (0.35, 0.25, 0.20, 0.20), so a user can read from the factors why
a result ranks where it does:

- confidence: the path confidence from the traversal;
- recency: `2^(-age / half_life)` of the newest episode of the fact that
  reached the concept (age from its context's event time);
- frequency: that fact's episode accesses over the most among the hits;
- connectivity: the concept's degree (facts) over the highest among the hits.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zerolang.knowledge.backend import EpisodeRow
from zerolang.knowledge.recall.traversal import TraversalHit
from zerolang.knowledge.tiers import decay
from zerolang.util.times import parse_time


@dataclass(frozen=True, slots=True)
class Weights:
    confidence: float = 0.35
    recency: float = 0.25
    frequency: float = 0.20
    connectivity: float = 0.20


DEFAULT_WEIGHTS = Weights()


@dataclass(frozen=True, slots=True)
class FactStats:
    """What ranking needs of one fact: its newest observation, accesses and episodes."""

    newest: float  # POSIX seconds of the newest episode's event time
    accesses: int
    episodes: tuple[bytes, ...]


def importance(factors: dict[str, float], weights: Weights = DEFAULT_WEIGHTS) -> float:
    return (
        weights.confidence * factors["confidence"]
        + weights.recency * factors["recency"]
        + weights.frequency * factors["frequency"]
        + weights.connectivity * factors["connectivity"]
    )


def stats_of(rows: Iterable[EpisodeRow]) -> dict[bytes, FactStats]:
    """Per fact: newest event time, summed access counts and episode hashes, from its episodes."""
    newest: dict[bytes, float] = {}
    accesses: dict[bytes, int] = defaultdict(int)
    episodes: dict[bytes, list[bytes]] = defaultdict(list)
    for row in rows:
        moment = parse_time(row.event_time)
        newest[row.fact_hash] = max(newest.get(row.fact_hash, moment), moment)
        accesses[row.fact_hash] += row.access_count
        episodes[row.fact_hash].append(row.hash)
    return {key: FactStats(newest[key], accesses[key], tuple(episodes[key])) for key in newest}


def factors_for(
    hits: Sequence[TraversalHit],
    stats: dict[bytes, FactStats],
    degree: dict[bytes, int],
    now: float,
    half_life: float,
) -> list[dict[str, float]]:
    """The four factors of each hit, normalised against the other hits."""
    arriving = [stats.get(hit.path[-1].digest) for hit in hits]
    top_access = max((s.accesses for s in arriving if s is not None), default=0)
    top_degree = max((degree.get(hit.concept.digest, 0) for hit in hits), default=0)
    result = []
    for hit, fact in zip(hits, arriving, strict=True):
        recency = 0.0 if fact is None else decay(1.0, half_life, now - fact.newest)
        frequency = fact.accesses / top_access if fact is not None and top_access else 0.0
        connectivity = degree.get(hit.concept.digest, 0) / top_degree if top_degree else 0.0
        result.append(
            {
                "confidence": hit.path_confidence,
                "recency": recency,
                "frequency": frequency,
                "connectivity": connectivity,
            }
        )
    return result
