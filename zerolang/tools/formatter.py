"""`zero fmt`: source in, canonical source out, guarded like gdtoolkit's formatter.

Every run checks its own work before anything is written: the output parses
to the same tree as the input (spans and layout aside), formatting the output
again changes nothing, and every comment is still there, in order. A failed
check is a bug in zerolang; the file is left untouched and the error says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zerolang.syntax.ast import Array, Comment, Element, Entry, Graph, Map, String, Struct, Value, walk
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph
from zerolang.util import codes
from zerolang.util.config import DEFAULT_WIDTH
from zerolang.util.errors import Diagnostic, Severity, ZeroError
from zerolang.util.lines import BOM


class FormatterBug(ZeroError):
    """The formatter's own output failed one of its checks; nothing was written."""


def format_source(text: str, path: str | None = None, *, width: int = DEFAULT_WIDTH) -> str:
    """The canonical form of `text`; raises ZeroSyntaxError for bad input, FormatterBug if a check fails.

    Line ends stay as the file has them (CRLF stays CRLF), and so does a UTF-8 byte order mark.
    """
    graph = parse(text, path)
    formatted = print_graph(graph, width=width)
    _check(graph, formatted, path, width)
    newline = "\r\n" if "\r\n" in text else "\n"
    if newline != "\n":
        formatted = formatted.replace("\n", newline)
    return BOM + formatted if text.startswith(BOM) else formatted  # kept, as CRLF is: the file's own


def _check(original: Graph, formatted: str, path: str | None, width: int) -> None:
    where = path or "<stdin>"
    try:
        reparsed = parse(formatted, path)
    except ZeroError as error:
        raise FormatterBug(
            f"{where}: formatted text does not parse ({error.message}); file left untouched"
        ) from None
    if reparsed != original:
        raise FormatterBug(f"{where}: formatting would change the graph's meaning; file left untouched")
    if comments_of(reparsed) != comments_of(original):
        raise FormatterBug(f"{where}: formatting would lose or reorder a comment; file left untouched")
    if print_graph(reparsed, width=width) != formatted:
        raise FormatterBug(
            f"{where}: formatting is not stable (a second pass changes it); file left untouched"
        )


def comments_of(graph: Graph) -> list[str]:
    """Every comment's text in document order."""
    found: list[Comment] = list(graph.leading)
    found += _container_comments(graph)
    found += graph.footer
    return [comment.text for comment in found]


def _container_comments(container: Map | Array) -> list[Comment]:
    found: list[Comment] = []
    elements: list[Element] = list(container.items if isinstance(container, Array) else container.entries)
    for element in elements:
        found += element.leading
        value: Value | Element = element.value if isinstance(element, Entry) else element
        if isinstance(value, (Map, Array)):
            found += _container_comments(value)
        if element.trailing is not None:
            found.append(element.trailing)
    found += container.dangling
    return found


# The old runtime turns `word:` into `"word":` with a regex and strips `#...` as a comment,
# inside strings too.
_OLD_PARSER_KEY = re.compile(r"\w+\s*:")


@dataclass(frozen=True, slots=True)
class CompatResult:
    text: str
    warnings: list[Diagnostic]


def to_compat(text: str, path: str | None = None, *, width: int = DEFAULT_WIDTH) -> CompatResult:
    """The fully quoted form the old runtime reads, with a warning per string it would still corrupt."""
    graph = parse(text, path)
    warnings: list[Diagnostic] = []
    for element in walk(graph):
        if isinstance(element, String):
            reason = _corruption(element.value)
            if reason:
                message = f"the old runtime's parser would corrupt this string: {reason}"
                warnings.append(
                    Diagnostic(
                        codes.COMPAT_CORRUPTED_STRING.code, message, element.span, Severity.WARNING, path
                    )
                )
        elif isinstance(element, Struct) and not isinstance(element, Graph):
            message = (
                f"`{element.name} {{ ... }}` is printed as a plain map: the old parser knows no struct names"
            )
            warnings.append(
                Diagnostic(codes.COMPAT_STRUCT_NAME.code, message, element.span, Severity.WARNING, path)
            )
    return CompatResult(print_graph(graph, width=width, compat=True), warnings)


def _corruption(value: str) -> str | None:
    colon = _OLD_PARSER_KEY.search(value)
    if colon:
        return f"`{colon.group()}` would be quoted as a key"
    if "#" in value:
        return "everything from `#` on would be dropped as a comment"
    return None
