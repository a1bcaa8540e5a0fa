"""Completion: ops after `op:`, node types after `type:`, node ids where a node is read, and keys."""

from __future__ import annotations

import re

from lsprotocol import types

from zerolang.lsp import adapter
from zerolang.lsp.context import Cursor, cursor_at
from zerolang.lsp.outline import Outline
from zerolang.lsp.positions import LineIndex

TRIGGERS = ['"', ":", "[", " ", ","]

_ID = re.compile(r'(?<![\w"-])"?id"?\s*:\s*(?:"((?:[^"\\\n]|\\.)*)"|([A-Za-z_][\w-]*))')
_TYPE = re.compile(r'(?<![\w"-])"?type"?\s*:\s*"?([A-Za-z_][\w-]*)')
_OP = re.compile(r'(?<![\w"-])"?op"?\s*:\s*"?([A-Za-z_][\w-]*)')


def completions(
    source: str,
    offset: int,
    encoding: str = "utf-16",
    *,
    outline: Outline | None = None,
    unchanged: int = 0,
    lines: LineIndex | None = None,
) -> types.CompletionList:
    """What may be written at `offset`. With the `outline` of an earlier analysis whose text equals
    `source` up to `unchanged`, the cursor is read from the node around it and node ids are the
    analysis's; else the text is read from its start. `lines`: `source`'s line index, if made."""
    cursor = outline.cursor(source, offset, unchanged) if outline is not None else None
    if cursor is None:
        cursor, outline = cursor_at(source, offset), None
    lines = lines if lines is not None else LineIndex(source, encoding)
    replace = lines.range(cursor.prefix_start, offset)
    kind = cursor.kind()
    known = outline.ids if outline is not None else None
    items: list[types.CompletionItem] = []
    if cursor.key is not None and not kind.startswith("list:"):
        items = _values(source, cursor, kind, replace, known)
    elif kind in ("list:inputs", "list:outputs"):
        items = _ids(source, cursor, replace, known)
    elif kind in ("graph", "node", "params", "condition") and cursor.key is None:
        items = _keys(source, cursor, kind, replace)
    return types.CompletionList(is_incomplete=False, items=items)


def _values(
    source: str, cursor: Cursor, kind: str, replace: types.Range, known: list[str] | None
) -> list[types.CompletionItem]:
    if kind == "node" and cursor.key == "op":
        return [
            _item(op, types.CompletionItemKind.Function, adapter.op_doc(op), replace, cursor, bare=True)
            for op in adapter.OPS
        ]
    if kind == "node" and cursor.key == "type":
        return [
            _item(
                name, types.CompletionItemKind.Class, adapter.node_type_doc(name), replace, cursor, bare=True
            )
            for name in adapter.NODE_TYPES
        ]
    if kind == "condition" and cursor.key == "input":
        return _ids(source, cursor, replace, known)
    return []


def _node_text(source: str, cursor: Cursor) -> str:
    frame = cursor.node_frame()
    if frame is None:
        return ""
    return source[frame.start : frame.end if frame.end is not None else len(source)]


def _ids(
    source: str, cursor: Cursor, replace: types.Range, known: list[str] | None
) -> list[types.CompletionItem]:
    """The node ids other than the cursor's own node's: `known` (an analysis's), else every `id:` written."""
    own = _ID.search(_node_text(source, cursor))
    own_id = (own.group(1) or own.group(2)) if own else None
    seen: dict[str, None] = {}
    if known is None:
        for match in _ID.finditer(source):
            name = match.group(1) if match.group(1) is not None else match.group(2)
            if name:
                seen[name] = None
    else:
        seen = dict.fromkeys(known)
    return [
        _item(name, types.CompletionItemKind.Reference, None, replace, cursor)
        for name in seen
        if name != own_id
    ]


def _keys(source: str, cursor: Cursor, kind: str, replace: types.Range) -> list[types.CompletionItem]:
    frame = cursor.frames[-1]
    written = set(frame.keys)
    node_text = _node_text(source, cursor)
    type_match = _TYPE.search(node_text)
    node_type = type_match.group(1) if type_match else None
    keys: list[tuple[str, str | None]]
    if kind == "graph":
        keys = [(key, adapter.field_doc(key, "graph")) for key in adapter.GRAPH_FIELDS]
    elif kind == "condition":
        keys = [(key, adapter.field_doc(key, "condition")) for key in adapter.CONDITION_FIELDS]
    elif kind == "params":
        op_match = _OP.search(node_text)
        op = op_match.group(1) if op_match else ""
        keys = [(param, adapter.param_doc(op, param)) for param in adapter.op_params(op)]
    else:
        own = adapter.NODE_TYPES[node_type].fields if node_type in adapter.NODE_TYPES else ()
        names = [*adapter.COMMON_FIELDS, *own]
        if node_type not in adapter.NODE_TYPES:
            names += [f for t in adapter.NODE_TYPES.values() for f in t.fields if f not in names]
        keys = [(key, adapter.field_doc(key, "node", node_type)) for key in dict.fromkeys(names)]
    items = []
    for order, (key, doc) in enumerate(keys):
        if key in written and key != cursor.prefix:
            continue
        item = _item(key, types.CompletionItemKind.Property, doc, replace, cursor, insert=f"{key}: ")
        item.sort_text = f"{order:03d}"
        items.append(item)
    return items


def _item(
    label: str,
    kind: types.CompletionItemKind,
    doc: str | None,
    replace: types.Range,
    cursor: Cursor,
    *,
    bare: bool = False,
    insert: str | None = None,
) -> types.CompletionItem:
    """An item replacing the word typed so far; outside quotes, a value is quoted unless it is `bare`."""
    if insert is not None and not cursor.quoted:
        text = insert
    elif cursor.quoted or bare:
        text = label
    else:
        text = f'"{label}"'
    return types.CompletionItem(
        label=label,
        kind=kind,
        documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc) if doc else None,
        text_edit=types.TextEdit(range=replace, new_text=text),
        filter_text=label,
    )
