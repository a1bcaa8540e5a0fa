"""Z019: a key in an op's `params` that the op never reads, and what it reads instead."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.runtime.builtins import OPERATIONS, Operation
from zerolang.syntax.ast import Array, Entry, Graph, Map, Node, String
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.edits import append_input, identifier, rename_key
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.tools.lint.rules.misspelled_key import likely_misspelling
from zerolang.util import codes
from zerolang.util.errors import Severity

ORDINALS = ("first", "second", "third", "fourth")
# Short forms people write for a param, too short for a spelling match (`sep` for `separator`).
SHORT_FORMS = {
    "sep": "separator",
    "delim": "separator",
    "delimiter": "separator",
    "idx": "index",
    "key": "field",
}


@rule(codes.UNREAD_PARAM, Severity.WARNING, Applicability.UNSAFE)
def unread_param(context: Context) -> Iterator[Violation]:
    """A key in an op's `params` that the op does not read (`Equals` with `params: { compare: 0 }`).

    Every builtin reads a fixed set of params, most of them none: `Equals`
    compares its first two *inputs*, `Add` sums its inputs, `If` picks between
    its second and third inputs. A param it does not read is silently ignored,
    so `Equals` over one input with `{ compare: 0 }` compares that input with
    null and is never true, and a verifier built on it can never say "safe".
    The message says what the op reads instead (`zero ops NAME` shows it in
    full). When the key is a short form of a param the op reads and the node
    lacks (`sep` for Concat's `separator`), that param is what was meant: the
    fix renames the key. Otherwise, where the value is plainly the missing
    operand (one unread param, and the op takes another input), the fix adds
    it as a `Constant` node and passes it as the next input. Both are unsafe
    because they change what the graph computes (to what it was meant to
    compute), and say how. Keys that look like a misspelled param are Z015's.
    """
    for node in context.nodes:
        op = OPERATIONS.get(node.op or "") if node.type == "Operation" else None
        params = node.params
        if op is None or params is None or op.reads_any_param:
            continue
        unread = [entry for entry in params.entries if entry.key not in op.param_names]
        missing = tuple(name for name in op.param_names if params.entry(name) is None)
        unread = [entry for entry in unread if likely_misspelling(entry.key, missing) is None]
        for entry in unread:
            message = f"`{op.name}` does not read `params.{entry.key}`: {_reads(op)}"
            meant = near_miss(entry.key, missing)
            if meant is not None:
                message += f"; did you mean `params.{meant}`?"
                yield Violation(message, entry.key_span, _rename(op, params, entry, meant))
                continue
            position = _next_operand(node, op) if len(unread) == 1 else None
            if position is not None:
                message += f"; pass the value as its {ORDINALS[position]} input"
            fix = _as_input(context, node, params, entry) if position is not None else None
            yield Violation(message, entry.key_span, fix)


def near_miss(key: str, missing: tuple[str, ...]) -> str | None:
    """The missing param `key` is a short form or a prefix of (`sep`, `separ` -> `separator`)."""
    lowered = key.lower()
    meant = SHORT_FORMS.get(lowered)
    if meant in missing:
        return meant
    prefixed = [name for name in missing if len(lowered) >= 3 and name.startswith(lowered)]
    return prefixed[0] if len(prefixed) == 1 else None


def _rename(op: Operation, params: Map, entry: Entry, meant: str) -> Fix:
    old = entry.key
    description = (
        f"rename `params.{old}` to `params.{meant}`: `{op.name}` then reads its value "
        f"(until now it used the default)"
    )

    def edit(graph: Graph) -> None:
        rename_key(entry, meant)

    return Fix(description, edit, Applicability.UNSAFE, touches=(params,))


def _reads(op: Operation) -> str:
    """What the op reads instead, in words."""
    inputs = f"its inputs ({op.reads})" if op.reads else "no inputs"
    if not op.param_names:
        return f"it reads no params, only {inputs}"
    names = ", ".join(f"`params.{name}`" for name in op.param_names)
    return f"it reads {names} and {inputs}"


def _next_operand(node: Node, op: Operation) -> int | None:
    """Which input (0-based) a missing operand would be, when the op takes one more."""
    inputs = node.get("inputs")
    if inputs is not None and not isinstance(inputs, Array):
        return None
    count = len(inputs.items) if isinstance(inputs, Array) else 0
    variadic = op.reads.endswith("...")
    arity = len([part for part in op.reads.split(",") if part.strip()])
    if (variadic or count < arity) and count < len(ORDINALS) and op.reads:
        return count
    return None


def _as_input(context: Context, node: Node, params: Map, entry: Entry) -> Fix:
    node_id = node.id or "node"
    new_id = _free_id(f"{node_id}_{entry.key}", context)
    description = (
        f"move `params.{entry.key}` into a Constant node `{new_id}` passed as an input: "
        f"`{node.op}` then reads that value as an operand"
    )

    def edit(graph: Graph) -> None:
        nodes = graph.get("nodes")
        if not isinstance(nodes, Array):
            return
        constant = Node(
            entries=[
                Entry(key="id", value=String(new_id)),
                Entry(key="type", value=identifier("Constant")),
                Entry(key="value", value=entry.value),
            ]
        )
        index = next((i for i, item in enumerate(nodes.items) if item is node), len(nodes.items))
        nodes.items.insert(index, constant)
        params.entries.remove(entry)
        append_input(node, new_id)

    nodes = context.graph.get("nodes")
    return Fix(description, edit, Applicability.UNSAFE, touches=(node, params, nodes))


def _free_id(wanted: str, context: Context) -> str:
    candidate, number = wanted, 2
    while candidate in context.by_id:
        candidate, number = f"{wanted}_{number}", number + 1
    return candidate
