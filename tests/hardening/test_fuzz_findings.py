"""What the fuzz suite (tests/fuzz, fuzz/) found, each kept as a regression test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.support import ROOT, zero
from zerolang.knowledge.formats.compact import parse as parse_compact
from zerolang.knowledge.ingest import parse_inputs
from zerolang.knowledge.query import QueryError, parse_query
from zerolang.syntax.parser import parse
from zerolang.util.errors import ZeroError, ZeroSyntaxError
from zerolang.util.files import parse_json

HUGE = "9" * 5000  # past Python's 4,300-digit limit for int()


def test_a_huge_integer_literal_is_a_located_syntax_error() -> None:
    with pytest.raises(ZeroSyntaxError, match=r"\(5000 digits\) does not fit in 64 bits") as caught:
        parse(f"Graph {{\n  n: -{HUGE} }}", "g.0")
    assert caught.value.headline().startswith("g.0:2:6:")


def test_leading_zeros_do_not_count() -> None:
    graph = parse("Graph { n: 000000000000000000000000042 }")
    assert graph.get("n").value == 42  # type: ignore[union-attr]


@pytest.mark.parametrize("reader", [parse_json, parse_inputs])
def test_a_huge_json_number_is_our_error(reader: object) -> None:
    with pytest.raises(ZeroError, match=r"1:7: the number .* out of range"):
        reader(f'{{"x": {HUGE}}}', "x.json")  # type: ignore[operator]


def test_a_huge_number_in_compact_metadata_is_our_error() -> None:
    text = f'0M:1.0\na|A\nb|B\nX:2026-01-01T00:00:00Z s t m={{"k":{HUGE}}}\n@2026-01-01T00:00:00.000Z\n1 r2\n'
    with pytest.raises(ZeroError, match="bad metadata"):
        parse_compact(text, "m.0c")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (f"recall a limit {HUGE}", "limit must be between 1 and 100000"),
        (f"recall a depth {HUGE}", "depth must be between 1 and 10"),
        (f"recall a since {HUGE}d", "reaches back more than a century"),
        ("recall a since 99999999d", "reaches back more than a century"),
    ],
)
def test_absurd_query_numbers_are_query_errors(query: str, message: str) -> None:
    with pytest.raises(QueryError, match=message):
        parse_query(query)


def test_the_cli_answers_a_huge_input_number_with_exit_1(tmp_path: Path) -> None:
    line = zero("run", str(ROOT / "examples" / "hello.0"), "-i", f"name:={HUGE}").clear_error()
    assert "invalid --input" in line
