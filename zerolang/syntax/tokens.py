"""Tokens as cheap tuples, and the loop that cuts a text into them with one compiled regex.

`zerolang.syntax.fastlex` builds the regex from a grammar's terminals for lark's
parser; `zerolang.syntax.lalr` reads the same tokens in its own parse loop. Neither
this module nor `lalr` imports lark.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, cast


class FastToken(NamedTuple):
    """The token fields the parser and our tree builder read, as a cheap tuple (lark reads the same)."""

    type: str
    value: str
    start_pos: int
    line: int
    column: int
    end_line: int
    end_column: int
    end_pos: int


class Rejected(Exception):
    """The text does not lex or parse; lark's own parser says why (`position`: where lexing stopped)."""

    def __init__(self, position: int | None = None) -> None:
        super().__init__(f"no terminal matches at offset {position}" if position is not None else "")
        self.position = position


# (terminal name, ignored, may span lines, has a lexer callback); index 0 is the `\Z` match.
Kind = tuple[str, bool, bool, bool]
new_token = tuple.__new__


def lex(
    pattern: re.Pattern[str], kinds: list[Kind], callbacks: dict[str, Callable[[Any], Any]], text: str
) -> Iterator[FastToken]:
    """The tokens of `text` for `zerolang.syntax.fastlex`'s one-regex pattern; Rejected where none matches.

    Each match is anchored where the last one ended (a scanner, not `finditer`): `finditer`
    would search on past a character no terminal matches, trying every later start, and the
    pattern's blank prefix makes each try run to that character, quadratic in a run of blanks.
    """
    count = text.count
    line, line_start, position = 1, 0, 0
    matches: Callable[[], re.Match[str] | None] = cast(Any, pattern).scanner(text).match
    for match in iter(matches, None):
        start = match.start()
        index = match.lastindex
        if index is None:  # blanks up to the end of the text
            position = match.end()
            break
        position = match.end()
        token_start = match.start(index)
        if token_start != start and count("\n", start, token_start):
            line += count("\n", start, token_start)
            line_start = text.rindex("\n", start, token_start) + 1
        start = token_start
        kind, ignored, multiline, has_callback = kinds[index]
        value = match.group(index)
        column = start - line_start + 1
        if multiline and "\n" in value:
            end_line = line + value.count("\n")
            line_start = start + value.rindex("\n") + 1
            end_column = position - line_start + 1
        else:
            end_line, end_column = line, column + len(value)
        token = new_token(FastToken, (kind, value, start, line, column, end_line, end_column, position))
        line = end_line
        if ignored:
            if has_callback:
                callbacks[kind](token)
            continue
        yield token
    if position != len(text):
        raise Rejected(position)
