"""The one rule for what a string escape may make: a Unicode character, never half of one.

A JSON-style escape `\\uXXXX` names a UTF-16 code unit. A surrogate pair
(`\\ud83d\\ude00`) makes one character; a surrogate on its own (`\\ud800`) is
not a character at all: UTF-8 files, SQLite and every other tool we hand text
to refuse it. zerolang refuses it where it is written, with the place, in
every reader: `.0` strings and keys, `.0c` labels and metadata, JSON run
inputs, memory inputs and query labels. So no command ever holds one, and
`check`, `run`, `fmt`, `lint`, `viz` and the `.0c` tools all agree.
"""

from __future__ import annotations

import re

_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)

LONE_SURROGATE = (
    "lone surrogate `{escape}` in a string: it is half of a UTF-16 pair, not a character "
    "(write the character itself, or both halves, e.g. `\\ud83d\\ude00`)"
)


def lone_surrogate_escape(literal: str) -> tuple[int, str] | None:
    """(offset, text) of the first `\\uXXXX` escape in `literal` that is an unpaired surrogate.

    A high surrogate (D800-DBFF) pairs only with a low one (DC00-DFFF) written right after it.
    """
    if "\\u" not in literal and "\\U" not in literal:
        return None
    waiting: tuple[int, str] | None = None  # a high surrogate looking for its low half
    waiting_end = -1
    for match in _ESCAPE.finditer(literal):
        digits = match.group(1)
        code = int(digits, 16) if digits is not None else -1
        if waiting is not None:
            if match.start() == waiting_end and 0xDC00 <= code <= 0xDFFF:
                waiting = None
                continue
            return waiting
        if 0xD800 <= code <= 0xDBFF:
            waiting, waiting_end = (match.start(), match.group()), match.end()
        elif 0xDC00 <= code <= 0xDFFF:
            return match.start(), match.group()
    return waiting


def has_lone_surrogate(text: str) -> bool:
    """Whether decoded text holds a surrogate code point (only an escape can have put it there)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def first_lone_surrogate(value: object) -> str | None:
    """The first string (or map key) in parsed JSON holding a lone surrogate, written as its escape."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is str:
            if has_lone_surrogate(item):
                return _escaped(item)
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is dict:
            stack.extend(item.keys())
            stack.extend(item.values())
    return None


def _escaped(text: str) -> str:
    for character in text:
        if 0xD800 <= ord(character) <= 0xDFFF:
            return f"\\u{ord(character):04x}"
    return text
