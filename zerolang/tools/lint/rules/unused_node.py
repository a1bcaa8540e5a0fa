"""Z011: nodes whose value reaches no output."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.syntax.ast import Graph, Node
from zerolang.syntax.dependencies import dependencies, reference_target
from zerolang.tools.lint.context import Context, id_span
from zerolang.tools.lint.edits import remove_node
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity

# Nodes that matter without an output reading them: they store state or change the run's confidence.
EFFECTS = frozenset({"Route", "Permission"})
EFFECT_OPS = frozenset({"SaveState"})


@rule(codes.UNUSED_NODE, Severity.WARNING, Applicability.UNSAFE)
def unused_node(context: Context) -> Iterator[Violation]:
    """A node no output depends on.

    Every node runs, but a value no output reads, directly or through other
    nodes, is thrown away: usually a forgotten output or a misspelled input.
    Nodes with an effect of their own count as used: `SaveState` (it stores),
    `Route` and `Permission` (they change the run's confidence), and whatever
    they read. The fix removes the node; it is unsafe because the execution
    trace and hash change, and the node may have been meant as an output. It is
    offered only for a graph the validator accepts: a misspelled input or
    output (Z004, Z007) makes the node it meant look unused.
    """
    if context.outputs is None:
        return  # no `outputs` at all is Z012's to report
    used = _used(context, [reference_target(reference) for reference in context.graph.outputs])
    trusted = not context.diagnostics
    for node_id, node in context.by_id.items():
        if node_id not in used:
            message = f"node `{node_id}` is unused: no output depends on it"
            yield Violation(message, id_span(node), _remove(node) if trusted else None)


def _used(context: Context, outputs: list[str]) -> set[str]:
    """Every node an output or an effectful node reads, transitively."""
    roots = [*outputs]
    for node_id, node in context.by_id.items():
        if node.type in EFFECTS or (node.type == "Operation" and node.op in EFFECT_OPS):
            roots.append(node_id)
    used: set[str] = set()
    pending = [root for root in roots if root in context.by_id]
    while pending:
        node_id = pending.pop()
        if node_id in used:
            continue
        used.add(node_id)
        pending.extend(
            dep for dep in dependencies(context.by_id[node_id], context.by_id) if dep in context.by_id
        )
    return used


def _remove(node: Node) -> Fix:
    def edit(graph: Graph) -> None:
        remove_node(graph, node)

    return Fix(f"remove node `{node.id}`", edit, Applicability.UNSAFE, touches=(node,), global_=True)
