"""Attaching comments to the elements they were written beside.

A comment on the same line after an element is that element's `trailing`
comment; a comment on its own line belongs to the next element in the same
container (`leading`), or, when nothing follows, to the container itself
(`dangling`, printed before the closing bracket). Comments above the graph
are the graph's `leading` comments and those below it its `footer`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from zerolang.syntax.ast import Array, Comment, Element, Entry, Graph, Map, Value


def attach_comments(graph: Graph, comments: list[Comment], text: str) -> None:
    if not comments:
        return
    start, end = graph.span.start, graph.span.end
    graph.leading = [comment for comment in comments if comment.span.start < start]
    graph.footer = [comment for comment in comments if comment.span.start >= end]
    inside = [comment for comment in comments if start <= comment.span.start < end]
    _distribute(graph, inside, text)
    _mark_blank_after(graph.leading, start, text)
    _mark_blank_after(graph.footer, len(text), text)


def _mark_blank_after(comments: list[Comment], next_start: int, text: str) -> None:
    """Note which own-line comments have a blank line before the next comment or `next_start`."""
    for index, comment in enumerate(comments):
        following = comments[index + 1].span.start if index + 1 < len(comments) else next_start
        comment.blank_after = text.count("\n", comment.span.end, following) >= 2


def _children(container: Map | Array) -> Sequence[Element]:
    return container.items if isinstance(container, Array) else container.entries


def _container_of(element: Element) -> Map | Array | None:
    """The container to recurse into for comments inside `element`."""
    value: Value | Element = element.value if isinstance(element, Entry) else element
    return value if isinstance(value, (Map, Array)) else None


def _distribute(container: Map | Array, comments: list[Comment], text: str) -> None:
    children = _children(container)
    if not children:
        container.dangling.extend(comments)
        return
    starts = [child.span.start for child in children]
    inner: dict[int, list[Comment]] = {}
    previous_line: dict[int, int] = {}
    for comment in comments:
        position = comment.span.start
        index = bisect_left(starts, position) - 1  # last child starting before the comment
        if index >= 0 and position < children[index].span.end:
            inner.setdefault(index, []).append(comment)
            continue
        if index >= 0 and children[index].span.end_line == comment.span.line and index not in previous_line:
            children[index].trailing = comment
            previous_line[index] = comment.span.line
            continue
        if index + 1 < len(children):
            children[index + 1].leading.append(comment)
        else:
            container.dangling.append(comment)
    for index, nested in inner.items():
        child = children[index]
        target = _container_of(child)
        if target is None:
            child.leading.extend(nested)
            continue
        before_value = [comment for comment in nested if comment.span.start < target.span.start]
        within = [comment for comment in nested if comment.span.start >= target.span.start]
        child.leading.extend(before_value)
        _distribute(target, within, text)
    _blank_before_comments(container, children, text)


def _blank_before_comments(container: Map | Array, children: Sequence[Element], text: str) -> None:
    """A blank line counts only when it precedes an element's leading comments, not sits among them."""
    previous_end = container.span.start
    for child in children:
        if child.leading:
            child.blank_before = text.count("\n", previous_end, child.leading[0].span.start) >= 2
            _mark_blank_after(child.leading, child.span.start, text)
        previous_end = child.trailing.span.end if child.trailing is not None else child.span.end
    _mark_blank_after(container.dangling, container.span.end - 1, text)
