"""Huge literals cost their size, not ~190 bytes a character (issue 15 point 4): measured, not timed."""

from __future__ import annotations

import re
import tracemalloc
from collections.abc import Callable

import pytest

from zerolang.syntax.grammar import build_parser
from zerolang.syntax.parser import parse

SIZE = 1_000_000


def peak_bytes(action: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


LITERALS = {
    "plain": '"' + "a" * SIZE + '"',
    "escapes": '"' + "\\n" * (SIZE // 2) + '"',
    "mixed": '"' + "ab\\u00e9" * (SIZE // 8) + '"',
}


@pytest.mark.parametrize("grammar", ["zero", "query", "zeroc"])
@pytest.mark.parametrize("kind", list(LITERALS))
def test_string_terminal_keeps_no_state_per_character(grammar: str, kind: str) -> None:
    pattern = re.compile(build_parser(grammar, None, False).get_terminal("STRING").pattern.to_regexp())
    literal = LITERALS[kind]
    match = None

    def lex() -> None:
        nonlocal match
        match = pattern.match(literal)

    peak = peak_bytes(lex)
    assert match is not None and match.end() == len(literal)
    assert peak < len(literal) // 10, f"{peak / len(literal):.1f} bytes a character"


def test_unterminated_string_fails_without_state_either() -> None:
    pattern = re.compile(build_parser("zero", None, False).get_terminal("STRING").pattern.to_regexp())
    literal = '"' + "a\\t" * (SIZE // 3)
    assert peak_bytes(lambda: pattern.match(literal)) < len(literal) // 10
    assert pattern.match(literal) is None


@pytest.mark.parametrize("kind", list(LITERALS))
def test_parsing_a_huge_literal_costs_a_few_times_its_size(kind: str) -> None:
    text = 'Graph { name: "big", nodes: [{ id: "a", type: Constant, value: ' + LITERALS[kind] + " }] }"
    parse(text)  # warm: the parser is built or loaded outside the measurement
    peak = peak_bytes(lambda: parse(text))
    # The text's token, the decoded value and the AST: a few copies, where 190 bytes a character was.
    assert peak < 12 * len(text), f"{peak / len(text):.1f} bytes a character"
