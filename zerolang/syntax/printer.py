"""AST to `.0` text in the one canonical style.

Used by the formatter (`zero fmt`) and by everything that writes `.0` (the
memory compiler builds an AST and prints it here), so no `.0` text is ever
assembled by string concatenation and any string round-trips.

The style: 4-space indent; bare keys where the key is an identifier;
double-quoted strings with JSON escapes; bare identifiers for `type` and
`op`; a map or list on one line when it fits the width and holds no
comment, else one element per line with a trailing comma; the graph and its
node list always one element per line; at most one blank line kept.

`compat=True` prints the fully quoted JSON-like style the old runtime's
regex parser reads: every key and string quoted, no trailing commas, struct
literals as plain maps (that parser knows no struct names).
"""

from __future__ import annotations

import json
import math
import re
from typing import cast

from zerolang.syntax.ast import (
    Array,
    Bool,
    Comment,
    Element,
    Entry,
    Float,
    Graph,
    Int,
    Map,
    Null,
    String,
    Struct,
    Value,
)
from zerolang.util.config import DEFAULT_WIDTH

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*\Z")
KEYWORDS = frozenset({"true", "false", "null"})
BARE_VALUE_KEYS = frozenset({"type", "op"})
INDENT = "    "


def print_graph(graph: Graph, *, width: int = DEFAULT_WIDTH, compat: bool = False) -> str:
    """The canonical text of `graph` (or its old-runtime form), ending in one newline."""
    return _Printer(width, compat).graph(graph)


def quote(text: str) -> str:
    """A `.0` string literal: JSON escapes, non-ASCII kept as is."""
    return json.dumps(text, ensure_ascii=False)


def format_key(key: str) -> str:
    return key if IDENTIFIER.match(key) else quote(key)


def format_scalar(value: Value, key: str | None = None) -> str:
    if isinstance(value, String):
        if key in BARE_VALUE_KEYS and IDENTIFIER.match(value.value) and value.value not in KEYWORDS:
            return value.value
        return quote(value.value)
    if isinstance(value, Bool):
        return "true" if value.value else "false"
    if isinstance(value, Null):
        return "null"
    if isinstance(value, Int):
        return str(value.value)
    if isinstance(value, Float):
        return _float(value)
    raise TypeError(f"not a scalar: {type(value).__name__}")


def _float(value: Float) -> str:
    if value.raw is not None and float(value.raw) == value.value:
        return value.raw
    if not math.isfinite(value.value):
        raise ValueError(f"{value.value} has no .0 literal")
    text = repr(value.value)
    return text if any(mark in text for mark in ".eE") else text + ".0"


def _comment(comment: Comment) -> str:
    return "#" + comment.text.rstrip()


def _comment_lines(comments: list[Comment], indent: str) -> list[str]:
    """Own-line comments, each followed by the blank line it had in the source, if any."""
    lines: list[str] = []
    for comment in comments:
        lines.append(indent + _comment(comment))
        if comment.blank_after:
            lines.append("")
    return lines


def _has_comments(value: Value) -> bool:
    if isinstance(value, Array):
        return bool(value.dangling) or any(
            item.leading or item.trailing or _has_comments(item) for item in value.items
        )
    if isinstance(value, Map):
        return bool(value.dangling) or any(
            entry.leading or entry.trailing or _has_comments(entry.value) for entry in value.entries
        )
    return False


class _Printer:
    def __init__(self, width: int, compat: bool = False) -> None:
        self.width = width
        self.compat = compat

    def key(self, key: str) -> str:
        return quote(key) if self.compat else format_key(key)

    def scalar(self, value: Value, key: str | None) -> str:
        return format_scalar(value, None if self.compat else key)

    def struct_prefix(self, value: Map) -> str:
        if isinstance(value, Struct) and not isinstance(value, Graph) and not self.compat:
            return f"{value.name} "
        return ""

    def graph(self, graph: Graph) -> str:
        lines = _comment_lines(graph.leading, "")
        lines.append(self.block(graph, 0, always_break=True))
        footer = _comment_lines(graph.footer, "")
        if footer and footer[-1] == "":
            footer.pop()
        lines.extend(footer)
        return "\n".join(lines) + "\n"

    def value(self, value: Value, level: int, key: str | None, room: int) -> str:
        """`value` at indent `level`, given `room` columns left on its first line."""
        if isinstance(value, (Map, Array)):
            force = key == "nodes" and isinstance(value, Array) and bool(value.items)
            if not force and not _has_comments(value):
                flat = self.flat(value, key)
                if len(flat) <= room:
                    return flat
            return self.block(value, level, always_break=True)
        return self.scalar(value, key)

    def flat(self, value: Value, key: str | None = None) -> str:
        if isinstance(value, Array):
            return "[" + ", ".join(self.flat(item) for item in value.items) + "]"
        if isinstance(value, Map):
            prefix = self.struct_prefix(value)
            if not value.entries:
                return prefix + "{}"
            body = ", ".join(f"{self.key(e.key)}: {self.flat(e.value, e.key)}" for e in value.entries)
            return prefix + "{ " + body + " }"
        return self.scalar(value, key)

    def block(self, value: Map | Array, level: int, *, always_break: bool) -> str:
        inner = INDENT * (level + 1)
        if isinstance(value, Array):
            opening, closing = "[", "]"
            elements: list[Element] = list(value.items)
        else:
            prefix = f"{value.name} " if isinstance(value, Graph) else self.struct_prefix(value)
            opening, closing = prefix + "{", "}"
            elements = list(value.entries)
        lines = [opening]
        last = len(elements) - 1
        for index, element in enumerate(elements):
            if element.blank_before and index > 0:
                lines.append("")
            lines.extend(_comment_lines(element.leading, inner))
            if isinstance(element, Entry):
                head = f"{self.key(element.key)}: "
                room = self.width - len(inner) - len(head) - 1
                body = head + self.value(element.value, level + 1, element.key, room)
            else:
                room = self.width - len(inner) - 1
                body = self.value(cast(Value, element), level + 1, None, room)
            line = inner + body + ("" if self.compat and index == last else ",")
            if element.trailing is not None:
                line += "  " + _comment(element.trailing)
            lines.append(line)
        dangling = _comment_lines(value.dangling, inner)
        if dangling and dangling[-1] == "":
            dangling.pop()
        lines.extend(dangling)
        lines.append(INDENT * level + closing)
        return "\n".join(lines)
