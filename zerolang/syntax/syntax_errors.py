"""Turning lark's parse failures into sentences a person can act on.

lark reports the terminals it expected; the parser's value stack tells what
was just read and which bracket is still open, so we can say
"expected `,` or `]` after a node, found `{`" instead of a list of token names.
"""

from __future__ import annotations

from typing import Any

from zerolang.syntax.ast import Array, Entry, Graph, Map, Node, Span, Struct

_TERMINALS = {
    "COMMA": "`,`",
    "COLON": "`:`",
    "LBRACE": "`{`",
    "RBRACE": "`}`",
    "LSQB": "`[`",
    "RSQB": "`]`",
    "STRING": "a string",
    "NAME": "a name",
    "NUMBER": "a number",
    "$END": "the end of the file",
}
_VALUE_STARTS = {"STRING", "NAME", "NUMBER", "LBRACE", "LSQB"}
_KEY_STARTS = {"STRING", "NAME"}
_CLOSERS = {"LBRACE": "`}`", "LSQB": "`]`"}


def _expected_words(expected: set[str]) -> str:
    names = set(expected)
    words: list[str] = []
    if names >= _VALUE_STARTS:
        words.append("a value")
        names -= _VALUE_STARTS
    elif names >= _KEY_STARTS and "LBRACE" not in names:
        words.append("a key")
        names -= _KEY_STARTS
    order = ["COMMA", "COLON", "RSQB", "RBRACE", "LBRACE", "LSQB", "STRING", "NAME", "NUMBER", "$END"]
    words.extend(_TERMINALS[name] for name in order if name in names)
    words.extend(sorted(name for name in names if name not in _TERMINALS))
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _found(token: Any) -> str:
    if token.type == "$END":
        return "the end of the file"
    if token.type == "STRING":
        return f"the string {token.value}"
    if token.type == "NAME":
        return f"`{token.value}`"
    if token.type == "NUMBER":
        return f"the number {token.value}"
    return f"`{token.value}`"


def _open_brackets(stack: list[Any]) -> list[tuple[int, Any]]:
    """The brackets on the stack that no later bracket closes, outermost first."""
    opened: list[tuple[int, Any]] = []
    for index, item in enumerate(stack):
        kind = getattr(item, "type", None)
        if kind in _CLOSERS:
            opened.append((index, item))
        elif kind in ("RBRACE", "RSQB") and opened:
            opened.pop()
    return opened


def _narrow(expected: set[str], stack: list[Any]) -> set[str]:
    """Drop closers that cannot apply here (LALR merges states, so lark offers both)."""
    opened = _open_brackets(stack)
    if not opened:
        if expected & {"COMMA", "RBRACE", "RSQB", "$END"}:
            return {"$END"}
        return expected
    innermost = opened[-1][1].type
    wrong = "RSQB" if innermost == "LBRACE" else "RBRACE"
    return expected - {wrong, "$END"}


def _container_key(stack: list[Any], bracket_index: int) -> str | None:
    """The key whose value the bracket at `bracket_index` opens (`nodes` for `nodes: [`)."""
    if bracket_index >= 2 and getattr(stack[bracket_index - 1], "type", None) == "COLON":
        key = stack[bracket_index - 2]
        if getattr(key, "type", None) in ("NAME", "STRING"):
            return str(key.value).strip('"')
    return None


