"""Can this graph run? Every reason it cannot, each at its place in the source.

The checks are small functions over the AST returning `Diagnostic`s with the
stable codes of `zerolang.util.codes` the linter also uses, so `zero check`,
`zero run` and `zero lint` report a problem the same way.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from zerolang.runtime.catalog import NODE_TYPES, OP_ALIASES, OPS, TYPE_ALIASES
from zerolang.syntax.ast import Array, Entry, Float, Graph, Int, Map, Node, Null, Span, String, Value, walk
from zerolang.syntax.dependencies import Fields, dependencies, input_references, reference_target
from zerolang.util import codes
from zerolang.util.errors import Diagnostic, ValidationError
from zerolang.util.gcpause import paused_gc
from zerolang.util.limits import MAX_DIAGNOSTICS
from zerolang.util.suggest import Suggester

# The codes of `zerolang.util.codes` the validator reports, as the strings diagnostics carry.
AGGREGATE = codes.AGGREGATE.code
UNKNOWN_TYPE = codes.UNKNOWN_TYPE.code
UNKNOWN_OP = codes.UNKNOWN_OP.code
UNKNOWN_INPUT = codes.UNKNOWN_INPUT.code
CYCLE = codes.CYCLE.code
DUPLICATE_ID = codes.DUPLICATE_ID.code
UNKNOWN_OUTPUT = codes.UNKNOWN_OUTPUT.code
MISSING_FIELD = codes.MISSING_FIELD.code
WRONG_KIND = codes.WRONG_KIND.code
DUPLICATE_KEY = codes.DUPLICATE_KEY.code

GRAPH_REQUIRED = ("name", "nodes", "outputs")

# Keys real files write for a required field (a Permission written like a Route condition).
MEANT_FOR: dict[str, tuple[str, ...]] = {
    "min_confidence": ("threshold", "min_threshold", "confidence_threshold"),
    "uri": ("url",),
}


def validate(graph: Graph, path: str | None = None) -> list[Diagnostic]:
    """Every problem that would stop `graph` from running, in source order.

    An unknown node name's "did you mean" is worked out for the first `MAX_DIAGNOSTICS`
    problems only, the ones a file shows (`zerolang.util.limits`).
    """
    hints = _Hints()
    with paused_gc():
        problems = list(_check(graph, hints))
    for problem in problems:
        problem.path = path
    problems.sort(key=lambda problem: (problem.span or Span(0, 0, 0, 0)).start)
    hints.fill(problems[:MAX_DIAGNOSTICS])
    return problems


@dataclass(slots=True)
class _Hints:
    """The node ids, and the problems naming an unknown one: their "did you mean", filled on demand."""

    ids: dict[str, Node] = field(default_factory=dict)
    wanted: dict[int, str] = field(default_factory=dict)  # id(diagnostic) -> the name it looked for

    def ask(self, diagnostic: Diagnostic, name: str) -> Diagnostic:
        self.wanted[id(diagnostic)] = name
        return diagnostic

    def fill(self, shown: list[Diagnostic]) -> None:
        asked = [(problem, self.wanted[id(problem)]) for problem in shown if id(problem) in self.wanted]
        if not asked:
            return
        meant = Suggester(self.ids)
        for problem, name in asked:
            hint = meant(name)
            if hint:
                problem.message += f": did you mean `{hint}`?"


@cache
def _op_names() -> Suggester:
    return Suggester(OPS, OP_ALIASES)


@cache
def _type_names() -> Suggester:
    return Suggester(NODE_TYPES, TYPE_ALIASES)


def validate_or_raise(graph: Graph, path: str | None = None, source: str | None = None) -> None:
    problems = validate(graph, path)
    if problems:
        raise ValidationError(problems, source=source)


def _check(graph: Graph, hints: _Hints) -> Iterator[Diagnostic]:
    yield from duplicate_keys(graph)
    yield from _graph_fields(graph)
    nodes_value = graph.get("nodes")
    if not isinstance(nodes_value, Array):
        return
    nodes: list[Node] = []
    for item in nodes_value.items:
        if isinstance(item, Node):
            nodes.append(item)
        else:
            yield Diagnostic(WRONG_KIND, "a node must be a map `{ id: ..., type: ... }`", item.span)
    ids = hints.ids
    fields_by_id: dict[str, Fields] = {}
    for node in nodes:
        entries = {entry.key: entry for entry in node.entries}
        yield from _node(node, entries)
        id_entry = entries.get("id")
        if id_entry is None or not isinstance(id_entry.value, String):
            continue
        node_id = id_entry.value.value
        if node_id in ids:
            first = ids[node_id].span.line
            message = f"duplicate node id `{node_id}` (first defined on line {first})"
            yield Diagnostic(DUPLICATE_ID, message, id_entry.value.span)
        else:
            ids[node_id] = node
            fields_by_id[node_id] = {key: entry.value for key, entry in entries.items()}
    for node_id, fields in fields_by_id.items():
        yield from _inputs(node_id, fields, hints)
    yield from _outputs(graph, hints)
    yield from _cycles(fields_by_id, ids)


def duplicate_keys(graph: Graph) -> Iterator[Diagnostic]:
    """A key written twice in one map, struct, node or the graph: which value is meant is unsaid."""
    for value in walk(graph):
        if isinstance(value, Map):
            seen: dict[str, Entry] = {}
            for entry in value.entries:
                first = seen.setdefault(entry.key, entry)
                if first is not entry:
                    yield Diagnostic(DUPLICATE_KEY, duplicate_key_message(first, entry), entry.key_span)


def duplicate_key_message(first: Entry, again: Entry) -> str:
    """`duplicate key `value`: first at 3:20, again at 3:30`."""
    one, two = first.key_span, again.key_span
    return f"duplicate key `{first.key}`: first at {one.line}:{one.column}, again at {two.line}:{two.column}"


def _head(span: Span) -> Span:
    """The first character of an element: where to point at a whole node."""
    return Span(span.line, span.column, span.line, span.column + 1, span.start, span.start + 1)


def _id_span(node: Node) -> Span:
    entry = node.entry("id")
    return entry.value.span if entry is not None else _head(node.span)


def _kind(value: Value) -> str:
    return {
        "String": "a string",
        "Int": "a number",
        "Float": "a number",
        "Bool": "a boolean",
        "Null": "null",
        "Array": "a list",
        "Map": "a map",
        "Node": "a map",
        "Struct": "a struct",
    }.get(type(value).__name__, "a value")


def _graph_fields(graph: Graph) -> Iterator[Diagnostic]:
    for name in GRAPH_REQUIRED:
        if graph.entry(name) is None:
            yield Diagnostic(MISSING_FIELD, f"the graph has no `{name}` field", _head(graph.span))
    expectations = {"name": String, "nodes": Array, "outputs": Array, "version": Int, "description": String}
    for key, kind in expectations.items():
        entry = graph.entry(key)
        if entry is not None and not isinstance(entry.value, kind):
            wanted = {String: "a string", Array: "a list", Int: "an integer"}[kind]
            yield Diagnostic(
                WRONG_KIND, f"`{key}` must be {wanted}, not {_kind(entry.value)}", entry.value.span
            )
    outputs = graph.get("outputs")
    if isinstance(outputs, Array):
        for item in outputs.items:
            if not isinstance(item, String):
                yield Diagnostic(
                    WRONG_KIND, f"an output must be a node id string, not {_kind(item)}", item.span
                )


def _node(node: Node, fields: dict[str, Entry]) -> Iterator[Diagnostic]:
    id_entry = fields.get("id")
    node_id = id_entry.value.value if id_entry is not None and isinstance(id_entry.value, String) else None
    label = f"node `{node_id}`" if node_id is not None else "this node"
    for name in ("id", "type"):
        entry = fields.get(name)
        if entry is None:
            yield Diagnostic(MISSING_FIELD, f"{label} has no `{name}` field", _head(node.span))
        elif not isinstance(entry.value, String):
            yield Diagnostic(
                WRONG_KIND, f"`{name}` must be a string, not {_kind(entry.value)}", entry.value.span
            )
    yield from _common_fields(fields)
    type_entry = fields.get("type")
    if type_entry is None or not isinstance(type_entry.value, String):
        return
    type_name = type_entry.value.value
    node_type = NODE_TYPES.get(type_name)
    if node_type is None:
        yield _unknown_type(type_name, type_entry.value.span)
        return
    for name in node_type.required:
        if name not in fields:
            message = f"{label} is {_article(type_name)} `{type_name}` but has no `{name}` field"
            written = next((key for key in MEANT_FOR.get(name, ()) if key in fields), None)
            if written is not None:
                message += f" (it has `{written}`: rename it to `{name}`)"
            yield Diagnostic(MISSING_FIELD, message, _head(node.span))
    yield from _type_fields(type_name, fields)


def _article(word: str) -> str:
    return "an" if word[:1].upper() in "AEIOU" else "a"


def _unknown_type(type_name: str, span: Span) -> Diagnostic:
    if type_name == "Aggregate":
        return Diagnostic(
            AGGREGATE,
            "node type `Aggregate` does not exist in the runtime: use `Operation` with `op: MergeMap`",
            span,
        )
    known = ", ".join(NODE_TYPES)
    hint = _type_names()(type_name)
    message = f"unknown node type `{type_name}`"
    message += f": did you mean `{hint}`?" if hint else f" (the node types are {known})"
    return Diagnostic(UNKNOWN_TYPE, message, span)


def _common_fields(fields: dict[str, Entry]) -> Iterator[Diagnostic]:
    inputs = fields.get("inputs")
    if inputs is not None:
        if not isinstance(inputs.value, Array):
            yield Diagnostic(
                WRONG_KIND,
                f"`inputs` must be a list of node ids, not {_kind(inputs.value)}",
                inputs.value.span,
            )
        else:
            for item in inputs.value.items:
                if not isinstance(item, String):
                    yield Diagnostic(
                        WRONG_KIND, f"an input must be a node id string, not {_kind(item)}", item.span
                    )
    params = fields.get("params")
    if params is not None and not isinstance(params.value, Map):
        yield Diagnostic(WRONG_KIND, f"`params` must be a map, not {_kind(params.value)}", params.value.span)


def _type_fields(type_name: str, fields: dict[str, Entry]) -> Iterator[Diagnostic]:
    def value_of(name: str) -> Value | None:
        entry = fields.get(name)
        return entry.value if entry is not None else None

    if type_name == "Operation":
        op = value_of("op")
        if op is not None and not isinstance(op, String):
            yield Diagnostic(WRONG_KIND, f"`op` must be the name of a builtin, not {_kind(op)}", op.span)
        elif isinstance(op, String) and op.value not in OPS:
            hint = _op_names()(op.value)
            message = f"unknown op `{op.value}`"
            message += f": did you mean `{hint}`?" if hint else f" (`zero ops` lists the {len(OPS)} builtins)"
            yield Diagnostic(UNKNOWN_OP, message, op.span)
    elif type_name == "External":
        uri = value_of("uri")
        if uri is not None and not isinstance(uri, String):
            yield Diagnostic(
                WRONG_KIND, f'`uri` must be a string like "input://message", not {_kind(uri)}', uri.span
            )
    elif type_name == "Lookup":
        table = value_of("table")
        if table is not None and not isinstance(table, Map):
            yield Diagnostic(WRONG_KIND, f"`table` must be a map of strings, not {_kind(table)}", table.span)
    elif type_name == "Route":
        yield from _route(value_of("conditions"))
    elif type_name == "Permission":
        threshold = value_of("min_confidence")
        if threshold is not None and not isinstance(threshold, (Int, Float)):
            yield Diagnostic(
                WRONG_KIND, f"`min_confidence` must be a number, not {_kind(threshold)}", threshold.span
            )
        action = value_of("action")
        if action is not None and not isinstance(action, String):
            yield Diagnostic(WRONG_KIND, f"`action` must be a string, not {_kind(action)}", action.span)


def _route(conditions: Value | None) -> Iterator[Diagnostic]:
    if conditions is None:
        return
    if not isinstance(conditions, Array):
        yield Diagnostic(
            WRONG_KIND, f"`conditions` must be a list of maps, not {_kind(conditions)}", conditions.span
        )
        return
    for condition in conditions.items:
        if not isinstance(condition, Map):
            yield Diagnostic(
                WRONG_KIND, f"a route condition must be a map, not {_kind(condition)}", condition.span
            )
            continue
        for name in ("input", "target"):
            value = condition.get(name)
            if value is None:
                yield Diagnostic(
                    MISSING_FIELD, f"a route condition has no `{name}` field", _head(condition.span)
                )
            elif not isinstance(value, String):
                yield Diagnostic(WRONG_KIND, f"`{name}` must be a string, not {_kind(value)}", value.span)
        for name in ("threshold", "confidence"):
            value = condition.get(name)
            if value is not None and not isinstance(value, (Int, Float, Null)):
                yield Diagnostic(WRONG_KIND, f"`{name}` must be a number, not {_kind(value)}", value.span)
        match_value = condition.get("match_value")
        if match_value is not None and not isinstance(match_value, (String, Null)):
            message = f"`match_value` must be a string, not {_kind(match_value)}"
            yield Diagnostic(WRONG_KIND, message, match_value.span)


def _inputs(node_id: str, fields: Fields, hints: _Hints) -> Iterator[Diagnostic]:
    for reference in input_references(fields):
        target = reference_target(reference.value)
        if target in hints.ids:
            continue
        message = f"node `{node_id}` reads input `{reference.value}`, but no node is named `{target}`"
        yield hints.ask(Diagnostic(UNKNOWN_INPUT, message, reference.span), target)


def _outputs(graph: Graph, hints: _Hints) -> Iterator[Diagnostic]:
    outputs = graph.get("outputs")
    if not isinstance(outputs, Array):
        return
    for item in outputs.items:
        if isinstance(item, String) and reference_target(item.value) not in hints.ids:
            message = f"output `{item.value}` names no node"
            yield hints.ask(Diagnostic(UNKNOWN_OUTPUT, message, item.span), reference_target(item.value))


def _cycles(fields_by_id: dict[str, Fields], ids: dict[str, Node]) -> Iterator[Diagnostic]:
    """Kahn's algorithm; whatever cannot be ordered lies on or behind a cycle."""
    order = {node_id: index for index, node_id in enumerate(ids)}
    depends = {
        node_id: [dep for dep in dependencies(fields, ids) if dep in ids]
        for node_id, fields in fields_by_id.items()
    }
    waiting = {node_id: len(deps) for node_id, deps in depends.items()}
    dependents: dict[str, list[str]] = {}
    for node_id, deps in depends.items():
        for dep in deps:
            dependents.setdefault(dep, []).append(node_id)
    ready = [order[node_id] for node_id, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    names = list(ids)
    done = 0
    while ready:
        node_id = names[heapq.heappop(ready)]
        done += 1
        for dependent in dependents.get(node_id, ()):
            waiting[dependent] -= 1
            if waiting[dependent] == 0:
                heapq.heappush(ready, order[dependent])
    if done == len(ids):
        return
    reported: set[str] = set()
    for start in names:
        if waiting[start] == 0 or start in reported:
            continue
        cycle = _find_cycle(start, depends, waiting, order)
        if cycle is None or reported.intersection(cycle):
            reported.update(cycle or [])
            continue
        reported.update(cycle)
        path = " -> ".join([*cycle, cycle[0]])
        yield Diagnostic(CYCLE, f"cycle between nodes: {path}", _id_span(ids[cycle[0]]))


def _find_cycle(
    start: str, depends: dict[str, list[str]], waiting: dict[str, int], order: dict[str, int]
) -> list[str] | None:
    """Walk unordered dependencies from `start` until a node repeats: that loop is a cycle."""
    position: dict[str, int] = {}
    walk: list[str] = []
    current: str | None = start
    while current is not None and current not in position:
        position[current] = len(walk)
        walk.append(current)
        current = next((dep for dep in depends[current] if waiting[dep] > 0), None)
    if current is None:
        return None
    cycle = walk[position[current] :]
    cycle.reverse()  # reads as data flow: `a -> b` means b reads a
    first = min(range(len(cycle)), key=lambda index: order[cycle[index]])
    return cycle[first:] + cycle[:first]
