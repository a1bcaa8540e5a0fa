"""A faster lexer for lark, compiled from the grammar's own terminals.

lark's standard lexer tries each position against its terminals in Python and
builds a `str`-subclass token per match; on `.0` text that is more than half
of parse time. This lexer joins the same terminal regexes (read from the
grammar, so the `.lark` file stays the single source of truth) into one
pattern scanned by `re.finditer`, and makes tuple tokens. It applies only to
grammars whose terminals never compete for the same text, which holds for
`.0`. Anything it cannot match raises `LexError`; the caller then re-lexes
with lark's own lexer, whose errors say what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from lark.exceptions import LexError
from lark.lexer import Lexer

from zerolang.syntax.tokens import FastToken, Kind, Rejected, lex

__all__ = ["FastToken", "GrammarRegexLexer", "UnlexableText"]


class UnlexableText(LexError):
    """Text no terminal matches; re-lex with lark's lexer for the worded error."""

    def __init__(self, position: int) -> None:
        super().__init__(f"no terminal matches at offset {position}")
        self.position = position


class GrammarRegexLexer(Lexer):
    """One alternation of every terminal, highest lark priority first, ignored terminals skipped.

    Ignored terminals without a callback (whitespace) are not tokens of their
    own: they are a possessive prefix of the pattern, skipped inside the same
    regex match as the token after them, so a blank costs no loop iteration.
    """

    __future_interface__ = 0

    def __init__(self, lexer_conf: Any) -> None:
        terminals = sorted(
            lexer_conf.terminals,
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        ignored = set(lexer_conf.ignore)
        callbacks: dict[str, Callable[[Any], Any]] = dict(lexer_conf.callbacks)
        groups = []
        skipped = []
        self._callbacks = callbacks
        self._kinds: list[Kind] = [("", False, False, False)]
        for terminal in terminals:
            regex = terminal.pattern.to_regexp()
            if terminal.name in ignored and terminal.name not in callbacks:
                skipped.append(f"(?:{regex})")
                continue
            groups.append(f"({regex})")
            multiline = "\n" in regex or "\\n" in regex or "\\s" in regex or regex.startswith("[^")
            self._kinds.append(
                (terminal.name, terminal.name in ignored, multiline, terminal.name in callbacks)
            )
        prefix = f"(?:{'|'.join(skipped)})*+" if skipped else ""
        # `\Z` ends the text after trailing blanks: a match with no token group.
        self._pattern = re.compile(f"{prefix}(?:{'|'.join(groups)}|\\Z)", lexer_conf.g_regex_flags)

    def lex(self, text: str) -> Iterator[FastToken]:  # type: ignore[override]
        try:
            yield from lex(self._pattern, self._kinds, self._callbacks, text)
        except Rejected as error:
            raise UnlexableText(error.position or 0) from None
