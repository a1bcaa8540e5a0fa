"""Z010: op parameters written beside `op` instead of inside `params`."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.runtime.catalog import OP_PARAMS
from zerolang.syntax.ast import Entry, Graph, Map, Node
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.edits import move_into_params
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


@rule(codes.NODE_LEVEL_PARAM, Severity.WARNING, Applicability.SAFE)
def node_level_param(context: Context) -> Iterator[Violation]:
    """An op parameter written at node level (`field: "x"` beside `op: GetField`).

    The old runtime reads op parameters only from `params`: there a node-level
    `field` is ignored, a `GetField` returns null and a `SetField` sets nothing.
    Ours accepts both, `params` winning, so the same file means different
    things on the two runtimes. The fix moves the parameter into `params`, or
    drops it when `params` already sets it (it was never used).
    """
    for node in context.nodes:
        op = node.op
        if node.type != "Operation" or op not in OP_PARAMS:
            continue
        params = node.get("params")
        for name in OP_PARAMS[op]:
            entry = node.entry(name)
            if entry is None:
                continue
            if isinstance(params, Map) and params.entry(name) is not None:
                message = f"`{name}` at node level is ignored: `params.{name}` is set and wins"
                yield Violation(message, entry.key_span, _drop(node, entry))
            else:
                message = (
                    f"`{op}` parameter `{name}` is written at node level:"
                    " the old runtime reads it only from `params`"
                )
                fix = _move(node, entry, params) if params is None or isinstance(params, Map) else None
                yield Violation(message, entry.key_span, fix)


def _move(node: Node, entry: Entry, params: Map | None) -> Fix:
    def edit(graph: Graph) -> None:
        move_into_params(node, entry)

    return Fix(f"move `{entry.key}` into `params`", edit, Applicability.SAFE, touches=(node, params))


def _drop(node: Node, entry: Entry) -> Fix:
    def edit(graph: Graph) -> None:
        node.entries.remove(entry)

    return Fix(f"remove the node-level `{entry.key}`", edit, Applicability.SAFE, touches=(node,))
