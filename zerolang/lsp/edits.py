"""A changed syntax tree as the smallest text edits that make the source say it.

Fixes edit the tree and the formatter prints it; sending the whole printed file
back would reformat every line of a file written in another style. Instead the
old and new trees are walked side by side: where only part of a map or list
changed, only that part's text is replaced by its canonical print, at the
indent it already has; a list item that was removed is deleted with its line.
The edits are then applied and parsed again: if the result is not the new tree,
the whole document is replaced instead, so an edit is never wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zerolang.lsp import adapter
from zerolang.syntax.ast import Array, Entry, Graph, Map, Value


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace `source[start:end]` with `text`."""

    start: int
    end: int
    text: str


def apply(source: str, edits: list[Edit]) -> str:
    for edit in sorted(edits, key=lambda edit: edit.start, reverse=True):
        source = source[: edit.start] + edit.text + source[edit.end :]
    return source


def tree_edits(source: str, old: Graph, new: Graph, path: str | None, printed: str) -> list[Edit]:
    """Edits turning `source` (which parses to `old`) into a text that parses to `new`.

    `printed` is the canonical text of `new`, used whole when the small edits would not do.
    """
    whole = [Edit(0, len(source), printed)] if printed != source else []
    edits: list[Edit] = []
    if not _map(source, old, new, path, edits) or not edits:
        return whole
    try:
        result = adapter.parse(apply(source, edits), path)
    except adapter.ZeroError:
        return whole
    return edits if result == new else whole


def _indent_level(source: str, offset: int) -> int:
    line_start = source.rfind("\n", 0, offset) + 1
    text = source[line_start:offset]
    indent = len(text) - len(text.lstrip(" \t"))
    return text[:indent].replace("\t", "    ").count(" ") // 4


def _value(source: str, old: Value, new: Value, key: str | None, path: str | None, edits: list[Edit]) -> bool:
    if old == new:
        return True
    if type(old) is type(new) and isinstance(old, Map) and isinstance(new, Map):
        if _map(source, old, new, path, edits):
            return True
    elif isinstance(old, Array) and isinstance(new, Array) and _array(source, old, new, path, edits):
        return True
    if old.span.end <= old.span.start:
        return False
    level = _indent_level(source, old.span.start)
    edits.append(Edit(old.span.start, old.span.end, adapter.print_value(new, level, key, path)))
    return True


def _map(source: str, old: Map, new: Map, path: str | None, edits: list[Edit]) -> bool:
    if len(old.entries) != len(new.entries) or old.leading != new.leading or old.dangling != new.dangling:
        return False
    if isinstance(old, Graph) and isinstance(new, Graph) and old.footer != new.footer:
        return False
    for before, after in zip(old.entries, new.entries, strict=True):
        if before.leading != after.leading or before.trailing != after.trailing:
            return False
        if before.key != after.key:
            _entry(source, before, after, path, edits)
        elif not _value(source, before.value, after.value, after.key, path, edits):
            return False
    return True


def _entry(source: str, old: Entry, new: Entry, path: str | None, edits: list[Edit]) -> None:
    level = _indent_level(source, old.span.start)
    text = f"{adapter.format_key(new.key)}: {adapter.print_value(new.value, level, new.key, path)}"
    edits.append(Edit(old.span.start, old.span.end, text))


_REST_OF_LINE = re.compile(r"[ \t]*,?[ \t]*(?:\r?\n|$)")


def _array(source: str, old: Array, new: Array, path: str | None, edits: list[Edit]) -> bool:
    if old.dangling != new.dangling:
        return False
    if len(old.items) == len(new.items):
        for before, after in zip(old.items, new.items, strict=True):
            if before.leading != after.leading or before.trailing != after.trailing:
                return False
            if not _value(source, before, after, None, path, edits):
                return False
        return True
    if len(new.items) == len(old.items) + 1:
        return _inserted(source, old, new, path, edits)
    if len(old.items) != len(new.items) + 1:
        return False
    index = next(
        (i for i in range(len(new.items)) if old.items[i] != new.items[i]),
        len(new.items),
    )
    # The items after it may have taken over its comments (a removed node's own-line comments stay
    # where they are, above what follows), so they are left to the final check against the new tree.
    removed = old.items[index]
    if removed.trailing is not None:
        return False  # its comment goes with it: simpler to print the list again
    line_start = source.rfind("\n", 0, removed.span.start) + 1
    rest = _REST_OF_LINE.match(source, removed.span.end)
    if source[line_start : removed.span.start].strip() == "" and rest is not None:
        edits.append(Edit(line_start, rest.end(), ""))  # the item had its own lines
        return True
    if index + 1 < len(old.items):
        edits.append(Edit(removed.span.start, old.items[index + 1].span.start, ""))
    elif index > 0:
        edits.append(Edit(old.items[index - 1].span.end, removed.span.end, ""))
    else:
        edits.append(Edit(removed.span.start, removed.span.end, ""))
    return True


def _item_id(item: Value) -> object:
    """A node's `id` (how a fix's new node is told from the changed ones), else the item itself."""
    if isinstance(item, Map):
        for entry in item.entries:
            if entry.key == "id":
                return entry.value
    return item


def _inserted(source: str, old: Array, new: Array, path: str | None, edits: list[Edit]) -> bool:
    """One item added (a fix adding a node), others maybe changed: edit those, insert the new one."""
    if not old.items:
        return False
    old_ids = [_item_id(item) for item in old.items]
    fresh = [i for i, item in enumerate(new.items) if _item_id(item) not in old_ids]
    index = (
        fresh[0]
        if len(fresh) == 1
        else next((i for i in range(len(old.items)) if old.items[i] != new.items[i]), len(old.items))
    )
    rest = new.items[:index] + new.items[index + 1 :]
    for before, after in zip(old.items, rest, strict=True):
        if before.leading != after.leading or before.trailing != after.trailing:
            return False
        if not _value(source, before, after, None, path, edits):
            return False
    added = new.items[index]
    neighbour = old.items[index - 1] if index > 0 else old.items[0]
    line_start = source.rfind("\n", 0, neighbour.span.start) + 1
    indent = source[line_start : neighbour.span.start]
    if indent.strip():
        return False  # the neighbour shares its line with other text: print the list again
    text = adapter.print_value(added, _indent_level(source, neighbour.span.start), None, path)
    if index > 0:
        if neighbour.trailing is not None:
            return False
        edits.append(Edit(neighbour.span.end, neighbour.span.end, f",\n{indent}{text}"))
    else:
        edits.append(Edit(neighbour.span.start, neighbour.span.start, f"{text},\n{indent}"))
    return True
