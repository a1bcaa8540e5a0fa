"""Does each Operation node get as many inputs as its op reads? (Z021)

The counts come from each builtin's declared `reads` (`Operation.arity`, zerolang.runtime.builtins),
so `zero check`, `zero lint`, the language server and `zero ops` agree on them. A node with the
wrong count still runs as the runtime spec says (a missing input is null, an extra one is never
read), which is why this is not part of `validate`: the graph runs, but not as it reads.
`zero run` prints these problems as warnings and runs the graph unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.runtime.builtins import OPERATIONS
from zerolang.syntax.ast import Array, Graph, Node, Span
from zerolang.util import codes
from zerolang.util.errors import Diagnostic

WRONG_INPUT_COUNT = codes.WRONG_INPUT_COUNT.code


def input_counts(graph: Graph, path: str | None = None) -> list[Diagnostic]:
    """A Z021 error for each Operation node with more or fewer inputs than its op reads, in source order."""
    problems = list(_counts(graph))
    for problem in problems:
        problem.path = path
    return problems


def _counts(graph: Graph) -> Iterator[Diagnostic]:
    for node in graph.nodes:
        if node.type != "Operation":
            continue
        op = OPERATIONS.get(node.op or "")
        inputs = node.get("inputs")
        if op is None or (inputs is not None and not isinstance(inputs, Array)):
            continue  # an unknown op, or `inputs` of the wrong kind: the validator's to report
        count = len(inputs.items) if inputs is not None else 0
        fewest, most = op.arity
        if fewest <= count and (most is None or count <= most):
            continue
        label = f"node `{node.id}`" if node.id is not None else "this node"
        reads = f" ({op.reads})" if op.reads else ""
        has = "none" if count == 0 else str(count)
        message = f"{label}: `{op.name}` takes {op.arity_text}{reads}, but it has {has}"
        yield Diagnostic(WRONG_INPUT_COUNT, message, _place(node, inputs))


def _place(node: Node, inputs: Array | None) -> Span:
    """The node's `inputs` list when written, else its `op`: where the count is decided."""
    if inputs is not None:
        return inputs.span
    entry = node.entry("op")
    return entry.value.span if entry is not None else node.span
