"""The streamed `match` join gives the rows, confidences and order of the whole join sorted.

A reference builds every combination of facts, keeps those that agree on shared variables,
counts each binding once and sorts the lot as the executor did before it streamed (by the
variables' labels, then stably by the `order by` key), then cuts at `limit`. Random small
stores on every backend, tiny chunks so that chunk edges, the heap's evictions and the early
stop of the default order are all exercised.
"""

from __future__ import annotations

import itertools
import json
import math
import secrets
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from zerolang import storage
from zerolang.knowledge.backend import FactFilter
from zerolang.knowledge.ingest import parse_inputs
from zerolang.knowledge.normalize import normalize_predicate
from zerolang.knowledge.query import join as join_module
from zerolang.knowledge.query.ast import Label, QueryError, Var
from zerolang.knowledge.query.executor import DEFAULT_MATCH_LIMIT, run_query
from zerolang.knowledge.query.parser import parse_query
from zerolang.knowledge.recall import concept_labels, fact_texts
from zerolang.memory import MemoryStore, ingest

CONCEPTS = [f"c{i}" for i in range(5)]
PREDICATES = ["likes", "knows", "owns"]
NOW = "2026-03-01T12:00:00.000Z"

facts = st.lists(
    st.tuples(st.sampled_from(CONCEPTS), st.sampled_from(PREDICATES), st.sampled_from(CONCEPTS)),
    min_size=1,
    max_size=14,
    unique=True,
)
confidences = st.sampled_from([0.5, 0.8, 1.0])


concept_terms = st.one_of(st.sampled_from(["?a", "?b", "?c"]), st.sampled_from(CONCEPTS))
predicate_terms = st.one_of(st.sampled_from(["?p", "?q"]), st.sampled_from(PREDICATES))
pattern_lists = st.lists(st.tuples(concept_terms, predicate_terms, concept_terms), min_size=1, max_size=3)


@st.composite
def queries(draw: st.DrawFn) -> str:
    """One to three patterns (those the parser refuses, cross joins, are drawn again)."""
    patterns = draw(pattern_lists.filter(_joined))
    text = "match " + ", ".join(f"({s} {p} {o})" for s, p, o in patterns)
    variables = sorted({t[1:] for triple in patterns for t in triple if t.startswith("?")})
    if draw(st.booleans()):
        text += f" where confidence >= {draw(st.sampled_from(['0.5', '0.6', '0.9']))}"
    order = draw(st.sampled_from(["", "confidence", "confidence asc", "confidence desc", *variables]))
    if order:
        text += " order by " + (f"?{order}" if order in variables else order)
        if order in variables and draw(st.booleans()):
            text += " desc"
    if draw(st.booleans()):
        text += f" limit {draw(st.integers(1, 6))}"
    return text


def _joined(patterns: list[tuple[str, str, str]]) -> bool:
    try:
        parse_query("match " + ", ".join(f"({s} {p} {o})" for s, p, o in patterns))
    except QueryError:
        return False
    return True


