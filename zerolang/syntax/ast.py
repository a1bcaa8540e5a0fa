"""Typed syntax tree of a `.0` file.

Every element carries its source `Span`; spans, the written style of a key or
string and blank lines are left out of equality, so two trees compare equal
when they mean the same graph with the same comments, however they were laid
out. `Graph` and `Node` are typed views over the same entries the formatter
prints, so there is exactly one source of truth.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypeAlias

from zerolang.util.span import NO_SPAN as NO_SPAN  # re-exported: their home is light (zerolang.util.span)
from zerolang.util.span import Span as Span


@dataclass(slots=True)
class Comment:
    """A `#` comment; `text` is everything after the `#`, trailing blanks dropped.

    `blank_after` records a blank line written after an own-line comment, so a
    comment that heads a section keeps its distance from what follows.
    """

    text: str
    span: Span = field(default=NO_SPAN, compare=False, repr=False)
    blank_after: bool = field(default=False, compare=False, repr=False)


@dataclass(slots=True, kw_only=True)
class Element:
    """Anything a comment can sit beside: an entry, or an item of an array."""

    span: Span = field(default=NO_SPAN, compare=False, repr=False)
    leading: list[Comment] = field(default_factory=list, repr=False)
    trailing: Comment | None = field(default=None, repr=False)
    blank_before: bool = field(default=False, compare=False, repr=False)


@dataclass(slots=True)
class String(Element):
    """A string; `bare` when it was written as an identifier (`type: Operation`)."""

    value: str
    bare: bool = field(default=False, compare=False)


@dataclass(slots=True)
class Int(Element):
    value: int
    raw: str | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Float(Element):
    value: float
    raw: str | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Bool(Element):
    value: bool


@dataclass(slots=True)
class Null(Element):
    pass


@dataclass(slots=True)
class Array(Element):
    items: list[Value] = field(default_factory=list)
    dangling: list[Comment] = field(default_factory=list, repr=False)


@dataclass(slots=True)
class Entry(Element):
    """`key: value` inside a map, a struct or the graph."""

    key: str
    value: Value
    key_quoted: bool = field(default=False, compare=False)
    key_span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(slots=True)
class Map(Element):
    entries: list[Entry] = field(default_factory=list)
    dangling: list[Comment] = field(default_factory=list, repr=False)

    def get(self, key: str) -> Value | None:
        """The value of the last entry named `key` (later duplicates win, as in JSON)."""
        found: Value | None = None
        for entry in self.entries:
            if entry.key == key:
                found = entry.value
        return found

    def entry(self, key: str) -> Entry | None:
        found: Entry | None = None
        for entry in self.entries:
            if entry.key == key:
                found = entry
        return found

    def fields(self) -> dict[str, Value]:
        """Every key's value at once (later duplicates win): one pass instead of a `get` per key."""
        return {entry.key: entry.value for entry in self.entries}

    def keys(self) -> Iterator[str]:
        return (entry.key for entry in self.entries)

    def set(self, key: str, value: Value) -> None:
        """Replace the value of `key` in place, or append a new entry."""
        existing = self.entry(key)
        if existing is not None:
            existing.value = value
        else:
            self.entries.append(Entry(key=key, value=value))

    def remove(self, key: str) -> None:
        self.entries = [entry for entry in self.entries if entry.key != key]


@dataclass(slots=True)
class Struct(Map):
    """A typed struct literal: `HaltingProof { max_steps: 3 }`."""

    name: str = ""


class Node(Map):
    """One node of a graph: a map with typed accessors for the common fields."""

    __slots__ = ()

    @property
    def id(self) -> str | None:
        return _as_str(self.get("id"))

    @property
    def type(self) -> str | None:
        return _as_str(self.get("type"))

    @property
    def op(self) -> str | None:
        return _as_str(self.get("op"))

    @property
    def inputs(self) -> list[str]:
        """The input references that are strings; other items are the validator's to report."""
        value = self.get("inputs")
        if not isinstance(value, Array):
            return []
        return [item.value for item in value.items if isinstance(item, String)]

    @property
    def params(self) -> Map | None:
        value = self.get("params")
        return value if isinstance(value, Map) else None


class Graph(Struct):
    """The whole program: `Graph { name, nodes: [...], outputs: [...] }`.

    Comments above the graph are its `leading` comments, those below it `footer`.
    """

    __slots__ = ("footer",)

    def __init__(
        self,
        entries: list[Entry] | None = None,
        *,
        span: Span = NO_SPAN,
        leading: list[Comment] | None = None,
        footer: list[Comment] | None = None,
        dangling: list[Comment] | None = None,
    ) -> None:
        Struct.__init__(
            self,
            entries=entries if entries is not None else [],
            dangling=dangling if dangling is not None else [],
            name="Graph",
            span=span,
            leading=leading if leading is not None else [],
        )
        self.footer: list[Comment] = footer if footer is not None else []

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return Struct.__eq__(self, other) and self.footer == other.footer

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Graph(name={self.name_value!r}, nodes={len(self.nodes)})"

    @property
    def name_value(self) -> str | None:
        return _as_str(self.get("name"))

    @property
    def nodes(self) -> list[Node]:
        value = self.get("nodes")
        if not isinstance(value, Array):
            return []
        return [item for item in value.items if isinstance(item, Node)]

    @property
    def outputs(self) -> list[str]:
        value = self.get("outputs")
        if not isinstance(value, Array):
            return []
        return [item.value for item in value.items if isinstance(item, String)]


Value: TypeAlias = String | Int | Float | Bool | Null | Array | Map


def _as_str(value: Value | None) -> str | None:
    return value.value if isinstance(value, String) else None


def to_python(value: Value) -> object:
    """The plain Python value of a literal: str, int, float, bool, None, list or dict."""
    if isinstance(value, (String, Int, Float, Bool)):
        return value.value
    if isinstance(value, Null):
        return None
    if isinstance(value, Array):
        return [to_python(item) for item in value.items]
    return {entry.key: to_python(entry.value) for entry in value.entries}


def from_python(value: object) -> Value:
    """Build a literal from a plain Python value (the memory compiler builds graphs this way)."""
    if value is None:
        return Null()
    if isinstance(value, bool):
        return Bool(value)
    if isinstance(value, int):
        return Int(value)
    if isinstance(value, float):
        return Float(value)
    if isinstance(value, str):
        return String(value)
    if isinstance(value, (list, tuple)):
        return Array(items=[from_python(item) for item in value])
    if isinstance(value, dict):
        return Map(entries=[Entry(key=str(key), value=from_python(item)) for key, item in value.items()])
    raise TypeError(f"cannot express {type(value).__name__} as a .0 literal")


def walk(value: Value) -> Iterator[Value | Entry]:
    """Every value and entry under `value`, depth first, in source order."""
    yield value
    if isinstance(value, Array):
        for item in value.items:
            yield from walk(item)
    elif isinstance(value, Map):
        for entry in value.entries:
            yield entry
            yield from walk(entry.value)
