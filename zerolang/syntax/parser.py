"""Text to AST: the Lark LALR parser for `.0` files.

The tree is built by an inline transformer (no intermediate parse tree), with
lark-cython when installed. Comments are collected by a lexer callback and
attached to their elements afterwards (`zerolang.syntax.trivia`), as lark's
comment-collecting recipe does.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

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
    Node,
    Null,
    Span,
    String,
    Struct,
    Value,
)
from zerolang.util.errors import ZeroError, ZeroSyntaxError
from zerolang.util.escapes import LONE_SURROGATE, has_lone_surrogate, lone_surrogate_escape
from zerolang.util.files import read_text
from zerolang.util.gcpause import paused_gc
from zerolang.util.limits import MAX_DEPTH, TOO_DEEP, span_at, too_deep_at
from zerolang.util.lines import BOM

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


_new_span = tuple.__new__  # Span(...) through NamedTuple's Python-level __new__ costs twice as much


def _span(token: Any) -> Span:
    return _new_span(
        Span, (token.line, token.column, token.end_line, token.end_column, token.start_pos, token.end_pos)
    )


def _comment_span(token: Any) -> Span:
    """Comment tokens come from a lexer callback, which does not fill in their end."""
    size = len(token.value)
    return Span(
        token.line, token.column, token.line, token.column + size, token.start_pos, token.start_pos + size
    )


def _between(first: Any, last: Any) -> Span:
    return _new_span(
        Span, (first.line, first.column, last.end_line, last.end_column, first.start_pos, last.end_pos)
    )


class _ParseState(threading.local):
    """Per-parse scratch space shared by the cached parser's callbacks."""

    def __init__(self) -> None:
        self.text = ""
        self.path: str | None = None
        self.comments: list[Any] = []


_state = _ParseState()


def _collect_comment(token: Any) -> Any:
    _state.comments.append(token)
    return token


def _fail(message: str, token: Any) -> ZeroSyntaxError:
    return ZeroSyntaxError(message, path=_state.path, span=_span(token), source=_state.text)


VALID_ESCAPES = r"\" \\ \/ \b \f \n \r \t \uXXXX"
_ESCAPE = re.compile(r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})')


def _string(token: Any) -> str:
    raw: str = token.value
    if "\\" not in raw:
        return raw[1:-1]
    try:
        decoded: str = json.loads(raw, strict=False)
    except json.JSONDecodeError:
        raise _bad_escape(token) from None
    if has_lone_surrogate(decoded):
        raise _lone_surrogate(token)
    return decoded


def _lone_surrogate(token: Any) -> ZeroSyntaxError:
    """Point at the escape that makes half a character (zerolang.util.escapes)."""
    raw: str = token.value
    found = lone_surrogate_escape(raw)
    index, shown = found if found is not None else (0, raw)
    column, start = token.column + index, token.start_pos + index
    span = Span(token.line, column, token.line, column + len(shown), start, start + len(shown))
    return ZeroSyntaxError(
        LONE_SURROGATE.format(escape=shown), path=_state.path, span=span, source=_state.text
    )


def _bad_escape(token: Any) -> ZeroSyntaxError:
    """Point at the first escape JSON would not accept."""
    raw: str = token.value
    index = raw.index("\\")
    while index < len(raw):
        valid = _ESCAPE.match(raw, index)
        if valid is None:
            break
        index = raw.find("\\", valid.end())
        if index < 0:
            index = len(raw) - 1
            break
    shown = raw[index : index + 6] if raw[index + 1 : index + 2] == "u" else raw[index : index + 2]
    shown = shown.rstrip('"')
    column = token.column + index
    span = Span(token.line, column, token.line, column + len(shown), token.start_pos + index)
    return ZeroSyntaxError(
        f"invalid escape `{shown}` in string (valid: {VALID_ESCAPES})",
        path=_state.path,
        span=span,
        source=_state.text,
    )