def reference(store: MemoryStore, text: str) -> list[dict[str, object]]:
    """Every combination of facts, joined, deduplicated and sorted whole."""
    query = parse_query(text)
    compares = tuple(("confidence", c.op, c.value) for c in query.compares)
    every = store.backend.find_facts(FactFilter(compares=compares))
    # the executor's order (most constants first): a row's facts are listed in it
    ordered = sorted(query.patterns, key=lambda p: -sum(isinstance(t, Label) for t in p.terms()))
    per_pattern = []
    for pattern in ordered:
        keep = []
        for fact in every:
            values = (fact.subject_hash.digest, fact.predicate, fact.object_hash.digest)
            ok = True
            for term, value in zip(pattern.terms(), values, strict=True):
                if isinstance(term, Label):
                    if term is pattern.predicate:
                        ok &= normalize_predicate(term.text) == value
                    else:
                        found = store.find_concept(term.text)
                        ok &= found is not None and found.hash.digest == value
            if ok:
                keep.append(fact)
        per_pattern.append(keep)
    rows: dict[tuple[tuple[str, bytes | str], ...], tuple[dict[str, bytes | str], tuple[bytes, ...]]] = {}
    for combination in itertools.product(*per_pattern):
        binding: dict[str, bytes | str] = {}
        ok = True
        for pattern, fact in zip(ordered, combination, strict=True):
            values = (fact.subject_hash.digest, fact.predicate, fact.object_hash.digest)
            for term, value in zip(pattern.terms(), values, strict=True):
                if isinstance(term, Var) and binding.setdefault(term.name, value) != value:  # type: ignore[arg-type]
                    ok = False
        if ok:
            digests = tuple(dict.fromkeys(f.fact_hash.digest for f in combination))
            rows.setdefault(tuple(sorted(binding.items())), (binding, digests))
    confidence = {f.fact_hash.digest: f.confidence for f in every}
    variables = tuple(dict.fromkeys(t.name for p in query.patterns for t in p.terms() if isinstance(t, Var)))
    labels = concept_labels(store, {v for b, _ in rows.values() for v in b.values() if isinstance(v, bytes)})
    scored = []
    for binding, digests in rows.values():
        shown = {n: labels[v] if isinstance(v, bytes) else v for n, v in binding.items()}
        scored.append((shown, digests, math.prod(confidence[f] for f in digests)))
    key, descending = query.order if query.order is not None else ("confidence", True)
    descending = (key == "confidence") if descending is None else descending
    scored.sort(key=lambda row: tuple(row[0][v] for v in variables))
    if key == "confidence":
        scored.sort(key=lambda row: row[2], reverse=descending)
    else:
        scored.sort(key=lambda row: row[0][key[1:]], reverse=descending)
    scored = scored[: query.limit or DEFAULT_MATCH_LIMIT]
    texts = fact_texts(store, {f for _, digests, _ in scored for f in digests})
    return [
        {"bindings": shown, "confidence": round(c, 6), "facts": [texts[f] for f in digests]}
        for shown, digests, c in scored
    ]


@pytest.fixture
def tiny_chunks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(join_module, "CHUNK", 2)
    yield


@pytest.mark.slow
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=40)
@given(triples=facts, levels=st.lists(confidences, min_size=14, max_size=14), text=queries())
@example(  # equal confidences: the early stop must not cut a row that wins on labels
    triples=[("c2", "likes", "c4"), ("c0", "likes", "c4"), ("c1", "likes", "c4")],
    levels=[1.0] * 14,
    text="match (?a ?p ?b) limit 1",
)
def test_streamed_match_equals_the_sorted_join(
    location: str,
    tiny_chunks: None,
    triples: list[tuple[str, str, str]],
    levels: list[float],
    text: str,
) -> None:
    inputs = [
        {
            "utterance": f"{s} {p} {o}",
            "tuples": [{"subject": s, "predicate": p, "object": o, "confidence": level}],
            "context": {"event_time": "2026-02-18T00:00:00Z", "source": "observation", "scope": "test"},
        }
        for (s, p, o), level in zip(triples, levels, strict=False)
    ]
    with storage.open_store(location, space=f"m-{secrets.token_hex(6)}", create=True) as store:
        ingest(store, parse_inputs(json.dumps(inputs)), now=NOW)
        ours = run_query(store, text, touch=False).rows
        assert ours == reference(store, text), text


def test_the_default_order_stops_early(location: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hub joined with itself: `limit 3` reads the first pattern best first and stops long
    before the 40 x 40 rows of the whole join, with the same rows as the whole join."""
    monkeypatch.setattr(join_module, "CHUNK", 4)
    inputs = [
        {
            "utterance": f"hub links n{i}",
            "tuples": [
                {"subject": "hub", "predicate": "links", "object": f"n{i}", "confidence": 0.99 - i / 100}
            ],
            "context": {"event_time": "2026-02-18T00:00:00Z", "source": "observation", "scope": "test"},
        }
        for i in range(40)
    ]
    original = join_module._Extend.__call__

    with storage.open_store(location, space=f"m-{secrets.token_hex(6)}", create=True) as store:
        ingest(store, parse_inputs(json.dumps(inputs)), now=NOW)
        text = "match (?h ?p ?a), (?h ?q ?b) limit 3"
        seen: list[int] = []
        monkeypatch.setattr(
            join_module._Extend,
            "__call__",
            lambda self, upstream: _counted(original(self, upstream), self, seen),
        )
        ours = run_query(store, text, touch=False).rows
        assert ours == reference(store, text)
        assert seen and max(seen) < 40 * 40 // 4


def _counted(stream: Iterator[object], extend: join_module._Extend, seen: list[int]) -> Iterator[object]:
    try:
        yield from stream
    finally:
        seen.append(extend.count)
