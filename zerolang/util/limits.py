"""Every resource a document or a run may use, and the checks that keep it bounded.

- **Steps**: a run executes at most `DEFAULT_MAX_STEPS` (10,000) nodes unless
  told otherwise (`zero run --max-steps`).
- **Nesting**: lists, maps and structs inside each other at most `MAX_DEPTH` (100)
  deep, in `.0` source, in JSON (run inputs, memory inputs, exports) and in the
  values a run makes. Deeper is refused with the place, before anything
  recursive touches it: the formatter, the validator, the interpreter, the
  JSON decoder and the hashers all walk values recursively.
- **Value size**: one node's value at most `max_value_bytes` (default 64 MiB)
  of memory, and all node values of a run together at most `max_run_bytes`
  (default 512 MiB). `zero run --max-value-size` and `zero run --max-memory` raise them. A
  size is CPython's memory for the value, estimated (a string 49 bytes plus
  one per character, a number 32, a list 56 plus 8 per item...). A value that
  holds the same sublist twice counts it twice: the execution hash, the JSON
  output and every copy a consumer makes pay for it twice too.

- **Diagnostics**: a file reports at most `MAX_DIAGNOSTICS` (1,000) problems, in
  source order, then one line saying how many more there are (`more_line`): the
  CLI, the language server and `zero check --json` all cut at this one number.
- **Shown text**: an error excerpt shows at most `EXCERPT_WIDTH` (160) columns of its
  line, cut around the error; `zero run`'s table at most `MAX_SHOWN_VALUE` (500)
  characters of a value (`--json` gives every value whole).

Sizes are measured once per node with a memo by identity, so a value built from
earlier values costs only its own new part: the check is linear in the run.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from itertools import accumulate
from typing import cast

from zerolang.util.span import Span

MAX_DEPTH = 100
DEFAULT_MAX_STEPS = 10_000
DEFAULT_MAX_VALUE_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_RUN_BYTES = 512 * 1024 * 1024
MAX_DIAGNOSTICS = 1000
# An error excerpt shows at most this many columns of its source line, cut around the error
# (about EXCERPT_CONTEXT columns before it), each cut end marked `…`.
EXCERPT_WIDTH = 160
EXCERPT_CONTEXT = 60
# `zero run`'s table shows at most this many characters of a value (`--json` gives them all).
MAX_SHOWN_VALUE = 500

TOO_DEEP = (
    "nesting deeper than {limit} levels (lists, maps and structs inside each other); "
    "zerolang refuses deeper values (docs/limits.md)"
)


# ---- nesting in text ----------------------------------------------------------------------------

# Strings and comments hide brackets; everything else but a bracket is dropped.
# (Possessive quantifiers: nothing here ever needs to backtrack, and they are a third faster.)
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_NOT_BRACKETS = re.compile(_STRING + r'|#[^\n]*+|[^\[\]{}"#]++', re.DOTALL)
_TOKENS = re.compile(_STRING + r"|#[^\n]*+|[\[\]{}]", re.DOTALL)
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1, '"': 0, "#": 0}


def too_deep_at(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The offset of the first `[` or `{` nested deeper than `limit` in `.0` or JSON text, else None.

    Brackets inside strings (and `#` comments) do not count. The common case costs two
    `str.count`s; a bracket-heavy text one regex pass and a C-level running sum, in windows of
    lines (`_deepest`).
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    if _deepest(text) <= limit:
        return None
    depth = 0
    for match in _TOKENS.finditer(text):
        step = _STEP.get(match.group(), 0)
        depth += step
        if depth > limit and step > 0:
            return match.start()
    return None  # pragma: no cover - the running sum said otherwise


# Characters per window of `_deepest`: each is one C call that holds the GIL (about a millisecond).
_WINDOW = 1 << 16


def _deepest(text: str) -> int:
    """The deepest running bracket depth of `text`, found a window of whole lines at a time.

    One regex pass over a megabyte holds the GIL for 20 ms (a language server analysing on one
    thread stalled its requests on another that long). Windows end after a newline, where no
    `#` comment goes on; a string that goes on past a window's end leaves its `"` in that
    window's brackets, and then the whole text is read in one pass after all.
    """
    depth = deepest = 0
    start = 0
    while start < len(text):
        cut = text.find("\n", start + _WINDOW)
        end = len(text) if cut < 0 else cut + 1
        brackets = _NOT_BRACKETS.sub("", text[start:end])
        if '"' in brackets and end < len(text):  # a string across the cut: no windows
            return max(accumulate(map(_STEP.__getitem__, _NOT_BRACKETS.sub("", text))), default=0)
        running = list(accumulate(map(_STEP.__getitem__, brackets), initial=depth))
        deepest = max(deepest, max(running))
        depth = running[-1]
        start = end
    return deepest


def span_at(text: str, offset: int) -> Span:
    """A one-character span at `offset` (line and column counted from 1)."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(line, column, line, column + 1, offset, offset + 1)


