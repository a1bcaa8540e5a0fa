"""A `match`'s join, streamed: pattern by pattern in chunks, into a top-k heap of `limit` rows.

Nothing holds the whole join: each pattern reads the facts for a chunk of the previous
pattern's bindings (their bound variable pushed into the query) and yields the extended
bindings one by one; the consumer keeps the best `limit` rows in a heap. Memory is
O(chunk + facts of one pattern read + limit), whatever the join's size.

The order is total and the same as sorting the whole join: the `order by` key
(confidence, the product of a row's distinct facts' confidences, or a variable's label),
then the variables' labels ascending in the query's order, then the raw values. For the
default order (confidence, best first) the first pattern is read best first: no row can
beat the confidence of its first fact (every confidence is at most 1), so once the heap
is full and its worst row beats the next first fact, the join stops early.

Work is bounded too: a pattern that extends more than `MAX_JOINED` rows ends the query
with an error naming the pattern (the time a join takes, not its memory).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from zerolang.knowledge.backend import FactFilter, Records
from zerolang.knowledge.query.ast import Pattern, Query, QueryError, Var

MAX_JOINED = 2_000_000  # rows one pattern may extend before the query asks to be narrowed
CHUNK = 1_000  # bindings whose values one pattern's query takes at once
LABEL_CACHE = 100_000  # concept labels kept between chunks (cleared beyond)

Binding = dict[str, bytes | str]
FactRow = tuple[
    bytes, bytes, str, bytes, float, int
]  # hash, subject, predicate, object, confidence, observations
Path = tuple[tuple[bytes, float], ...]  # the facts matched so far, with their confidences
Allowed = Callable[[Collection[bytes]], set[bytes]]


@dataclass(frozen=True, slots=True)
class Resolved:
    """A pattern with its constants resolved: concept digests and a normalised predicate."""

    pattern: Pattern
    subject: bytes | None
    predicate: str | None
    object: bytes | None
    missing: str | None  # a constant naming no concept: the pattern matches nothing


@dataclass(frozen=True, slots=True)
class Joined:
    """One row of the join: its bindings, distinct facts, confidence and labels."""

    binding: Binding
    facts: tuple[bytes, ...]
    confidence: float
    shown: dict[str, str]


@dataclass(frozen=True, slots=True)
class Ordering:
    key: str  # "confidence" or "?name"
    descending: bool
    variables: tuple[str, ...]  # in the query's order: the tie-break


class _Reversed:
    """A value that sorts the other way round (a descending key inside an ascending tuple)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Reversed) -> bool:
        return bool(other.value < self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Reversed) and bool(self.value == other.value)

    __hash__ = None  # type: ignore[assignment]


def fetch(
    db: Records, item: Resolved, query: Query, bound: tuple[str, list[bytes | str]] | None
) -> list[FactRow]:
    """The facts matching one pattern's constants, `where` and predicate set, and a bound variable."""
    pattern = item.pattern
    where = FactFilter(
        subject=item.subject,
        predicate=item.predicate,
        object=item.object,
        predicates=None if query.predicates is None else frozenset(query.predicates),
        compares=tuple(
            ("confidence" if c.field == "confidence" else "observations", c.op, c.value)
            for c in query.compares
        ),
        self_loop=isinstance(pattern.subject, Var) and pattern.subject == pattern.object,
        bound=bound,
    )
    return [
        (
            f.fact_hash.digest,
            f.subject_hash.digest,
            f.predicate,
            f.object_hash.digest,
            f.confidence,
            f.observations,
        )
        for f in db.find_facts(where)
    ]


def _pushdown(pattern: Pattern, names: Collection[str]) -> tuple[str, str] | None:
    """The first variable of `pattern` already bound, as (column, name)."""
    for term, column in (
        (pattern.subject, "subject_hash"),
        (pattern.object, "object_hash"),
        (pattern.predicate, "predicate"),
    ):
        if isinstance(term, Var) and term.name in names:
            return (column, term.name)
    return None


def _bind(binding: Binding, pattern: Pattern, row: FactRow) -> Binding | None:
    values: tuple[bytes | str, ...] = (row[1], row[2], row[3])
    extended = dict(binding)
    for term, value in zip(pattern.terms(), values, strict=True):
        if isinstance(term, Var) and extended.setdefault(term.name, value) != value:
            return None
    return extended


def _chunks(items: Iterable[tuple[Binding, Path]]) -> Iterator[list[tuple[Binding, Path]]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, CHUNK)):
        yield chunk


