"""What the runtime knows: its node types, their fields, and its builtin ops.

One table that the validator, the interpreter, the linter and the syntax
highlighter all read, so a new op or field is added in one place.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NodeType:
    name: str
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()

    @property
    def fields(self) -> tuple[str, ...]:
        return self.required + self.optional


COMMON_FIELDS = ("id", "type", "inputs", "params")

NODE_TYPES: dict[str, NodeType] = {
    node_type.name: node_type
    for node_type in (
        NodeType("External", ("uri",)),
        NodeType("Constant", ("value",)),
        NodeType("Operation", ("op",)),
        NodeType("Lookup", ("table",), ("default",)),
        NodeType("Route", ("conditions",)),
        NodeType("Permission", ("action", "min_confidence")),
    )
}

OPS: tuple[str, ...] = (
    "Identity",
    "StartsWith",
    "EndsWith",
    "Contains",
    "ExtractFirstWord",
    "ExtractParams",
    "Concat",
    "Split",
    "Trim",
    "ToLower",
    "ToUpper",
    "Length",
    "GetField",
    "SetField",
    "CreateMap",
    "MergeMap",
    "ArrayPush",
    "ArrayGet",
    "Add",
    "Multiply",
    "Subtract",
    "Divide",
    "Equals",
    "NotEquals",
    "GreaterThan",
    "LessThan",
    "And",
    "Or",
    "Not",
    "If",
    "Hash",
    "Sign",
    "Verify",
    "Timestamp",
    "ClassifyIntent",
    "LoadState",
    "SaveState",
)

# Names people write for an op that exists under another name (seen in real `.0` files).
OP_ALIASES: dict[str, str] = {
    "Eq": "Equals",
    "Equal": "Equals",
    "Neq": "NotEquals",
    "NotEqual": "NotEquals",
    "Gt": "GreaterThan",
    "Lt": "LessThan",
    "Sum": "Add",
    "Mul": "Multiply",
    "Sub": "Subtract",
    "Div": "Divide",
    "Lower": "ToLower",
    "Upper": "ToUpper",
    "Len": "Length",
    "Sha256": "Hash",
    "Now": "Timestamp",
    "Merge": "MergeMap",
    "Aggregate": "MergeMap",
    "JsonGet": "GetField",
    "Get": "GetField",
    "Set": "SetField",
    "Push": "ArrayPush",
    "StringFormat": "Concat",
}

# Node types seen in real files that the runtime lacks, and what to use instead.
TYPE_ALIASES: dict[str, str] = {
    "Aggregate": "Operation",
    "Input": "External",
    "Branch": "Route",
    "Const": "Constant",
    "Op": "Operation",
}

# Op parameters each builtin reads from `params` (or, ours, from node level).
OP_PARAMS: dict[str, tuple[str, ...]] = {
    "StartsWith": ("prefix",),
    "EndsWith": ("suffix",),
    "Contains": ("pattern",),
    "Concat": ("separator",),
    "Split": ("separator",),
    "GetField": ("field",),
    "SetField": ("field",),
    "ArrayGet": ("index",),
    "ClassifyIntent": ("classes",),
}

DEFAULT_MAX_STEPS = 10_000


def suggest(
    name: str, candidates: tuple[str, ...] | list[str], aliases: dict[str, str] | None = None
) -> str | None:
    """The one name `name` most likely meant, or None when nothing is close."""
    import difflib

    if aliases and name in aliases:
        return aliases[name]
    lowered = {candidate.lower(): candidate for candidate in candidates}
    if name.lower() in lowered:
        return lowered[name.lower()]
    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.75)
    if matches:
        return matches[0]
    matches = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[matches[0]] if matches else None
