"""Syntax errors say where (file:line:col), show the line with a caret, and say what was expected."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from tests.budget import scaled
from zerolang.syntax.parser import parse
from zerolang.util.errors import ZeroError, ZeroSyntaxError

BAD_SOURCES = {
    "missing_comma_between_nodes": 'Graph {\n    nodes: [\n        { id: "a", type: Constant, value: 1 }\n        { id: "b", type: Constant, value: 2 },\n    ],\n}\n',
    "missing_comma_between_fields": 'Graph { name: "x" nodes: [] }',
    "unclosed_graph": 'Graph {\n    name: "x",\n',
    "unclosed_list": 'Graph { nodes: [ { id: "a" }, ',
    "wrong_closer": "Graph { a: [1, 2 }",
    "missing_colon": 'Graph { name "x" }',
    "missing_value": "Graph { name: }",
    "double_colon": "Graph { a: : }",
    "stray_comma": "Graph { , }",
    "not_a_graph": "Pipeline { }",
    "empty_file": "",
    "only_comments": "# nothing here\n",
    "text_after_graph": 'Graph { name: "x" } Graph { }',
    "unterminated_string": 'Graph { name: "abc }\n',
    "newline_in_string": 'Graph { name: "abc\ndef" }',
    "single_quotes": "Graph { name: 'x' }",
    "bad_escape": 'Graph { name: "a\\qb" }',
    "bad_unicode_escape": 'Graph { name: "\\u12" }',
    "integer_too_big": "Graph { v: 123456789012345678901234567890 }",
    "slash_comment": "Graph { // no\n }",
    "stray_character": "Graph { a: 1 ; }",
    "malformed_number": "Graph { a: 1.2.3 }",
}


@pytest.mark.parametrize("name", sorted(BAD_SOURCES))
def test_syntax_error_message(name: str, snapshot: SnapshotAssertion) -> None:
    with pytest.raises(ZeroSyntaxError) as caught:
        parse(BAD_SOURCES[name], f"{name}.0")
    assert caught.value.render() == snapshot
    assert caught.value.headline().startswith(f"{name}.0:")


def test_headline_has_file_line_column_and_expectation() -> None:
    with pytest.raises(ZeroSyntaxError) as caught:
        parse(BAD_SOURCES["missing_comma_between_nodes"], "graph.0")
    error = caught.value
    assert error.headline() == "graph.0:4:9: expected `,` or `]` after a node, found `{` (missing a comma?)"
    lines = error.render().splitlines()
    assert lines[1] == '4 |         { id: "b", type: Constant, value: 2 },'
    assert lines[2] == "  |         ^"


@settings(max_examples=scaled(300), deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_our_error(text: str) -> None:
    try:
        parse(text)
    except ZeroError as error:
        assert error.headline()
        error.render()


GRAPH_ALPHABET = st.sampled_from([*'Graph{}[]:,"#\n abc1-.e\\u0x', "Graph", "nodes", "true", "null", "id"])


@settings(max_examples=scaled(300), deadline=None)
@given(st.lists(GRAPH_ALPHABET, max_size=40).map("".join))
def test_graph_like_text_raises_only_our_error(text: str) -> None:
    try:
        parse("Graph {" + text)
    except ZeroError as error:
        assert error.headline()
        error.render()
