"""`# zero: noqa` after code silences its line; with codes, only those codes."""

from __future__ import annotations

import pytest

from tests.tools.lint.support import codes, graph
from zerolang.syntax.parser import parse
from zerolang.tools.lint.noqa import suppressions

UNUSED = '{ id: "unused", type: Constant, value: 1 }'
BAD_OP = '{ id: "b", type: Operation, op: Eq, inputs: ["a", "gone"] }'


def with_comment(comment: str) -> str:
    return graph('{ id: "a", type: Constant, value: 1 }', f"{BAD_OP}  {comment}".rstrip(), outputs='["b"]')


def test_without_noqa_both_codes_are_reported() -> None:
    assert codes(with_comment("")) == ["Z003", "Z004"]


@pytest.mark.parametrize(
    ("comment", "left"),
    [
        ("# zero: noqa", []),
        ("# zero: noqa: Z003", ["Z004"]),
        ("# zero: noqa: Z004", ["Z003"]),
        ("# zero: noqa: Z003, Z004", []),
        ("# zero: noqa: Z003 Z004", []),
        ("# zero: noqa:z003", ["Z004"]),
        ("# ZERO: NOQA", []),
        ("# reason first  # zero: noqa: Z004", ["Z003"]),
        ("# zero: noqa: Z008", ["Z003", "Z004"]),
        ("# noqa", ["Z003", "Z004"]),  # ruff's, not ours
    ],
)
def test_trailing_noqa(comment: str, left: list[str]) -> None:
    assert codes(with_comment(comment)) == left


def test_noqa_on_its_own_line_suppresses_nothing() -> None:
    source = graph(
        '{ id: "a", type: Constant, value: 1 }', "# zero: noqa\n        " + BAD_OP, outputs='["b"]'
    )
    assert codes(source) == ["Z003", "Z004"]


def test_noqa_only_covers_its_own_line() -> None:
    source = graph(UNUSED + "  # zero: noqa", UNUSED.replace("unused", "other"), outputs="[]")
    assert codes(source) == ["Z011"]


def test_noqa_on_the_first_line_of_a_multiline_node() -> None:
    source = graph(
        '{ id: "a", type: Constant, value: 1 }',
        '{  # zero: noqa: Z012\n            id: "b",\n            type: Operation,\n        }',
        outputs='["a", "b"]',
    )
    assert codes(source) == []


def test_suppressions_by_line() -> None:
    source = graph(
        UNUSED + "  # zero: noqa: Z011,Z008",
        UNUSED.replace("unused", "x") + "  # zero: noqa",
        outputs="[]",
    )
    assert suppressions(parse(source), source) == {4: frozenset({"Z011", "Z008"}), 5: None}
