"""Our loop over lark's tables (zerolang.syntax.lalr) builds what lark's own loop builds, and says no where lark does."""

from __future__ import annotations

from pathlib import Path

import pytest
from lark.exceptions import LarkError

from zerolang.syntax import parser as zero_parser
from zerolang.syntax.lalr import Driver, extract
from zerolang.syntax.tokens import Rejected
from zerolang.util.errors import ZeroSyntaxError

ROOT = Path(__file__).resolve().parents[2]
TEXTS = sorted(ROOT.glob("examples/**/*.0")) + sorted(ROOT.glob("schema/*.0"))


def through_lark(text: str) -> object:
    zero_parser._state.text = text
    zero_parser._state.comments = []
    return zero_parser._parser().parse(text)


def through_driver(text: str) -> object:
    zero_parser._state.text = text
    zero_parser._state.comments = []
    tables = extract(zero_parser._parser())
    return Driver(tables, zero_parser._Builder(), {"COMMENT": zero_parser._collect_comment}).parse(text)


@pytest.mark.parametrize("path", TEXTS, ids=lambda path: path.name)
def test_driver_builds_what_lark_builds(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        expected = through_lark(text)
    except LarkError:  # an example of a syntax error
        with pytest.raises(Rejected):
            through_driver(text)
        return
    assert through_driver(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Graph {",
        "Graph { a: }",
        "Graph { a: 1 } x",
        "Graph { a: [1 2] }",
        "Graph { a: ~ }",
        "{ }",
        "Graph {}}",
    ],
)
def test_driver_rejects_what_lark_rejects(text: str) -> None:
    with pytest.raises(Rejected):
        through_driver(text)
    with pytest.raises(ZeroSyntaxError):
        zero_parser.parse(text)


def test_tables_are_plain_data() -> None:
    import marshal

    tables = extract(zero_parser._parser())
    assert marshal.loads(marshal.dumps(tables)) == tables
