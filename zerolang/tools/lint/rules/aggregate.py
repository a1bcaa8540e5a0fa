"""Z001: the `Aggregate` node type, and its rewrite to a `MergeMap` operation."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.syntax.ast import Array, Graph, Node, String
from zerolang.syntax.dependencies import reference_target
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.edits import identifier, set_entry
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


@rule(codes.AGGREGATE, Severity.ERROR, Applicability.SAFE)
def aggregate_node(context: Context) -> Iterator[Violation]:
    """A node of type `Aggregate`, which no runtime has.

    Seed files end in an `Aggregate` node that was meant to gather its inputs
    into one map; the runtime refuses the graph. The fix is the seeds' own
    replacement: `Operation` with `op: MergeMap` over the same inputs. The
    node's own `outputs` field goes (no node type reads it), and a graph output
    `node.x` that pointed into it becomes `node`. Read Z008 and Z009 afterwards:
    MergeMap drops inputs that are not maps and lets colliding keys overwrite
    each other, which is why the 0-memory files use a chain of `SetField`s.
    """
    for diagnostic in context.diagnostics_for(codes.AGGREGATE.code):
        node = context.node_at(diagnostic.span)
        fix = _fix(node, context.outputs) if node is not None and node.id is not None else None
        yield Violation(diagnostic.message, diagnostic.span, fix)


def _fix(node: Node, outputs: Array | None) -> Fix:
    node_id = node.id or ""
    pointing = [
        item
        for item in (outputs.items if outputs is not None else [])
        if isinstance(item, String) and item.value != node_id and reference_target(item.value) == node_id
    ]
    description = f"change `{node_id}` to `Operation` with `op: MergeMap`"
    if node.entry("outputs") is not None:
        description += ", drop its `outputs`"
    description += "".join(f", output `{item.value}` becomes `{node_id}`" for item in pointing)

    def edit(graph: Graph) -> None:
        set_entry(node, "type", identifier("Operation"))
        set_entry(node, "op", identifier("MergeMap"), after=("id", "type"))
        node.remove("outputs")
        for item in pointing:
            item.value = node_id

    return Fix(description, edit, Applicability.SAFE, touches=(node, outputs))
