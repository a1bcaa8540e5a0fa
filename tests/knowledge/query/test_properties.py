"""Hypothesis: queries generated from the grammar parse; any other text is a QueryError, never a traceback."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from zerolang.knowledge.query import Query, QueryError, parse_query
from zerolang.storage import open_store
from zerolang.util.errors import ZeroError

names = st.from_regex(r"[a-z0-9][a-z0-9_.\-]{0,12}", fullmatch=True).filter(
    lambda s: (
        s
        not in {
            "recall",
            "match",
            "depth",
            "limit",
            "where",
            "since",
            "between",
            "and",
            "from",
            "rank",
            "by",
            "order",
            "as",
            "predicate",
            "in",
            "source",
            "scope",
            "working",
            "episodic",
            "semantic",
            "all",
            "score",
            "activation",
            "asc",
            "desc",
        }
    )
)
quoted = (
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)
    .filter(lambda s: s.strip())
    .map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"')
)
labels = st.one_of(names, quoted)
variables = st.from_regex(r"\?[a-z][a-z0-9_]{0,5}", fullmatch=True)
terms = st.one_of(labels, variables)
numbers = st.one_of(st.integers(0, 100).map(str), st.floats(0, 1).map(lambda f: f"{f:.3f}"))
compare_ops = st.sampled_from([">", ">=", "<", "<=", "=", "!="])
dates = st.dates().filter(lambda d: d.year >= 1000).map(lambda d: d.isoformat())


def conditions(fields: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda f, o, n: f"{f} {o} {n}", st.sampled_from(fields), compare_ops, numbers),
        st.builds(lambda f, v: f"{f} = {v}", st.sampled_from(["source", "scope"]), labels),
    )


@st.composite
def clauses(draw: st.DrawFn, kind: str) -> str:
    fields = (
        ["confidence", "score", "depth", "recency"] if kind == "recall" else ["confidence", "observations"]
    )
    parts = []
    if kind == "recall" and draw(st.booleans()):
        parts.append(f"depth {draw(st.integers(1, 10))}")
    if draw(st.booleans()):
        parts.append(f"limit {draw(st.integers(1, 1000))}")
    if draw(st.booleans()):
        parts.append("where " + " and ".join(draw(st.lists(conditions(fields), min_size=1, max_size=3))))
    if draw(st.booleans()):
        preds = ", ".join(draw(st.lists(labels, min_size=1, max_size=3)))
        parts.append(f"where predicate in ({preds})")
    window = draw(st.integers(0, 2))
    if window == 1:
        parts.append(f"since {draw(st.integers(1, 99))}{draw(st.sampled_from('smhdw'))}")
    elif window == 2:
        first, second = sorted(draw(st.lists(dates, min_size=2, max_size=2)))
        parts.append(f"between {first} and {second}")
    if draw(st.booleans()):
        parts.append(
            "from "
            + ", ".join(draw(st.lists(st.sampled_from(["working", "episodic", "semantic"]), min_size=1)))
        )
    if kind == "recall" and draw(st.booleans()):
        parts.append(f"rank by {draw(st.sampled_from(['score', 'activation']))}")
    if draw(st.booleans()):
        parts.append(f"as {draw(st.sampled_from(['L0', 'L1', 'L2']))}")
    order = draw(st.permutations(parts))
    return " ".join(order)


@st.composite
def queries(draw: st.DrawFn, concepts: st.SearchStrategy[str] = labels) -> str:
    if draw(st.booleans()):
        return f"recall {draw(concepts)} {draw(clauses('recall'))}"
    triples = draw(st.lists(st.tuples(terms, terms, terms), min_size=1, max_size=3))
    if len(triples) > 1:  # patterns join on a shared variable (a cross join is refused)
        triples = [(s, p, "?j") if i == 0 else ("?j", p, o) for i, (s, p, o) in enumerate(triples)]
    patterns = [f"({s} {p} {o})" for s, p, o in triples]
    return f"match {', '.join(patterns)} {draw(clauses('match'))}"


@settings(max_examples=scaled(300), deadline=None)
@given(queries())
def test_generated_queries_parse(text: str) -> None:
    query = parse_query(text)
    assert isinstance(query, Query)
    assert query.source == text


@settings(max_examples=scaled(500), deadline=None)
@given(st.text(max_size=60))
def test_random_text_is_a_query_error_or_a_query(text: str) -> None:
    try:
        parse_query(text)
    except QueryError as error:
        assert isinstance(error, ZeroError)
        assert error.render().startswith("<query>:")


keywords = st.sampled_from(
    [
        "recall",
        "match",
        "(",
        ")",
        "?x",
        "agent",
        "depth",
        "2",
        "where",
        "confidence",
        ">",
        "0.5",
        ",",
        "and",
        "since",
        "7d",
        "between",
        "2026-02-01",
        "from",
        "semantic",
        "rank",
        "by",
        "activation",
        "as",
        "L1",
        '"x"',
    ]
)


@settings(max_examples=scaled(500), deadline=None)
@given(st.lists(keywords, max_size=12).map(" ".join))
def test_token_soup_is_a_query_error_or_a_query(text: str) -> None:
    with contextlib.suppress(QueryError):
        parse_query(text)


known = st.one_of(st.sampled_from(["agent", "ltm", '"0-memory"', "episodic-memory"]), labels)


@settings(max_examples=scaled(150), deadline=None)
@given(queries(known))
def test_generated_queries_run_or_fail_cleanly(text: str) -> None:
    """Over the example store, a generated query returns rows or a `ZeroError` (an unknown seed)."""
    from tests.knowledge.query.conftest import EXAMPLE, INGESTED, fixed_clock
    from zerolang.knowledge.query.executor import run_query
    from zerolang.memory import ingest, load_inputs

    with open_store() as store:
        ingest(store, load_inputs(EXAMPLE), now=INGESTED)
        try:
            result = run_query(store, text, clock=fixed_clock)
        except ZeroError:
            return
        assert isinstance(result.rows, list)
