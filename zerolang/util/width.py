"""How wide text is on a terminal, for excerpts: a caret must sit under the character it means.

A character shown in an excerpt is one of: itself (1 column, 2 for East Asian wide and fullwidth
characters, 0 for combining marks), a tab (shown as `TAB` spaces), or, for anything not printable,
its escape (`\\x1b`, as `util.escapes.escaped` writes it, one column per character).
"""

from __future__ import annotations

import re
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


# A name quoted in a message (`like this`) is cut to this many characters, and a message shown to a
# person to MAX_MESSAGE: an unknown op written as 5 MB of text is named, not printed.
MAX_QUOTED = 80
MAX_MESSAGE = 1000
_QUOTED = re.compile(r"`([^`\n]{" + str(MAX_QUOTED + 1) + r",})`")


def fitted(message: str) -> str:
    """`message` with each `quoted` name longer than MAX_QUOTED cut (`…` and its length), then at most
    MAX_MESSAGE characters: what a human reads. `--json` reports keep messages whole."""
    if len(message) <= MAX_QUOTED:
        return message
    message = _QUOTED.sub(_cut_quoted, message)
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _cut_quoted(match: re.Match[str]) -> str:
    name = match.group(1)
    return f"`{name[: MAX_QUOTED - 1]}…` ({len(name):,} characters)"
