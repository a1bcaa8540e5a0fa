"""What a node's value can be, as far as the graph text tells: for the MergeMap rules.

`MergeMap` silently skips inputs that are not maps and lets later keys
overwrite earlier ones, so the linter needs to know, without running, which
inputs can never be maps and which keys an input certainly has. A `Shape`
says that; anything the text does not pin down (a run input, a field read, a
stored state) is `ANY`, so the rules only speak when they are sure.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from zerolang.syntax.ast import Bool, Float, Int, Map, Node, Null, String, Value
from zerolang.syntax.dependencies import reference_target

MAX_DEPTH = 64  # beyond this many nodes back, a value counts as unknown (no deep recursion)


class Kind(StrEnum):
    """A runtime value kind, named as a message says it."""

    NULL = "null"
    BOOL = "a boolean"
    NUMBER = "a number"
    STRING = "a string"
    BYTES = "bytes"
    ARRAY = "a list"
    MAP = "a map"
    HASH = "a hash"


@dataclass(frozen=True, slots=True)
class Shape:
    """`kinds` it can be (None: anything), keys it certainly has when a map, and its literal if known."""

    kinds: frozenset[Kind] | None = None
    keys: frozenset[str] = frozenset()
    literal: Map | None = None

    @property
    def never_map(self) -> bool:
        return self.kinds is not None and Kind.MAP not in self.kinds

    @property
    def always_map(self) -> bool:
        return self.kinds == frozenset({Kind.MAP})

    def describe(self) -> str:
        """`a string`, `a number or null`: for messages."""
        return " or ".join(sorted(self.kinds or ())) or "anything"


ANY = Shape()


def _of(*kinds: Kind, keys: frozenset[str] = frozenset(), literal: Map | None = None) -> Shape:
    return Shape(frozenset(kinds), keys, literal)


_BOOL = _of(Kind.BOOL)
_FIXED: dict[str, Shape] = {
    **dict.fromkeys(
        ("StartsWith", "EndsWith", "Contains", "Equals", "NotEquals", "GreaterThan", "LessThan"), _BOOL
    ),
    **dict.fromkeys(("And", "Or", "Not", "Verify"), _BOOL),
    **dict.fromkeys(
        ("ExtractFirstWord", "Concat", "Trim", "ToLower", "ToUpper", "ClassifyIntent"), _of(Kind.STRING)
    ),
    **dict.fromkeys(("ExtractParams", "Split", "ArrayPush"), _of(Kind.ARRAY)),
    **dict.fromkeys(("Length", "Timestamp", "Add", "Multiply", "Subtract", "Divide"), _of(Kind.NUMBER)),
    "Hash": _of(Kind.HASH),
    "Sign": _of(Kind.BYTES),
}
ROUTE_KEYS = frozenset({"target", "confidence", "matched_input"})
PERMISSION_KEYS = frozenset({"granted", "confidence", "action"})


def literal_shape(value: Value) -> Shape:
    """The shape of a literal written in the graph."""
    if isinstance(value, Map):
        return _of(Kind.MAP, keys=frozenset(value.keys()), literal=value)
    kind = {String: Kind.STRING, Int: Kind.NUMBER, Float: Kind.NUMBER, Bool: Kind.BOOL, Null: Kind.NULL}.get(
        type(value), Kind.ARRAY
    )
    return _of(kind)


def union(first: Shape, second: Shape) -> Shape:
    """Either of two shapes: kinds joined, only the keys both certainly have."""
    if first.kinds is None or second.kinds is None:
        return ANY
    return Shape(first.kinds | second.kinds, first.keys & second.keys)


class Shapes:
    """Shapes of node values and input references, memoised per node id."""

    def __init__(self, by_id: dict[str, Node]) -> None:
        self._by_id = by_id
        self._memo: dict[str, Shape] = {}
        self._busy: set[str] = set()

    def reference(self, reference: str, depth: int = 0) -> Shape:
        """The shape of an input reference: `node`, or `node.field`."""
        target = reference_target(reference)
        base = self.node(target, depth)
        if target == reference:
            return base
        field = reference[len(target) + 1 :]
        if base.never_map:
            return _of(Kind.NULL)
        if base.literal is not None:
            value = base.literal.get(field)
            return _of(Kind.NULL) if value is None else literal_shape(value)
        return ANY

    def node(self, node_id: str, depth: int = 0) -> Shape:
        if node_id in self._memo:
            return self._memo[node_id]
        node = self._by_id.get(node_id)
        if node is None or node_id in self._busy or depth > MAX_DEPTH:
            return ANY  # no such node (Z004), a cycle (Z005), or too far back to be worth it
        self._busy.add(node_id)
        try:
            shape = self._compute(node, depth + 1)
        finally:
            self._busy.discard(node_id)
        self._memo[node_id] = shape
        return shape

    def _compute(self, node: Node, depth: int) -> Shape:
        kind = node.type
        if kind == "Constant":
            value = node.get("value")
            return ANY if value is None else literal_shape(value)
        if kind == "Route":
            return _of(Kind.MAP, Kind.NULL, keys=ROUTE_KEYS)
        if kind == "Permission":
            return _of(Kind.MAP, keys=PERMISSION_KEYS)
        if kind == "Lookup":
            default = node.get("default")
            if default is None or isinstance(default, Null):
                return _of(Kind.STRING)
            return union(_of(Kind.STRING), literal_shape(default))
        if kind == "Operation" and node.op is not None:
            return self._operation(node, node.op, depth)
        return ANY

    def _operation(self, node: Node, op: str, depth: int) -> Shape:
        if op in _FIXED:
            return _FIXED[op]
        inputs = [self.reference(reference, depth) for reference in node.inputs]
        if op == "Identity":
            return inputs[0] if inputs else _of(Kind.NULL)
        if op == "If":
            second, third = (inputs + [_of(Kind.NULL)] * 3)[1:3]
            return union(second, third)
        if op == "CreateMap":
            params = node.params
            return _of(Kind.MAP, keys=frozenset(params.keys()), literal=params) if params else _of(Kind.MAP)
        if op == "MergeMap":
            return _of(Kind.MAP, keys=frozenset().union(*(s.keys for s in inputs if s.always_map)))
        if op == "SetField":
            return _set_field(node, inputs)
        return ANY  # GetField, ArrayGet, LoadState, SaveState: whatever the data holds


def _set_field(node: Node, inputs: list[Shape]) -> Shape:
    """A copy of the first input (a new map if not one) with `field` set when there is a second input."""
    base = inputs[0].keys if inputs and inputs[0].always_map else frozenset()
    params = node.params
    field = (
        params.get("field") if params is not None and params.get("field") is not None else node.get("field")
    )
    if len(inputs) > 1 and isinstance(field, String):
        return _of(Kind.MAP, keys=base | {field.value})
    return _of(Kind.MAP, keys=base)


def describe_origin(node: Node | None) -> str:
    """What made a value, for messages: `a Constant`, `the result of Hash`."""
    if node is None:
        return "a value"
    if node.type == "Operation" and node.op:
        return f"the result of `{node.op}`"
    return f"a `{node.type}`" if node.type else "a node"