def _after(stack: list[Any]) -> str:
    """What was read last, in words: 'after a node', 'after the `id` field', ..."""
    if not stack:
        return ""
    last = stack[-1]
    opened = _open_brackets(stack)
    in_nodes = (
        bool(opened) and opened[-1][1].type == "LSQB" and _container_key(stack, opened[-1][0]) == "nodes"
    )
    if isinstance(last, Entry):
        return f" after the `{last.key}` field"
    kind = getattr(last, "type", None)
    if kind == "RBRACE":
        return " after a node" if in_nodes else " after a map"
    if kind == "RSQB":
        return " after a list"
    if (
        len(stack) >= 3
        and getattr(stack[-2], "type", None) == "COLON"
        and kind is not None
        and kind != "COLON"
    ):
        return f" after the `{str(stack[-3].value).strip(chr(34))}` field"
    if isinstance(last, (Node, Map)) and not isinstance(last, Struct):
        return " after a node" if in_nodes else " after a map"
    if isinstance(last, Array):
        return " after a list"
    if isinstance(last, (Struct, Graph)):
        return f" after `{last.name} {{ ... }}`"
    if kind == "COLON" and len(stack) >= 2:
        return f" after `{str(stack[-2].value).strip(chr(34))}:`"
    if kind == "COMMA":
        return " after `,`"
    if kind in _CLOSERS:
        key = _container_key(stack, len(stack) - 1)
        return f" after `{key}: {last.value}`" if key else f" after `{last.value}`"
    if kind in ("STRING", "NUMBER") or (kind == "NAME" and in_nodes is False and _is_value(stack)):
        return " after a value" if not in_nodes else " after a value in the node list"
    if kind == "NAME":
        return f" after `{last.value}`"
    return ""


def _is_value(stack: list[Any]) -> bool:
    return len(stack) >= 2 and getattr(stack[-2], "type", None) in ("COLON", "COMMA", "LSQB")


def _unclosed(stack: list[Any], text: str) -> str:
    opened = _open_brackets(stack)
    if not opened:
        return ""
    _, bracket = opened[-1]
    return f" (the `{bracket.value}` at {bracket.line}:{bracket.column} is never closed)"


def _token_span(token: Any, text: str) -> Span:
    if token.type == "$END":
        lines = text.splitlines() or [""]
        line = len(lines)
        column = len(lines[-1]) + 1
        return Span(line, column, line, column + 1, len(text), len(text))
    return Span(token.line, token.column, token.end_line, token.end_column, token.start_pos, token.end_pos)


def describe(error: Any, text: str) -> tuple[str, Span]:
    """A sentence and a span for a lark `UnexpectedInput`."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(error, UnexpectedCharacters):
        return _describe_character(error, text)
    if isinstance(error, UnexpectedToken):
        stack: list[Any] = []
        interactive = getattr(error, "interactive_parser", None)
        if interactive is not None:
            stack = list(interactive.parser_state.value_stack)
        token = error.token
        expected = set(error.expected) | set(getattr(error, "considered_rules", None) or ())
        expected = _narrow({name for name in expected if name.isupper() or name == "$END"}, stack)
        if not stack:
            return f"expected `Graph {{ ... }}`, found {_found(token)}", _token_span(token, text)
        message = f"expected {_expected_words(expected)}{_after(stack)}, found {_found(token)}"
        if token.type == "$END":
            message += _unclosed(stack, text)
        elif expected == {"$END"}:
            message = f"expected the end of the file after the graph, found {_found(token)}"
        elif "COMMA" in expected and token.type in _VALUE_STARTS:
            message += " (missing a comma?)"
        return message, _token_span(token, text)
    if isinstance(error, UnexpectedEOF):
        end = _token_span(type("End", (), {"type": "$END"})(), text)
        return f"unexpected end of file: expected {_expected_words(set(error.expected))}", end
    return str(error).splitlines()[0], Span(1, 1, 1, 2)


def _describe_character(error: Any, text: str) -> tuple[str, Span]:
    position = error.pos_in_stream
    char = text[position] if position < len(text) else ""
    span = Span(error.line, error.column, error.line, error.column + 1, position, position + 1)
    if char == '"':
        return 'unterminated string: a string must close with `"` on the same line', span
    if char == "'":
        return "strings use double quotes: write \"...\" instead of '...'", span
    if char.isdigit() or char in "-+.":
        return "malformed number: write ints as `12` or `-3`, floats as `0.5` or `1e-3`", span
    if char == "/":
        return "comments start with `#`, not `/`", span
    shown = repr(char)[1:-1] if not char.isprintable() else char
    return f"unexpected character `{shown}`", span
