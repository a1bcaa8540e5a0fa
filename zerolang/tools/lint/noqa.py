"""`# zero: noqa` and `# zero: noqa: Z008, Z009` trailing comments: suppress findings on their line.

Only a comment after code on the same line counts (as in ruff): a noqa on a
line of its own says nothing about which line it means. A bare noqa
suppresses every finding on its line; one with codes only those codes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from zerolang.syntax.ast import Array, Comment, Element, Entry, Graph, Map
from zerolang.tools.lint.model import Finding
from zerolang.util.lines import split_lines

NOQA = re.compile(
    r"\bzero:\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,?\s*[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)

# line -> the codes suppressed there, or None for all of them
Suppressions = dict[int, frozenset[str] | None]


def suppressions(graph: Graph, source: str) -> Suppressions:
    """The noqa comments of a file, by line."""
    if "noqa" not in source.lower():
        return {}  # the common case, without walking every comment
    lines = split_lines(source)
    found: Suppressions = {}
    for comment in comments(graph):
        match = NOQA.search(comment.text)
        line = comment.span.line
        if match is None or not _after_code(lines, line, comment.span.column):
            continue
        codes = match.group("codes")
        if codes is None:
            found[line] = None
        elif line not in found or found[line] is not None:
            parsed = frozenset(code.upper() for code in re.split(r"[\s,]+", codes) if code)
            found[line] = parsed | (found.get(line) or frozenset())
    return found


def is_suppressed(finding: Finding, where: Suppressions) -> bool:
    if finding.span is None or finding.code is None or finding.span.line not in where:
        return False
    codes = where[finding.span.line]
    return codes is None or finding.code in codes


def _after_code(lines: list[str], line: int, column: int) -> bool:
    return 1 <= line <= len(lines) and lines[line - 1][: column - 1].strip() != ""


def comments(graph: Graph) -> Iterator[Comment]:
    """Every comment in the tree, wherever the parser attached it."""
    yield from graph.leading
    yield from graph.footer
    yield from _container(graph)


def _container(value: Map | Array) -> Iterator[Comment]:
    yield from value.dangling
    children: list[Element] = list(value.items) if isinstance(value, Array) else list(value.entries)
    for child in children:
        yield from child.leading
        if child.trailing is not None:
            yield child.trailing
        inner = child.value if isinstance(child, Entry) else child
        if isinstance(inner, (Map, Array)):
            if inner is not child:
                yield from inner.leading
                if inner.trailing is not None:
                    yield inner.trailing
            yield from _container(inner)
