"""The lean tree builder (zerolang.syntax.treebuild) builds exactly what lark's own tree builder builds."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given, settings

from tests.strategies import commented_graphs
from zerolang.syntax import parser as zero_parser
from zerolang.syntax.ast import Graph
from zerolang.syntax.grammar import build_parser
from zerolang.syntax.printer import print_graph

_lark_built: list[Any] = []


def _with_lark_builder(text: str) -> Graph:
    """`parse`, its tree built by lark's inline transformer (what treebuild replaces) instead."""
    if not _lark_built:
        comments = {"COMMENT": zero_parser._collect_comment}
        _lark_built.append(build_parser("zero", zero_parser._Builder(), True, lexer_callbacks=comments))
    lean = zero_parser._parser()
    zero_parser._parsers[True] = _lark_built[0]
    try:
        return zero_parser.parse(text)
    finally:
        zero_parser._parsers[True] = lean


def everything(value: Any) -> Any:
    """Every field of an AST, spans, raw text and flags included (dataclass equality skips those)."""
    if isinstance(value, list):
        return [everything(item) for item in value]
    if dataclasses.is_dataclass(value):
        return (
            type(value).__name__,
            {field.name: everything(getattr(value, field.name)) for field in dataclasses.fields(value)},
        )
    return value


@settings(max_examples=40, deadline=None)
@given(commented_graphs())
def test_lean_builder_matches_larks(graph: Graph) -> None:
    text = print_graph(graph)
    assert everything(zero_parser.parse(text)) == everything(_with_lark_builder(text))


def test_a_tiny_graph_field_by_field() -> None:
    source = (
        'Graph { name: "g", "nodes": [{id: a, type: Constant, value: [1, 2.5e3, true, null, {}, X {}],},] }'
    )
    built = zero_parser.parse(source)
    assert everything(built) == everything(_with_lark_builder(source))
    assert built.nodes[0].span.start == source.index("{id")
