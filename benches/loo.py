"""Leave-one-conversation-out choice of recall settings: what `bench_locomo.py --loo` estimates with.

A small grid of `RecallWeights` (every combination of the values in `GRID`, the other weights at
their defaults) is scored on every question once. Each conversation is then scored with the grid
point that is best (mean recall@10 over their questions) on the *other* conversations, so no
conversation is scored with settings chosen on itself: that is the leave-one-out estimate of what
conversations we have not seen will show. The shipped defaults follow one rule that generalises
too: the grid point best on average over the folds' training sets.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace

from zerolang.experience.recall import RecallWeights

GRID: dict[str, tuple[float, ...]] = {
    "speaker": (0.5, 1.0),
    "session": (0.2, 0.4, 0.6),
    "about": (0.5, 1.0),
    "asking": (0.0, 0.2),
    "spread": (0.0, 0.2),
    "sessions": (0, 2, 3),
    "fused": (0, 3),
}
"""The weights `--loo` chooses, and the values it tries for each (the others keep their defaults;
`answer` 0.6/1.0 and `time` 0.5/1.0 were in the grid until every fold chose 1.0 for both; `fused`,
the sessions of both rankings fused, joined in round 8)."""


def grid(values: Mapping[str, Sequence[float]] = GRID) -> list[RecallWeights]:
    """Every combination of `values` over the default weights; the defaults themselves first."""
    names = {f.name: f.type for f in fields(RecallWeights)}
    base = RecallWeights()
    points = [base]
    for combination in itertools.product(*values.values()):
        changes = {
            name: int(value) if names[name] in (int, "int") else float(value)
            for name, value in zip(values, combination, strict=True)
        }
        point = replace(base, **changes)
        if point not in points:
            points.append(point)
    return points


def mean_of(scores: Sequence[float]) -> float:
    return sum(scores) / len(scores) if scores else 0.0


def best_point(scores: Sequence[Mapping[str, Sequence[float]]], held_out: str | None) -> int:
    """The grid point with the best mean score over every conversation's questions but `held_out`'s.

    `scores[point][conversation]` holds one score per question. Ties go to the earlier point (the
    defaults first); with no other conversation to learn from, the defaults (point 0).
    """
    best, best_value = 0, -1.0
    for index, by_conversation in enumerate(scores):
        pooled = [s for name, values in by_conversation.items() if name != held_out for s in values]
        if not pooled:
            return 0
        value = mean_of(pooled)
        if value > best_value:
            best, best_value = index, value
    return best


def leave_one_out(scores: Sequence[Mapping[str, Sequence[float]]]) -> dict[str, int]:
    """For each conversation, the grid point chosen without it."""
    conversations = list(scores[0]) if scores else []
    return {name: best_point(scores, name) for name in conversations}


def shipped(scores: Sequence[Mapping[str, Sequence[float]]]) -> int:
    """The rule for the defaults: the point whose training score, averaged over the folds, is best."""
    conversations = list(scores[0]) if scores else []
    if len(conversations) < 2:
        return 0
    best, best_value = 0, -1.0
    for index, by_conversation in enumerate(scores):
        folds = [
            mean_of([s for name, values in by_conversation.items() if name != out for s in values])
            for out in conversations
        ]
        value = mean_of(folds)
        if value > best_value:
            best, best_value = index, value
    return best


def changes(point: RecallWeights) -> dict[str, float]:
    """The weights of `point` that `GRID` varies."""
    return {name: getattr(point, name) for name in GRID}
