"""Planning and running a `Query` against a `MemoryStore`.

recall: BFS from the seed (predicate sets pushed into SQL, context, time and
tier filters applied to each level's facts in one batched query), ranked by
score or activation, then `where`, `order by`, `limit`; the returned facts
are touched. match: patterns run most-constant first, each as one
`Records.find_facts` call (an indexed query) with the variables already
bound pushed in, joined on shared variables in Python, streamed into a heap
of `limit` rows (`zerolang/knowledge/query/join.py`). No SQL here: every read goes
through the store's backend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from zerolang.knowledge.asking import concepts_named
from zerolang.knowledge.backend import Records, Temporal, Tiers
from zerolang.knowledge.query.ast import Label, Pattern, Query, QueryError, Var
from zerolang.knowledge.query.join import Joined, Ordering, Resolved, join, top
from zerolang.knowledge.query.parser import parse_query
from zerolang.knowledge.recall import (
    RecallOptions,
    RecallResult,
    concept_labels,
    fact_texts,
    recall_from,
    touch_facts,
)
from zerolang.knowledge.recall.ranking import DEFAULT_WEIGHTS
from zerolang.knowledge.recall.traversal import Edge, EdgeFilter
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.tiers import DEFAULT_HALF_LIFE, DEFAULT_MIN_CONFIDENCE, decay, memory_age_start
from zerolang.knowledge.types import ConceptNode
from zerolang.util.times import Clock, parse_time, system_clock

DEFAULT_RECALL_LIMIT = 10
DEFAULT_MATCH_LIMIT = 100


@dataclass(slots=True)
class QueryResult:
    """Result rows (JSON-ready dicts), the plan that produced them and notes for the user."""

    kind: str
    rows: list[dict[str, object]]
    plan: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    variables: tuple[str, ...] = ()
    facts: list[bytes] = field(
        default_factory=list
    )  # the FactHash digests behind the rows, for `as L0|L1|L2`

    def to_json(self) -> list[dict[str, object]]:
        return self.rows


def run_query(
    store: MemoryStore, query: Query | str, *, clock: Clock = system_clock, touch: bool = True
) -> QueryResult:
    """Parse (if text) and execute a query; every user mistake is a `QueryError`."""
    parsed = parse_query(query) if isinstance(query, str) else query
    if parsed.kind == "recall":
        return _recall(store, parsed, clock, touch)
    return _match(store, parsed, clock, touch)


# ---- fact filters ---------------------------------------------------------------------------


class _TierReads(Records, Tiers, Protocol):
    """What the tier clause reads: episodes (the episodic tier) and the other tiers' members."""


class _FilterReads(_TierReads, Temporal, Protocol):
    """What the context, time and tier clauses read: episodes, fact times, tier members."""


def _window(query: Query, now: float) -> tuple[float, float] | None:
    window = query.window
    if window is None:
        return None
    if window.since is not None:
        return (now - window.since, math.inf)
    assert window.start is not None and window.end is not None
    return (parse_time(window.start), parse_time(window.end))


def fact_filter(
    db: _FilterReads, query: Query, now: float
) -> Callable[[Collection[bytes]], set[bytes]] | None:
    """Which facts pass the context, time and tier clauses (None when there are none)."""
    window = _window(query, now)
    contextual = window is not None or query.sources or query.scopes
    temporal = query.as_of is not None or query.known_at is not None or db.has_periods()
    if not contextual and not query.tiers and not temporal:
        return None
    from zerolang.knowledge.temporal import visible
    from zerolang.util.times import format_time

    stamp = format_time(datetime.fromtimestamp(now, UTC))

    def allowed(keys: Collection[bytes]) -> set[bytes]:
        found = set(keys)
        if temporal:
            found &= visible(db, sorted(found), now=stamp, as_of=query.as_of, known_at=query.known_at)
        if contextual:
            found &= _in_context(db, sorted(found), query, window)
        if query.tiers:
            found &= _in_tiers(db, sorted(found), query.tiers, now)
        return found

    return allowed


def _in_context(
    db: Records, keys: Sequence[bytes], query: Query, window: tuple[float, float] | None
) -> set[bytes]:
    """Facts with at least one episode whose context matches every context clause: pruned episodes
    count too (maintenance never takes a fact's provenance away)."""
    found: set[bytes] = set()
    for row in db.provenance_of(keys):
        if row.fact_hash in found or (query.sources and row.source not in query.sources):
            continue
        if query.scopes and row.scope not in query.scopes:
            continue
        if window is not None and not window[0] <= parse_time(row.event_time) <= window[1]:
            continue
        found.add(row.fact_hash)
    return found


