"""Which nodes a node reads, shared by the validator and the interpreter.

Besides its `inputs` (the part of each reference before the first `.`), a
`Route` reads the nodes its conditions name and a `Permission` reads the node
`sender_confidence`. The old runtime did not order those reads; ours makes
them dependencies so they always run first.
"""

from __future__ import annotations

from collections.abc import Container, Mapping

from zerolang.syntax.ast import Array, Map, Node, String, Value

SENDER_CONFIDENCE = "sender_confidence"


def reference_target(reference: str) -> str:
    """The node id a reference depends on: `intent.kind` -> `intent`."""
    return reference.split(".", 1)[0]


Fields = Mapping[str, Value]


def input_references(node: Node | Fields) -> list[String]:
    """The string items of `inputs`, as written (with their spans)."""
    value = node.get("inputs")
    if not isinstance(value, Array):
        return []
    return [item for item in value.items if isinstance(item, String)]


def implicit_reads(node: Node | Fields, known: Container[str]) -> list[String]:
    """Nodes a Route or Permission reads beside its inputs, where such nodes exist."""
    kind_value = node.get("type")
    kind = kind_value.value if isinstance(kind_value, String) else None
    if kind == "Route":
        conditions = node.get("conditions")
        reads: list[String] = []
        if isinstance(conditions, Array):
            for condition in conditions.items:
                if isinstance(condition, Map):
                    name = condition.get("input")
                    if isinstance(name, String) and name.value in known:
                        reads.append(name)
        return reads
    if kind == "Permission" and isinstance(kind_value, String) and SENDER_CONFIDENCE in known:
        return [String(SENDER_CONFIDENCE, span=kind_value.span)]
    return []


def dependencies(node: Node | Fields, known: Container[str]) -> list[str]:
    """Ids of the nodes `node` must run after, in order, without repeats."""
    seen: dict[str, None] = {}
    for reference in input_references(node):
        seen[reference_target(reference.value)] = None
    for read in implicit_reads(node, known):
        seen[read.value] = None
    return list(seen)
