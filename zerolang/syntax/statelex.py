"""A faster contextual lexer for lark's LALR parser, for grammars whose terminals compete.

lark's contextual lexer tries, in each parser state, only the terminals that
state accepts; that is what lets `.0c`'s LABEL, WORD and RELATION share
text. This lexer does the same with one compiled alternation per state (in
lark's own order of preference) and tuple tokens (`zerolang.syntax.fastlex.FastToken`),
about twice as fast. It does not explain failures: anything it cannot lex
raises `UnlexableText`, and the caller parses again with lark's lexer, whose
errors say what each state expected.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lark.lexer import Lexer

from zerolang.syntax.fastlex import FastToken, UnlexableText

_new_token = tuple.__new__


class StateRegexLexer(Lexer):
    """Per parser state, one regex of the terminals it accepts; no ignored terminals or callbacks."""

    __future_interface__ = 1

    def __init__(self, lexer_conf: Any) -> None:
        self._terminals = sorted(
            lexer_conf.terminals,
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        self._flags = lexer_conf.g_regex_flags
        self._multiline = {
            t.name for t in self._terminals if "\n" in t.pattern.to_regexp() or "\\n" in t.pattern.to_regexp()
        }
        self._states: dict[Any, tuple[re.Pattern[str], list[tuple[str, bool]]]] = {}

    def _state(self, accepts: Any) -> tuple[re.Pattern[str], list[tuple[str, bool]]]:
        terminals = [t for t in self._terminals if t.name in accepts]
        alternatives = "|".join(f"({t.pattern.to_regexp()})" for t in terminals) or "(?!)"
        pattern = re.compile(alternatives, self._flags)
        return pattern, [("", False)] + [(t.name, t.name in self._multiline) for t in terminals]

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[FastToken]:  # type: ignore[override]
        text: str = lexer_state.text.text
        table = parser_state.parse_conf.states
        states = self._states
        line, line_start, position, end = 1, 0, 0, len(text)
        while position < end:
            state = parser_state.position
            scanner = states.get(state)
            if scanner is None:
                scanner = states[state] = self._state(table[state])
            match = scanner[0].match(text, position)
            if match is None:
                raise UnlexableText(position)
            kind, multiline = scanner[1][match.lastindex or 0]
            value = match.group()
            start, position = position, match.end()
            column = start - line_start + 1
            if multiline and "\n" in value:
                end_line = line + value.count("\n")
                line_start = start + value.rindex("\n") + 1
                end_column = position - line_start + 1
            else:
                end_line, end_column = line, column + len(value)
            yield _new_token(FastToken, (kind, value, start, line, column, end_line, end_column, position))
            line = end_line