def _in_tiers(db: _TierReads, keys: Sequence[bytes], tiers: Collection[str], now: float) -> set[bytes]:
    found: set[bytes] = set()
    if "semantic" in tiers:
        found |= db.semantic_facts(keys)
    if "working" in tiers:
        found |= db.working_facts(keys)
    if "episodic" in tiers:
        for row in db.episodes_of(keys):
            alive = decay(
                row.confidence, DEFAULT_HALF_LIFE, now - memory_age_start(row.created_at, row.last_access)
            )
            if alive >= DEFAULT_MIN_CONFIDENCE:
                found.add(row.fact_hash)
    return found


def _filter_plan(query: Query) -> list[str]:
    parts = [f"source = {s}" for s in query.sources] + [f"scope = {s}" for s in query.scopes]
    if query.window is not None:
        parts.append(query.window.text)
    if query.tiers:
        parts.append("from " + ", ".join(query.tiers))
    if query.as_of is not None:
        parts.append(f"as of {query.as_of}")
    if query.known_at is not None:
        parts.append(f"known at {query.known_at}")
    return [f"filter facts (an episode must match): {'; '.join(parts)}"] if parts else []


# ---- recall ---------------------------------------------------------------------------------


def _recall(store: MemoryStore, query: Query, clock: Clock, touch: bool) -> QueryResult:
    assert query.seed is not None
    seed, named = store.find_concept(query.seed.text), ""
    if seed is None:  # not a label, alias or hash: the concept its words name, when one is best
        seed, named = _seed_by_words(store, query)
    limit = query.limit or DEFAULT_RECALL_LIMIT
    ranker = query.ranker or "score"
    depth = query.depth or 2
    pool = max(50, 5 * limit)
    ranked_order = query.order is None or (query.order[0] == ranker and query.order[1] is not False)
    options = RecallOptions(
        depth=depth,
        limit=limit if ranked_order and not query.compares else pool,  # else filter/reorder the pool
        ranker=ranker,
        predicates=frozenset(query.predicates) if query.predicates is not None else None,
        candidates=pool,
        touch=False,
    )
    now = clock().timestamp()
    allowed = fact_filter(store.backend, query, now)
    results = recall_from(store, seed.hash, options, clock=clock, edge_filter=_edge_filter(allowed))
    results = [r for r in results if all(c.holds(_recall_number(r, c.field)) for c in query.compares)]
    order_key, descending = _recall_order(query, ranker)
    results.sort(key=lambda r: r.label)
    results.sort(key=lambda r: _recall_field(r, order_key), reverse=descending)
    results = results[:limit]
    if touch:
        touch_facts(store, [r.path[-1].digest for r in results], clock)
    rows = []
    for rank, result in enumerate(results, 1):
        row = result.to_json()
        rows.append({"rank": rank, **row})
    plan = _recall_plan(query, seed.label, depth, pool, ranker, order_key, descending, limit, touch)
    if named:
        plan.insert(0, named)
    facts = list(dict.fromkeys(fact.digest for result in results for fact in result.path))
    return QueryResult("recall", rows, plan, facts=facts)


def _seed_by_words(store: MemoryStore, query: Query) -> tuple[ConceptNode, str]:
    """The seed a recall's text names in words ("where does Carol work?": carol diaz): the one best
    concept of the word index, or a located error naming the candidates when none or a tie."""
    assert query.seed is not None
    text = query.seed.text
    found = concepts_named(store, text)
    best = [label for label, points, _ in found if points == found[0][1]] if found else []
    if len(best) == 1:
        concept = store.get_concept_by_label(best[0])
        if concept is not None:
            words = ", ".join(repr(word) for word in found[0][2])
            return (
                concept,
                f"seed: {best[0]!r}, named by the words {words} (no concept is labelled {text!r})",
            )
    hint = f"; its words name {', '.join(repr(label) for label in best[:5])}" if best else ""
    raise QueryError(f"no concept {text!r} in this memory{hint}", query.source, query.seed.span)


def _edge_filter(allowed: Callable[[Collection[bytes]], set[bytes]] | None) -> EdgeFilter | None:
    if allowed is None:
        return None

    def keep(edges: list[Edge]) -> list[Edge]:
        passed = allowed([edge.fact for edge in edges])
        return [edge for edge in edges if edge.fact in passed]

    return keep


def _recall_field(result: RecallResult, name: str) -> float | str:
    if name in ("label", "concept"):
        return result.label
    if name == "score":
        return result.score
    if name == "depth":
        return result.depth
    return result.factors.get(name, 0.0)


def _recall_number(result: RecallResult, name: str) -> float:
    value = _recall_field(result, name)
    return value if isinstance(value, float | int) else 0.0


def _recall_order(query: Query, ranker: str) -> tuple[str, bool]:
    if query.order is None:
        return (ranker, True)
    key, descending = query.order
    if descending is None:
        descending = key not in ("label", "concept", "depth")
    return (key, descending)


