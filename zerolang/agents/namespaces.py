"""LangGraph namespaces and filters as the entry store keys and reads them: pure functions.

A namespace `("alice", "memories", "books")` is space `alice`, scope `memories/books`; an item
`key` in it is the entry `langgraph/alice/memories/books/#KEY$`, each part percent-encoded (so
`/`, `#` and `$` never occur inside one). A namespace prefix is then a key prefix, and the final
`$` makes an item's key no prefix of any other: deleting it deletes it alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote, unquote

ROOT = "langgraph/"


def namespace_prefix(namespace: Sequence[str]) -> str:
    """The key prefix of every item in `namespace` and in the namespaces under it."""
    return ROOT + "".join(quote(part, safe="") + "/" for part in namespace)


def item_key(namespace: Sequence[str], key: str) -> str:
    return f"{namespace_prefix(namespace)}#{quote(key, safe='')}$"


def split_key(entry: str) -> tuple[tuple[str, ...], str] | None:
    """The namespace and key an entry key names (None for a key of another kind)."""
    if not entry.startswith(ROOT) or not entry.endswith("$") or "/#" not in entry:
        return None
    path, _, key = entry[len(ROOT) : -1].rpartition("/#")
    return tuple(unquote(part) for part in path.split("/")), unquote(key)


def text_of(value: Mapping[str, Any], fields: Sequence[str] | None = None) -> str:
    """The text search matches: every string in the value, or in the given fields only (dotted
    paths; `[*]` or a list takes every element)."""
    if fields is None:
        return "\n".join(_strings(value))
    return "\n".join(text for field in fields for found in _at(value, field) for text in _strings(found))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in _strings(item)]
    return []


def _at(value: Any, path: str) -> list[Any]:
    found = [value]
    for part in path.replace("[*]", "").split("."):
        found = [item.get(part) for item in found if isinstance(item, Mapping) and part in item]
    return found


def matches(value: Mapping[str, Any], condition: Mapping[str, Any] | None) -> bool:
    """Whether a value passes a LangGraph filter: each field equal, or passing its operators
    (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`); nested objects compared field by field."""
    return condition is None or all(_compare(value.get(field), wanted) for field, wanted in condition.items())


def _compare(have: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(key).startswith("$") for key in wanted):
            return all(_operator(have, op, operand) for op, operand in wanted.items())
        return isinstance(have, Mapping) and all(_compare(have.get(k), v) for k, v in wanted.items())
    return bool(have == wanted)


def _operator(have: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(have == operand)
    if op == "$ne":
        return bool(have != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"unsupported filter operator {op!r} (use $eq, $ne, $gt, $gte, $lt or $lte)")
    try:
        left, right = float(have), float(operand)
    except (TypeError, ValueError):
        return False
    return {"$gt": left > right, "$gte": left >= right, "$lt": left < right, "$lte": left <= right}[op]


def namespace_matches(namespace: tuple[str, ...], kind: str, path: Sequence[str]) -> bool:
    """A LangGraph match condition: `path` (with `*` for any part) at the start or end of `namespace`."""
    if len(namespace) < len(path):
        return False
    parts = namespace[: len(path)] if kind == "prefix" else namespace[len(namespace) - len(path) :]
    return all(want == "*" or have == want for have, want in zip(parts, path, strict=True))