class _Extend:
    """One pattern of the join: the upstream bindings, each extended by the facts that agree."""

    def __init__(
        self,
        db: Records,
        item: Resolved,
        query: Query,
        allowed: Allowed | None,
        first: bool,
        best_first: bool,
    ) -> None:
        self.db, self.item, self.query, self.allowed = db, item, query, allowed
        self.first, self.best_first = first, best_first
        self.unbound: list[FactRow] | None = None  # a pattern with no bound variable is read once
        self.count = 0

    def rows(self, bound: tuple[str, list[bytes | str]] | None) -> list[FactRow]:
        if bound is None and self.unbound is not None:
            return self.unbound
        rows = fetch(self.db, self.item, self.query, bound)
        if self.allowed is not None:
            passed = self.allowed([row[0] for row in rows])
            rows = [row for row in rows if row[0] in passed]
        if self.first and self.best_first:
            rows.sort(key=lambda row: -row[4])  # stable: fact-hash order among equals (`find_facts`)
        if bound is None:
            self.unbound = rows
        return rows

    def __call__(self, upstream: Iterable[tuple[Binding, Path]]) -> Iterator[tuple[Binding, Path]]:
        pattern = self.item.pattern
        for chunk in _chunks(upstream):
            push = _pushdown(pattern, chunk[0][0])
            if push is None:
                rows = self.rows(None)
                index: dict[bytes | str, list[FactRow]] = {}
            else:
                column, name = push
                values = sorted({b[name] for b, _ in chunk}, key=lambda v: (str(type(v)), v))
                rows = self.rows((column, values))
                index = {}
                for row in rows:
                    value: bytes | str = (
                        row[2] if column == "predicate" else row[1] if column == "subject_hash" else row[3]
                    )
                    index.setdefault(value, []).append(row)
            for binding, path in chunk:
                for row in rows if push is None else index.get(binding[push[1]], []):
                    extended = _bind(binding, pattern, row)
                    if extended is None:
                        continue
                    self.count += 1
                    if self.count > MAX_JOINED:
                        raise QueryError(
                            f"the patterns join over {MAX_JOINED} rows at {pattern};"
                            " add constants, a predicate set or a confidence filter",
                            self.query.source,
                            pattern.span,
                        )
                    yield extended, (*path, (row[0], row[4]))


def join(
    db: Records, resolved: Sequence[Resolved], query: Query, allowed: Allowed | None, best_first: bool
) -> Iterator[tuple[Binding, Path]]:
    """Every binding of the patterns, in order (the first pattern best first when asked)."""
    stream: Iterable[tuple[Binding, Path]] = [({}, ())]
    for position, item in enumerate(resolved):
        stream = _Extend(db, item, query, allowed, position == 0, best_first)(stream)
    yield from stream


def top(
    rows: Iterator[tuple[Binding, Path]],
    ordering: Ordering,
    limit: int,
    labels_of: Callable[[Collection[bytes]], dict[bytes, str]],
    early_stop: bool,
) -> list[Joined]:
    """The best `limit` rows of the join in `ordering`, best first, reading as few as it can.

    `early_stop` (the default order with the first pattern read best first): a row's
    confidence is at most its first fact's, so the scan ends when the heap's worst row
    is strictly better than the next first fact.
    """
    heap: list[tuple[_Reversed, Joined]] = []  # the worst kept row at the root
    kept: set[tuple[bytes | str, ...]] = set()
    labels: dict[bytes, str] = {}
    for chunk in _chunks(rows):
        if early_stop and len(heap) >= limit and -heap[0][0].value[0] > chunk[0][1][0][1]:
            break
        missing = {v for b, _ in chunk for v in b.values() if isinstance(v, bytes) and v not in labels}
        if len(labels) + len(missing) > LABEL_CACHE:
            labels = {}
            missing = {v for b, _ in chunk for v in b.values() if isinstance(v, bytes)}
        labels.update(labels_of(missing))
        for binding, path in chunk:
            if early_stop and len(heap) >= limit and -heap[0][0].value[0] > path[0][1]:
                break
            raw = tuple(binding[v] for v in ordering.variables)
            if raw in kept:  # the same binding twice (a fact matched by two patterns): once
                continue
            confidences = dict(path)  # a fact matched by two patterns counts once
            facts = tuple(confidences)
            confidence = math.prod(confidences[f] for f in facts)
            shown = {n: labels.get(v, v.hex()) if isinstance(v, bytes) else v for n, v in binding.items()}
            row = Joined(binding, facts, confidence, shown)
            key = _Reversed(_key(row, ordering, raw))
            if len(heap) < limit:
                heapq.heappush(heap, (key, row))
                kept.add(raw)
            elif heap[0][0] < key:  # reversed: the new row is better than the worst kept
                _, dropped = heapq.heapreplace(heap, (key, row))
                kept.discard(tuple(dropped.binding[v] for v in ordering.variables))
                kept.add(raw)
    return [row for _, row in sorted(heap, key=lambda item: item[0].value)]


def _key(row: Joined, ordering: Ordering, raw: tuple[bytes | str, ...]) -> tuple[Any, ...]:
    """Smaller is better."""
    names = tuple(row.shown.get(v, "") for v in ordering.variables)
    primary: Any
    if ordering.key == "confidence":
        primary = -row.confidence if ordering.descending else row.confidence
    else:
        value = row.shown.get(ordering.key[1:], "")
        primary = _Reversed(value) if ordering.descending else value
    return (primary, names, raw)