def _recall_plan(
    query: Query,
    seed: str,
    depth: int,
    pool: int,
    ranker: str,
    order_key: str,
    descending: bool,
    limit: int,
    touch: bool,
) -> list[str]:
    traverse = f"traverse: BFS from {seed!r}, both directions, depth {depth}, edges with confidence >= 0.1"
    if query.predicates is not None:
        traverse += f", predicate in ({', '.join(query.predicates)})"
    plan = [traverse + f", best {pool} paths by path confidence (product along the path)"]
    plan += _filter_plan(query)
    w = DEFAULT_WEIGHTS
    if ranker == "activation":
        plan.append(
            "rank: spreading activation (1.0 at the seed, x edge confidence x 0.5 per hop, summed over paths)"
        )
    else:
        plan.append(
            f"rank: score = {w.confidence:.2f} confidence + {w.recency:.2f} recency"
            f" + {w.frequency:.2f} frequency + {w.connectivity:.2f} connectivity"
            " (recency half-life 7d; frequency, connectivity relative to the best)"
        )
    if query.compares:
        plan.append("where " + " and ".join(str(c) for c in query.compares))
    plan.append(f"order by {order_key} {'desc' if descending else 'asc'}, limit {limit}")
    if touch:
        plan.append("touch: one access for each episode of each returned concept's last fact")
    return plan


# ---- match ----------------------------------------------------------------------------------


def _resolve(store: MemoryStore, pattern: Pattern) -> Resolved:
    from zerolang.knowledge.normalize import normalize_predicate

    concepts: list[bytes | None] = []
    missing = None
    for term in (pattern.subject, pattern.object):
        if isinstance(term, Label):
            found = store.find_concept(term.text)
            concepts.append(None if found is None else found.hash.digest)
            if found is None:
                missing = term.text
        else:
            concepts.append(None)
    predicate = normalize_predicate(pattern.predicate.text) if isinstance(pattern.predicate, Label) else None
    return Resolved(pattern, concepts[0], predicate, concepts[1], missing)


def _check_variables(query: Query) -> None:
    """A variable names either concepts or predicates, never both."""
    kinds: dict[str, str] = {}
    for pattern in query.patterns:
        for term, kind in (
            (pattern.subject, "concept"),
            (pattern.predicate, "predicate"),
            (pattern.object, "concept"),
        ):
            if isinstance(term, Var) and kinds.setdefault(term.name, kind) != kind:
                raise QueryError(
                    f"?{term.name} is used both as a {kinds[term.name]} and as a {kind}",
                    query.source,
                    term.span,
                )


def _constants(pattern: Pattern) -> int:
    return sum(isinstance(term, Label) for term in pattern.terms())


def _match(store: MemoryStore, query: Query, clock: Clock, touch: bool) -> QueryResult:
    _check_variables(query)
    db = store.backend
    now = clock().timestamp()
    allowed = fact_filter(db, query, now)
    resolved = [_resolve(store, p) for p in sorted(query.patterns, key=lambda p: -_constants(p))]
    plan = [
        f"pattern {i}: {item.pattern} ({_constants(item.pattern)} constants)"
        for i, item in enumerate(resolved, 1)
    ]
    plan += _filter_plan(query)
    notes = [
        f"no concept {item.missing!r}: {item.pattern} matches nothing" for item in resolved if item.missing
    ]
    variables = tuple(dict.fromkeys(t.name for p in query.patterns for t in p.terms() if isinstance(t, Var)))
    key, descending = query.order if query.order is not None else ("confidence", True)
    if key == "observations":
        key = "confidence"
    descending = (key == "confidence") if descending is None else descending
    ordering = Ordering(key, descending, variables)
    limit = query.limit or DEFAULT_MATCH_LIMIT
    best_first = key == "confidence" and descending
    found: list[Joined] = []
    if not notes:
        rows = join(db, resolved, query, allowed, best_first)
        found = top(rows, ordering, limit, lambda keys: concept_labels(store, keys), best_first)
    return _match_rows(store, found, ordering, limit, plan, notes, clock, touch)


def _match_rows(
    store: MemoryStore,
    found: list[Joined],
    ordering: Ordering,
    limit: int,
    plan: list[str],
    notes: list[str],
    clock: Clock,
    touch: bool,
) -> QueryResult:
    texts = fact_texts(store, {f for row in found for f in row.facts})
    rows: list[dict[str, object]] = [
        {
            "bindings": row.shown,
            "confidence": round(row.confidence, 6),
            "facts": [texts[f] for f in row.facts],
        }
        for row in found
    ]
    if touch:
        touch_facts(store, {f for row in found for f in row.facts}, clock)
    plan.append("join on shared variables; confidence = product of the matched facts' confidences")
    plan.append(f"order by {ordering.key} {'desc' if ordering.descending else 'asc'}, limit {limit}")
    if touch:
        plan.append("touch: one access for each episode of each returned fact")
    facts = list(dict.fromkeys(fact for row in found for fact in row.facts))
    return QueryResult("match", rows, plan, notes, ordering.variables, facts)
