"""The builtins and node types in words: what `zero ops` prints and an editor's hover shows.

Everything here is derived from `zerolang.runtime.builtins.OPERATIONS` and
`zerolang.runtime.catalog`; the text is Markdown-friendly plain text (backticks for
names), readable in a terminal and renderable as Markdown.
"""

from __future__ import annotations

from zerolang.runtime.builtins import OPERATIONS, Operation
from zerolang.runtime.catalog import CONDITION_FIELDS, FIELD_DOCS, NODE_TYPES, OP_ALIASES, NodeType
from zerolang.util.suggest import suggest


def lookup(name: str) -> Operation | NodeType | None:
    """The op or node type `name` names: exactly, by alias, or by case."""
    if name in OPERATIONS:
        return OPERATIONS[name]
    if name in NODE_TYPES:
        return NODE_TYPES[name]
    if name in OP_ALIASES:
        return OPERATIONS[OP_ALIASES[name]]
    lowered = {key.lower(): key for key in (*OPERATIONS, *NODE_TYPES)}
    lowered.update({alias.lower(): op for alias, op in OP_ALIASES.items()})
    key = lowered.get(name.lower())
    if key is None:
        return None
    return OPERATIONS.get(key) or NODE_TYPES[key]


def closest(name: str) -> str | None:
    """The name `name` was probably meant to be, for an error message."""
    return suggest(name, [*OPERATIONS, *NODE_TYPES], OP_ALIASES)


def describe_op(op: Operation) -> str:
    """Everything about one op: signature, what it does, its params and the names that mean it."""
    lines = [f"{op.signature}    ({op.group})", "", op.doc, ""]
    lines.append(f"Inputs: {op.reads} ({op.arity_text})" if op.reads else "Inputs: none")
    if op.params:
        lines.append("Params:")
        width = max(len(param.name) for param in op.params)
        for param in op.params:
            name = "any key" if param.name == "*" else param.name
            lines.append(f"  {name:<{max(width, 7)}}  {param.doc}")
    else:
        lines.append("Params: none (any key in `params` is ignored)")
    if op.aliases:  # not accepted in a graph (Z003): said so, so that no one writes them
        names = ", ".join(f"`{alias}`" for alias in op.aliases)
        lines.append(f"Not op names (zero lint --fix renames them to `{op.name}`): {names}")
    if op.similar:
        lines.append("Close to: " + ", ".join(f"`{name}` (other params)" for name in op.similar))
    return "\n".join(lines)


def describe_node_type(node_type: NodeType) -> str:
    """One node type: what it does and its fields."""
    lines = [f"{node_type.name}    (node type)", "", node_type.doc, ""]
    lines.append("Required: " + ", ".join(f"`{name}`" for name in node_type.required))
    if node_type.optional:
        lines.append("Optional: " + ", ".join(f"`{name}`" for name in node_type.optional))
    return "\n".join(lines)


def describe(name: str) -> str | None:
    """The description of the op or node type `name`, or None when it names neither."""
    found = lookup(name)
    if found is None:
        return None
    return describe_op(found) if isinstance(found, Operation) else describe_node_type(found)


def param_doc(op_name: str, key: str) -> str | None:
    """What `params.key` means to the op `op_name` (hover on a param), or None when it does not read it."""
    op = OPERATIONS.get(op_name)
    if op is None:
        return None
    for param in op.params:
        if param.name == key:
            return f"`{op.name}` param `{key}`: {param.doc}"
    if op.reads_any_param:
        return f"`{op.name}`: {op.params[0].doc}"
    return None


def field_doc(key: str, *, in_condition: bool = False) -> str | None:
    """What a node field (or, `in_condition`, a Route condition key) means (hover on a key)."""
    return CONDITION_FIELDS.get(key) if in_condition else FIELD_DOCS.get(key)


def listing() -> list[str]:
    """Every builtin by group, one line each: name, signature, summary (columns aligned, never cut)."""
    groups: dict[str, list[Operation]] = {}
    for op in OPERATIONS.values():
        groups.setdefault(op.group, []).append(op)
    width = max(len(op.signature) for op in OPERATIONS.values())
    lines = [f"{len(OPERATIONS)} builtins (`zero ops NAME` for one in full):"]
    for group, ops in groups.items():
        lines += ["", f"{group}:"]
        lines += [f"  {op.signature:<{width}}  {op.summary}" for op in ops]
    lines += ["", "Node types: " + ", ".join(NODE_TYPES) + " (`zero ops TYPE` for one)."]
    return lines


def to_json(op: Operation) -> dict[str, object]:
    """One op as `zero ops --json` prints it."""
    return {
        "name": op.name,
        "group": op.group,
        "signature": op.signature,
        "inputs": op.reads,
        "min_inputs": op.arity[0],
        "max_inputs": op.arity[1],  # null: any number
        "params": [{"name": param.name, "doc": param.doc} for param in op.params],
        "aliases": list(op.aliases),
        "similar": list(op.similar),
        "doc": op.doc,
    }
