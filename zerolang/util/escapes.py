"""The one rule for what a string escape may make: a Unicode character, never half of one.

A JSON-style escape `\\uXXXX` names a UTF-16 code unit. A surrogate pair
(`\\ud83d\\ude00`) makes one character; a surrogate on its own (`\\ud800`) is
not a character at all: UTF-8 files, SQLite and every other tool we hand text
to refuse it. zerolang refuses it where it is written, with the place, in
every reader: `.0` strings and keys, `.0c` labels and metadata, JSON run
inputs, memory inputs and query labels. So no command ever holds one, and
`check`, `run`, `fmt`, `lint`, `viz` and the `.0c` tools all agree.

It is also the one home of `escaped`, how user data is shown to a human: data shown as
data, never as a terminal control sequence or a misleading bidi reordering.
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
                return _first_surrogate(item)
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is dict:
            stack.extend(item.keys())
            stack.extend(item.values())
    return None


def _first_surrogate(text: str) -> str:
    for character in text:
        if 0xD800 <= ord(character) <= 0xDFFF:
            return f"\\u{ord(character):04x}"
    return text


# What `escaped` leaves as it is: printable text without a backslash (the common case, one C call).
# Python's `isprintable` is false for C0/C1 controls, DEL, bidi overrides and isolates (U+202A-202E,
# U+2066-2069), other format characters (U+200E/F, U+FEFF), line and paragraph separators, and
# lone surrogates: each is shown as its escape.
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
# What a backslash may start in `escaped` text: a backslash written before one of these is doubled.
_ESCAPE_AHEAD = re.compile(r"\\|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[ntr]")
_SHOWN_ESCAPE = re.compile(r"\\(\\|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[ntr])")


def _visible(character: str) -> str:
    named = _NAMED.get(character)
    if named is not None:
        return named
    code = ord(character)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(text: str, *, exact: bool = True) -> str:
    """User data as a human sees it in any output but `--json`: data, never a control sequence.

    Every character that is not printable (C0 and C1 controls with ESC, DEL, the bidi
    overrides and isolates, line breaks, lone surrogates) is written as its Python escape
    (`\\x1b`, `\\u202e`, `\\n`). A backslash is doubled when what follows would read as an
    escape, so `unescaped(escaped(text)) == text` for every text, and any other backslash
    (`C:\\dir`) stays as it is. The result holds no control character, so rich markup is never
    read from it when it is printed as a rich `Text` (never as a markup string).

    `exact=False` leaves every backslash as it is: for text that quotes a source line or mixes
    our words with data (an error message), where a backslash is the source's own escape
    (`\\u001b` as written); controls are still shown as escapes, so it is as safe, not exact.
    """
    if text.isprintable() and (not exact or "\\" not in text):
        return text
    shown: list[str] = []
    for index, character in enumerate(text):
        if character == "\\" and exact:
            after = text[index + 1 : index + 10]
            doubled = _ESCAPE_AHEAD.match(after) is not None or (after != "" and not after[0].isprintable())
            shown.append("\\\\" if doubled else "\\")
        elif character.isprintable():
            shown.append(character)
        else:
            shown.append(_visible(character))
    return "".join(shown)


def unescaped(shown: str) -> str:
    """The text `escaped` showed: its escapes read back, any other backslash kept."""

    def one(match: re.Match[str]) -> str:
        body = match.group(1)
        if body == "\\":
            return "\\"
        if body in ("n", "t", "r"):
            return {"n": "\n", "t": "\t", "r": "\r"}[body]
        return chr(int(body[1:], 16))

    return _SHOWN_ESCAPE.sub(one, shown)


def escaped_lines(text: str, *, exact: bool = True) -> str:
    """Text whose line breaks are layout (a message, a rendered block): each line escaped on its own."""
    return "\n".join(escaped(line, exact=exact) for line in text.split("\n"))


def _json_escape(character: str) -> str:
    code = ord(character)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_text(document: object, *, indent: int | None = 2) -> str:
    """`--json` output: `json.dumps` with non-ASCII text as it is, but no character `escaped` would escape.

    JSON itself escapes C0 controls; DEL, C1 controls, the bidi overrides, line separators
    and lone surrogates (which JSON allows raw) are written as `\\uXXXX` too, so the document
    reads back the same and never drives the terminal it is printed on. Outside its strings,
    the text holds only ASCII and line breaks.
    """
    import json

    text = json.dumps(document, ensure_ascii=False, indent=indent)
    if text.isascii() and "\x7f" not in text:
        return text
    return "".join(c if c.isprintable() or c == "\n" else _json_escape(c) for c in text)