def _scalar(token: Any) -> Value:
    kind = token.type
    span = _span(token)
    if kind == "STRING":
        return String(_string(token), span=span)
    if kind == "NAME":
        name = token.value
        literal = _LITERALS.get(name)
        if literal is not None:
            return literal(span)
        return String(name, bare=True, span=span)
    if kind == "NUMBER":
        raw = token.value
        if "." in raw or "e" in raw or "E" in raw:
            number = float(raw)
            if math.isinf(number):  # 1e999: past every float (it would print as null)
                shown = raw if len(raw) <= 40 else f"{raw[:24]}... ({len(raw)} characters)"
                raise _fail(f"number {shown} is out of range (a float is at most about 1.8e308)", token)
            return Float(number, raw=raw, span=span)
        digits = raw.lstrip("-").lstrip("0")
        if len(digits) > 19:  # more than any 64-bit integer has (and int() refuses beyond 4300)
            shown = raw if len(raw) <= 40 else f"{raw[:24]}... ({len(digits)} digits)"
            raise _fail(f"integer {shown} does not fit in 64 bits", token)
        number = int(raw)
        if not INT64_MIN <= number <= INT64_MAX:
            raise _fail(f"integer {raw} does not fit in 64 bits", token)
        return Int(number, raw=raw, span=span)
    raise AssertionError(f"unexpected token {kind}")


_LITERALS: dict[str, Callable[[Span], Value]] = {
    "true": lambda span: Bool(True, span=span),
    "false": lambda span: Bool(False, span=span),
    "null": lambda span: Null(span=span),
}


def _blank_lines(items: list[Any], opening: Any, closing: Any) -> None:
    """Mark items written after a blank line, so the formatter can keep one."""
    if closing.line - opening.line < 2:
        return
    text = _state.text
    previous_end = opening.end_pos
    for item in items:
        if text.count("\n", previous_end, item.span.start) >= 2:
            item.blank_before = True
        previous_end = item.span.end


class _Builder:
    """Inline transformer: each method builds one AST container from its children."""

    def entry(self, children: list[Any]) -> Entry:
        key, raw_value = children
        value: Value = cast(Value, raw_value) if isinstance(raw_value, Element) else _scalar(raw_value)
        quoted = key.type == "STRING"
        name = _string(key) if quoted else key.value
        end = value.span
        span = _new_span(Span, (key.line, key.column, end.end_line, end.end_column, key.start_pos, end.end))
        return Entry(key=name, value=value, key_quoted=quoted, key_span=_span(key), span=span)

    def map(self, children: list[Any]) -> Map:
        entries = children[1:-1]
        _blank_lines(entries, children[0], children[-1])
        return Map(entries=entries, span=_between(children[0], children[-1]))

    def array(self, children: list[Any]) -> Array:
        items = [cast(Value, item) if isinstance(item, Element) else _scalar(item) for item in children[1:-1]]
        _blank_lines(items, children[0], children[-1])
        return Array(items=items, span=_between(children[0], children[-1]))

    def struct(self, children: list[Any]) -> Struct:
        entries = children[2:-1]
        _blank_lines(entries, children[1], children[-1])
        return Struct(entries=entries, name=children[0].value, span=_between(children[0], children[-1]))

    def start(self, children: list[Any]) -> Graph:
        top: Struct = children[0]
        if top.name != "Graph":
            span = top.span
            name_span = Span(span.line, span.column, span.line, span.column + len(top.name), span.start)
            raise ZeroSyntaxError(
                f"expected `Graph {{ ... }}`, found `{top.name} {{ ... }}`",
                path=_state.path,
                span=name_span,
                source=_state.text,
            )
        graph = Graph(top.entries, span=top.span)
        nodes = graph.get("nodes")
        if isinstance(nodes, Array):
            for item in nodes.items:
                if type(item) is Map:
                    item.__class__ = Node  # same slots: a node is a map with typed accessors
        return graph


_parsers: dict[bool, Any] = {}


