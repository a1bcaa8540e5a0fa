"""The query grammar's tables driven by `zerolang.syntax.lalr` (contextual lexer included) build the tree
lark builds, token positions and all, and reject exactly what lark rejects."""

from __future__ import annotations

import marshal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token, Tree
from lark.exceptions import LarkError

from tests.budget import scaled
from tests.knowledge.query.test_properties import keywords, queries
from zerolang.knowledge.query import parser as query_parser
from zerolang.syntax.tokens import Rejected


def plain(node: Any) -> Any:
    """A tree of either parser as nested tuples: rule names, token kinds, values and positions."""
    if isinstance(node, Tree | query_parser.Tree):
        return (str(node.data), [plain(child) for child in node.children])
    fields = ("type", "value", "start_pos", "line", "column", "end_line", "end_column", "end_pos")
    assert isinstance(node, Token) or type(node).__name__ == "FastToken", node
    return tuple(str(getattr(node, name)) if name == "value" else getattr(node, name) for name in fields)


def same_as_lark(text: str) -> None:
    try:
        expected = plain(query_parser._get_parser().parse(text))
    except LarkError:
        with pytest.raises(Rejected):
            query_parser._get_driver().parse(text)
        return
    assert plain(query_parser._get_driver().parse(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        'recall "agent" depth 2 limit 10 where confidence > 0.5 rank by activation',
        "match (?x needs long-term-memory), (?x ?p ?y) since 7d from semantic, episodic",
        "match (alice lives_in ?where) as of 2021-05-01 known at 2026-01-01T10:00:00Z",
        "match (?a ?p ?b) between 2026-02-01 and 2026-02-28 order by ?a desc as L1",
        'recall x where predicate in ("a", b) and source = s and scope = "t" from all',
        "recall recall",
        "recall from",
        "recall a\n  depth\t2\n limit 3",
        "recall a depth 2026-01-01",
        "recall a since 7x",
        "match (?x ?y)",
        "recall 'a'",
        "",
        "   ",
        "recall a b",
        'recall "unterminated',
    ],
)
def test_driver_builds_and_rejects_as_lark(text: str) -> None:
    same_as_lark(text)


@settings(max_examples=scaled(300), deadline=None)
@given(queries())
def test_generated_queries_drive_as_lark(text: str) -> None:
    same_as_lark(text)


@settings(max_examples=scaled(300), deadline=None)
@given(st.lists(keywords, max_size=12).map(" ".join) | st.text(max_size=40))
def test_soup_drives_as_lark(text: str) -> None:
    same_as_lark(text)


def test_query_tables_are_plain_data() -> None:
    from zerolang.syntax.lalr import extract_contextual

    tables = extract_contextual(query_parser._get_parser())
    assert marshal.loads(marshal.dumps(tables)) == tables
