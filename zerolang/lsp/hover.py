"""Hover: what a node type, an op, a key or a param means, and what a node id names."""

from __future__ import annotations

from lsprotocol import types

from zerolang.lsp import adapter
from zerolang.lsp.analysis import Analysis, Occurrence, Role, place
from zerolang.lsp.context import cursor_at
from zerolang.syntax.ast import Node, String


def hover(analysis: Analysis, offset: int) -> types.Hover | None:
    if analysis.graph is None:
        return _from_text(analysis, offset)
    occurrence = analysis.at(offset)
    if occurrence is not None:
        text = _node_summary(analysis, occurrence)
        if text is not None:
            return _markdown(analysis, text, occurrence.start, occurrence.end)
    spot = place(analysis.graph, offset)
    if spot is None or spot.entry is None:
        return None
    entry = spot.entry
    node_type = spot.node.type if spot.node is not None else None
    if spot.on_key:
        if spot.where == "params" and spot.node is not None and spot.node.op:
            text = adapter.param_doc(spot.node.op, entry.key)
        else:
            text = adapter.field_doc(entry.key, spot.where, node_type)
        if text is None:
            return None
        return _markdown(analysis, text, entry.key_span.start, entry.key_span.end)
    value = spot.value
    if spot.where != "node" or not isinstance(value, String) or value is not entry.value:
        return None
    if entry.key == "type":
        text = adapter.node_type_doc(value.value) or _unknown(value.value, "node type")
    elif entry.key == "op":
        text = adapter.op_doc(value.value) or _unknown(value.value, "op")
    else:
        return None
    return _markdown(analysis, text, value.span.start, value.span.end)


def _from_text(analysis: Analysis, offset: int) -> types.Hover | None:
    """In text that does not parse (yet), an op or a node type is still explained, found by its key."""
    source = analysis.source
    start = end = offset
    while start > 0 and (source[start - 1].isalnum() or source[start - 1] == "_"):
        start -= 1
    while end < len(source) and (source[end].isalnum() or source[end] == "_"):
        end += 1
    word = source[start:end]
    if not word:
        return None
    key = cursor_at(source, start).key
    text = adapter.op_doc(word) if key == "op" else adapter.node_type_doc(word) if key == "type" else None
    return _markdown(analysis, text, start, end) if text is not None else None


def _unknown(name: str, kind: str) -> str:
    hint = adapter.unknown_name_hint(name, "op" if kind == "op" else "type")
    text = f"`{name}`: no such {kind} in the runtime"
    return text + (f"; did you mean `{hint}`?" if hint else "")


def _node_summary(analysis: Analysis, occurrence: Occurrence) -> str | None:
    definition = analysis.definitions().get(occurrence.name)
    if definition is None or definition.node is None:
        return f"`{occurrence.name}`: no node has this id"
    node: Node = definition.node
    line = analysis.lines.position(definition.start).line + 1
    kind = node.type or "?"
    detail = f"{kind} `{node.op}`" if kind == "Operation" and node.op else kind
    text = f"**{occurrence.name}**: {detail} node (line {line})"
    if occurrence.role is Role.DEFINITION:
        users = [o for o in analysis.named(occurrence.name) if o.role is not Role.DEFINITION]
        text += f"\n\n{len(users)} reference{'s' if len(users) != 1 else ''}"
    inputs = node.inputs
    if inputs:
        text += "\n\nreads " + ", ".join(f"`{name}`" for name in inputs)
    description = node.get("description")
    if isinstance(description, String):
        text += f"\n\n{description.value}"
    return text


def _markdown(analysis: Analysis, text: str, start: int, end: int) -> types.Hover:
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
        range=analysis.lines.range(start, end),
    )