# ---- diagnostics per file ---------------------------------------------------------------------


def more_line(hidden: int) -> str:
    """The line after a file's first `MAX_DIAGNOSTICS` problems: how many were left out."""
    noun = "problem" if hidden == 1 else "problems"
    return f"... and {hidden} more {noun} (only the first {MAX_DIAGNOSTICS} of a file are shown)"


# ---- values a run makes -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """What one run may use; every field has a generous default."""

    max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES
    max_run_bytes: int = DEFAULT_MAX_RUN_BYTES
    max_depth: int = MAX_DEPTH


class Meter:
    """Counts what a run's values use; `charge` returns why a value is too much, or None."""

    __slots__ = ("_known", "limits", "total")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.total = 0
        # id -> (size, depth) of containers already measured; they stay alive for the whole run
        # (every one is reachable from a node's value), so an id is never reused while it is here.
        self._known: dict[int, tuple[int, int]] = {}

    def charge(self, value: object) -> str | None:
        size, depth = self.measure(value)
        limits = self.limits
        if depth > limits.max_depth:
            return TOO_DEEP.format(limit=limits.max_depth)
        if size > limits.max_value_bytes:
            return (
                f"value of about {human_bytes(size)} exceeds the value size limit of "
                f"{human_bytes(limits.max_value_bytes)} (raise it with --max-value-size)"
            )
        self.total += size
        if self.total > limits.max_run_bytes:
            return (
                f"the run's values reach about {human_bytes(self.total)}, over the memory limit of "
                f"{human_bytes(limits.max_run_bytes)} (raise it with --max-memory)"
            )
        return None

    def measure(self, value: object) -> tuple[int, int]:
        """(memory in bytes, about; nesting depth) without recursion; stops early past the limits."""
        kind = type(value)
        if kind is not list and kind is not dict:
            return _scalar_size(value), 0
        known = self._known
        found = known.get(id(value))
        if found is not None:
            return found
        cap_size, cap_depth = self.limits.max_value_bytes, self.limits.max_depth
        # Post-order walk: a container is entered once, then finished once its children are known.
        stack: list[tuple[object, bool]] = [(value, False)]
        while stack:
            item, ready = stack.pop()
            if id(item) in known:
                continue
            children: Collection[object] = (
                item.values() if isinstance(item, dict) else cast("list[object]", item)
            )
            if not ready:
                stack.append((item, True))
                stack.extend((child, False) for child in children if type(child) in (list, dict))
                continue
            depth = 0
            if isinstance(item, dict):
                size = _DICT + _DICT_ITEM * len(children) + sum(_scalar_size(key) for key in item)
            else:
                size = _LIST + _LIST_ITEM * len(children)
            for child in children:
                if type(child) is list or type(child) is dict:
                    child_size, child_depth = known[id(child)]
                    size += child_size
                    depth = max(depth, child_depth)
                else:
                    size += _scalar_size(child)
            result = (size, depth + 1)
            known[id(item)] = result
            if size > cap_size or depth + 1 > cap_depth:
                return result  # already too much: no need to finish the walk
        return known[id(value)]


# CPython's sizes, about: the point is the order of magnitude, not the byte.
_STR, _BYTES, _NUMBER, _SINGLETON = 49, 33, 32, 0
_LIST, _LIST_ITEM, _DICT, _DICT_ITEM = 56, 8, 64, 48


def _scalar_size(value: object) -> int:
    if isinstance(value, str):
        return _STR + len(value) * (1 if value.isascii() else 4)
    if isinstance(value, bytes):
        return _BYTES + len(value)
    if value is None or isinstance(value, bool):
        return _SINGLETON
    return _NUMBER


def human_bytes(count: int) -> str:
    """1536 -> "1.5 KiB"."""
    size = float(count)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{count} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TiB"  # pragma: no cover


_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
_SIZE = re.compile(r"\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_size(text: str) -> int:
    """`1048576`, `512K`, `64M`, `2G`, `1GiB` -> bytes; ValueError otherwise."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ValueError(f"not a size: {text!r} (write e.g. 64M or 2G)")
    return int(match.group(1)) * _UNITS[match.group(2).lower()]