def _parser(fast: bool = True) -> Any:
    """The parser, built once per process (`fast=False`: lark's own lexer, for error details)."""
    if fast not in _parsers:
        from zerolang.syntax.grammar import build_parser
        from zerolang.syntax.treebuild import install_callbacks

        comments = {"COMMENT": _collect_comment}
        if fast:
            parser = build_parser("zero", None, True, lexer_callbacks=comments)
            install_callbacks(parser, _Builder())
        else:
            parser = build_parser("zero", _Builder(), False, lexer_callbacks=comments)
        _parsers[fast] = parser
    return _parsers[fast]


def _driver() -> Any:
    """The parser of every parse: lark's tables from the user cache, driven without importing lark.

    The first process builds lark's parser (`_parser`), copies its tables out
    (`zerolang.syntax.lalr.extract`) and caches them; later ones only read them back.
    """
    if not _drivers:
        _drivers.append(_load_driver())
    return _drivers[0]


_drivers: list[Any] = []


def _load_driver() -> Any:
    from zerolang.syntax.lalr import Driver, cached_tables

    def build() -> dict[str, Any]:
        from zerolang.syntax.lalr import extract

        return extract(_parser())

    tables = cached_tables("zero", "fast", build)
    return Driver(tables, _Builder(), {"COMMENT": _collect_comment})


def parse(text: str, path: str | Path | None = None) -> Graph:
    """Parse `.0` source into a `Graph`; raises `ZeroSyntaxError` with file:line:col.

    A byte order mark at the start (`util.lines.BOM`) reads as a space: spans keep their places.
    """
    from zerolang.syntax.tokens import Rejected

    if text.startswith(BOM):
        text = " " + text[1:]
    from zerolang.syntax.trivia import attach_comments

    driver = _driver()
    _state.text = text
    _state.path = str(path) if path is not None else None
    _state.comments = []
    try:
        with paused_gc():  # the tree has no cycles for the collector to find (zerolang.util.gcpause)
            graph: Graph = driver.parse(text)
    except ZeroError as error:
        raise _foreign(text, _state.path) or error from None
    except Rejected:
        raise _foreign(text, _state.path) or _explain_syntax_error(text, _state.path) from None
    finally:
        tokens, _state.comments = _state.comments, []
    deep = too_deep_at(text)  # the parse itself is iterative; what walks the tree next is not
    if deep is not None:
        span = span_at(text, deep)
        raise ZeroSyntaxError(TOO_DEEP.format(limit=MAX_DEPTH), path=_state.path, span=span, source=text)
    comments = [Comment(token.value[1:].rstrip(), span=_comment_span(token)) for token in tokens]
    attach_comments(graph, comments, text)
    return graph


def _foreign(text: str, path: str | None) -> ZeroSyntaxError | None:
    """Text that does not parse and starts like vercel-labs/zerolang's `.0` language: says so, at its
    keyword (zerolang.syntax.foreign)."""
    from zerolang.syntax.foreign import LOOKS_FOREIGN, foreign_keyword

    found = foreign_keyword(text)
    if found is None:
        return None
    keyword, span = found
    return ZeroSyntaxError(LOOKS_FOREIGN.format(keyword=keyword), path=path, span=span, source=text)


def parse_file(path: str | Path) -> Graph:
    """Read and parse a file; a missing or unreadable file is a `ZeroError` too."""
    return parse(read_source(path), path)


def read_source(path: str | Path) -> str:
    """A `.0` file's text; a missing or unreadable file is a `ZeroError`."""
    return read_text(path, "file")


def _explain_syntax_error(text: str, path: str | None) -> ZeroSyntaxError:
    """Re-run the pure-Python parser, whose errors carry the parser state, and word them."""
    from lark.exceptions import LarkError

    from zerolang.syntax.syntax_errors import describe

    _state.text = text
    _state.path = path
    try:
        _parser(fast=False).parse(text)
    except ZeroError as error:
        return error if isinstance(error, ZeroSyntaxError) else ZeroSyntaxError(error.message, path=path)
    except LarkError as error:
        message, span = describe(error, text)
        return ZeroSyntaxError(message, path=path, span=span, source=text)
    finally:
        _state.comments = []
    return ZeroSyntaxError("syntax error", path=path, source=text)
