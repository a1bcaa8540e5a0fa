"""How wide text is on a terminal, for excerpts: a caret must sit under the character it means.

A character shown in an excerpt is one of: itself (1 column, 2 for East Asian wide and fullwidth
characters, 0 for combining marks), a tab (shown as `TAB` spaces), or, for anything not printable,
its escape (`\\x1b`, as `util.escapes.escaped` writes it, one column per character).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from zerolang.util.escapes import escaped

TAB = 4  # a tab in an excerpt is this many spaces (rustc and ruff show it so too)


@lru_cache(maxsize=4096)
def shown(character: str) -> tuple[str, int]:
    """What an excerpt prints for one character, and how many columns that takes."""
    if character == "\t":
        return " " * TAB, TAB
    if character.isascii() and character.isprintable():
        return character, 1
    if not character.isprintable():
        text = escaped(character, exact=False)
        return text, len(text)
    if unicodedata.combining(character) or unicodedata.category(character) in ("Mn", "Me"):
        return character, 0
    return character, 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def width(text: str) -> int:
    """The columns `text` takes as an excerpt shows it."""
    if text.isascii() and text.isprintable():
        return len(text)
    return sum(shown(character)[1] for character in text)
