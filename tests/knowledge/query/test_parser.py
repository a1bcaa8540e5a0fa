"""The query grammar: what each clause parses to, and errors that point at the column."""

from __future__ import annotations

import pytest

from zerolang.knowledge.query import QueryError, parse_query
from zerolang.knowledge.query.ast import Label, Var
from zerolang.util.errors import ZeroError


def test_recall_with_every_clause() -> None:
    query = parse_query(
        'recall "agent" depth 3 limit 5 where confidence > 0.5 and predicate in (needs, "is part of")'
        " and source = user_prompt and scope = design since 7d from semantic, working rank by activation"
        " order by depth asc as L1"
    )
    assert query.kind == "recall"
    assert query.seed is not None and query.seed.text == "agent"
    assert (query.depth, query.limit, query.ranker, query.detail) == (3, 5, "activation", "L1")
    assert [str(c) for c in query.compares] == ["confidence > 0.5"]
    assert query.predicates == ("needs", "is_part_of")
    assert (query.sources, query.scopes, query.tiers) == (
        ("user_prompt",),
        ("design",),
        ("semantic", "working"),
    )
    assert query.window is not None and query.window.since == 7 * 86400
    assert query.order == ("depth", False)


def test_match_patterns_and_spans() -> None:
    query = parse_query("match (?x needs long-term-memory), (?x ?p ?y) between 2026-02-01 and 2026-02-28")
    first, second = query.patterns
    assert first.subject == Var("x", first.subject.span)
    assert isinstance(first.object, Label) and first.object.text == "long-term-memory"
    assert (first.span.column, first.span.end_column) == (7, 34)
    assert str(second) == "(?x ?p ?y)"
    assert query.window is not None
    assert (query.window.start, query.window.end) == ("2026-02-01T00:00:00", "2026-02-28T23:59:59.999999")


def test_from_all_means_every_tier() -> None:
    assert parse_query("recall a from all").tiers == ()


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("recall", 'expected a name or a quoted label ("..."), found the end of the query', 7),
        ("recall agent depth x", "expected a whole number, found `x`", 20),
        (
            'recall "agent" depht 2',
            "`depth`, `from`, `known`, `limit`, `order`, `rank`, `since` or `where`, found `depht`",
            16,
        ),
        ("match (?x needs)", 'expected a name, a quoted label ("...") or a variable (?x), found `)`', 16),
        ("recall a where foo > 1", "expected a field (confidence, score, depth", 16),
        ("recall a between 2026-02-30 and 2026-03-01", "2026-02-30 is not a valid date", 18),
        ("match (?x a b) rank by score", "`rank by` applies to recall", 24),
        ("match (?x a b) depth 2", "`depth` applies to recall", 22),
        ("recall a depth 2 depth 3", "`depth` is given twice", 24),
        ("recall a since", "expected a duration (30m, 12h, 7d, 2w), found the end of the query", 15),
        ("recall a $", "found '$'", 10),
        ("match (?x a b) order by ?z", "expected a variable of the patterns or confidence, found `?z`", 25),
        ("recall a depth 0", "depth must be between 1 and 10", 16),
        ("€", "expected `match` or `recall`, found '€'", 1),
    ],
)
def test_errors_point_at_the_column(text: str, message: str, column: int) -> None:
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    error = caught.value
    assert isinstance(error, ZeroError)
    assert message in error.message
    assert error.span is not None and error.span.column == column
    rendered = error.render().splitlines()
    assert rendered[0].startswith(f"<query>:1:{column}: ")
    assert rendered[1] == f"1 | {text}"
    assert rendered[2].index("^") - len("  | ") == column - 1


@pytest.mark.parametrize("text", ['recall "a\\qb"', 'recall "\\ud800"', 'match ("\\u12" ?p ?o)'])
def test_bad_escapes_in_labels_are_query_errors(text: str) -> None:
    with pytest.raises(QueryError, match="bad escape in the quoted label"):
        parse_query(text)


def test_quoted_labels_unescape() -> None:
    query = parse_query('recall "long \\"term\\"\tmemory"')
    assert query.seed is not None and query.seed.text == 'long "term"\tmemory'
