"""What the runtime knows: its node types with their fields, and the names of its builtin ops.

The validator, the interpreter, the linter, the language server and the
syntax highlighters all read this module. The node types and their fields are
defined here; the ops are defined once, by `@builtin` in zerolang.runtime.builtins,
and this module only names them.
"""

from __future__ import annotations

from dataclasses import dataclass

from zerolang.runtime.builtins import OPERATIONS


@dataclass(frozen=True, slots=True)
class NodeType:
    """A node type: the fields it requires and may have, and what it does (hover docs, `zero ops`)."""

    name: str
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    doc: str = ""

    @property
    def fields(self) -> tuple[str, ...]:
        return self.required + self.optional


COMMON_FIELDS = ("id", "type", "inputs", "params")

NODE_TYPES: dict[str, NodeType] = {
    node_type.name: node_type
    for node_type in (
        NodeType(
            "External", ("uri",), doc="A run input: the value given for `uri` (`input://NAME`), or null."
        ),
        NodeType("Constant", ("value",), doc="A fixed value, written in the file."),
        NodeType("Operation", ("op",), doc="Calls the builtin `op` on its `inputs` with its `params`."),
        NodeType(
            "Lookup",
            ("table",),
            ("default",),
            doc='`table[key]` for the string of its first input; `default` (or "") when it has none.',
        ),
        NodeType(
            "Route",
            ("conditions",),
            doc="The first condition that matches: `{target, confidence, matched_input}`, or null.",
        ),
        NodeType(
            "Permission",
            ("action", "min_confidence"),
            doc="`{granted, confidence, action}`: granted when the node `sender_confidence`"
            " (0.5 without one) reaches `min_confidence`.",
        ),
    )
}

# What each field means, for every place a field can appear (hover docs and completion).
FIELD_DOCS: dict[str, str] = {
    "id": "The node's name: what `inputs`, `outputs` and Route conditions refer to.",
    "type": "The node type: " + ", ".join(NODE_TYPES) + ".",
    "inputs": "The node ids this node reads, in order; `node.field` reads one field of a map value.",
    "params": "The op's parameters (an Operation's `params` map).",
    "uri": "An External's input name, as `input://NAME`.",
    "value": "A Constant's value.",
    "op": "An Operation's builtin (`zero ops` lists them).",
    "table": "A Lookup's map from keys to values.",
    "default": 'What a Lookup gives for a key its table lacks (default "").',
    "conditions": "A Route's conditions, tried in order; the first that matches wins.",
    "action": "What a Permission grants, named in its result.",
    "min_confidence": "The confidence `sender_confidence` must reach for a Permission to be granted.",
    "description": "What the node does, in words; the runtime ignores it.",
}

# The keys of a Route condition and what each means.
CONDITION_FIELDS: dict[str, str] = {
    "input": "The node whose whole value the condition reads (a node id, no `.field`).",
    "match_value": "Matches when the input's value is exactly this string.",
    "threshold": "Without `match_value`: matches when the input is truthy if above 0, always if 0 or absent.",
    "target": "The route's result when this condition matches.",
    "confidence": "The route's confidence when this condition matches (default 1.0); it scales the run's.",
}

# The keys of the graph itself and what each means (hover docs and completion; the keys are the dict's).
GRAPH_FIELDS: dict[str, str] = {
    "name": "The graph's name (required).",
    "version": "An integer version of the graph (default 1).",
    "description": "What the graph does, in words.",
    "nodes": "The list of nodes, `{ id: ..., type: ... }` maps (required).",
    "outputs": "The node ids (or `node.field` references) whose values the run returns (required).",
    "entry_point": "The node a run starts from, for tools (the runtime orders nodes by their inputs).",
    "metadata": "Free-form map for tools; the runtime ignores it.",
    "proofs": "Typed structs such as `HaltingProof { max_steps: 50 }`; the runtime ignores them.",
}

OPS: tuple[str, ...] = tuple(OPERATIONS)
"""The builtin op names, in documentation order (defined by `@builtin` in zerolang.runtime.builtins)."""

# Names people write for an op that exists under another name (seen in real `.0` files):
# each op's `aliases` (the same op) and `similar` names (close, with other params).
OP_ALIASES: dict[str, str] = {
    alias: spec.name for spec in OPERATIONS.values() for alias in (*spec.aliases, *spec.similar)
}
LOOSE_ALIASES: frozenset[str] = frozenset(alias for spec in OPERATIONS.values() for alias in spec.similar)

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
    spec.name: spec.param_names for spec in OPERATIONS.values() if spec.param_names
}
