"""Running a graph: order the nodes, execute each once, hash the trace (spec §2-§3).

A run has three phases. *Compile* reads every node's entries once and turns
the node into a compact step tuple (its kind, the builtin or converted
literal it needs, its inputs resolved to node indexes). It only *detects*
that a graph cannot run (a malformed node, an unknown type or op, a dangling
reference, a cycle); the validator, the one home of those rules, then says
why, so `run` raises the very diagnostics `zero check` prints (a
ValidationError), and the fast path never pays for the validator's work.
*Order* is Kahn's algorithm with a heap on declaration index, so among ready
nodes the one declared first always runs first and the trace is deterministic.
*Execute* is a tight loop over the step tuples. No node runs unless the whole
graph compiled, ordered and fits the step limit, so a bad graph never leaves
half its `SaveState`s behind.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Any

from zerolang.runtime.builtins import BUILTINS, Params, RunContext
from zerolang.runtime.catalog import OP_PARAMS
from zerolang.runtime.ports import MemoryPort, StateStore
from zerolang.runtime.signing import DigestSigner, Signer
from zerolang.runtime.state import MemoryStateStore
from zerolang.runtime.validator import validate
from zerolang.runtime.values import (
    Confidence,
    Value,
    as_number,
    canonical_json,
    from_literal,
    is_truthy,
    to_json,
)
from zerolang.syntax import ast
from zerolang.syntax.dependencies import SENDER_CONFIDENCE, implicit_reads
from zerolang.util.errors import RunError, ValidationError, ZeroError
from zerolang.util.gcpause import paused_gc
from zerolang.util.limits import DEFAULT_MAX_STEPS, Limits, Meter


@dataclass(slots=True)
class RunResult:
    """What a run produced: named outputs, the trace, the run's confidence and its execution hash."""

    outputs: dict[str, object]
    trace: list[str]
    confidence: float
    hash: str  # 64 lowercase hex digits

    def to_json(self) -> dict[str, object]:
        """The `zero run --json` document."""
        return {
            "outputs": {name: to_json(value) for name, value in self.outputs.items()},
            "trace": list(self.trace),
            "confidence": self.confidence,
            "hash": self.hash,
        }


# Step kinds. A step is (kind, payload, params, input indexes, input fields or None);
# the payload's type depends on the kind (see `_compile`), hence `Any`.
_OPERATION, _CONSTANT, _EXTERNAL, _LOOKUP, _ROUTE, _PERMISSION = range(6)
_KINDS = {
    "Operation": _OPERATION,
    "Constant": _CONSTANT,
    "External": _EXTERNAL,
    "Lookup": _LOOKUP,
    "Route": _ROUTE,
    "Permission": _PERMISSION,
}
_Step = tuple[int, Any, Params, tuple[int, ...], tuple[str | None, ...] | None]
_NO_PARAMS: Params = {}


class _Graph:
    """The facts every phase needs, read from the AST once: each node's entries, id and inputs.

    `inputs[i]` are the node indexes of node i's input references, `input_fields[i]`
    their `.field` parts (None when no reference has one), `deps[i]` those indexes
    plus the implicit Route / Permission dependencies (duplicates kept: Kahn counts
    them consistently). `in_order` says no node depends on a later one, so the
    declaration order is the execution order.
    """

    __slots__ = (
        "deps",
        "fields",
        "ids",
        "in_order",
        "index",
        "input_fields",
        "inputs",
        "nodes",
        "path",
        "source",
    )

    def __init__(self, graph: ast.Graph, path: str | None, source: str | None) -> None:
        self.path = path
        self.source = source
        self.nodes = nodes = graph.nodes
        self.fields: list[dict[str, ast.Value]] = []
        self.ids: list[str] = []
        self.index: dict[str, int] = {}
        all_fields = self.fields
        ids = self.ids
        index = self.index
        for position, node in enumerate(nodes):
            fields = {}
            for entry in node.entries:
                fields[entry.key] = entry.value  # later duplicates win, as in `Map.get`
            node_id = fields.get("id")
            if type(node_id) is not ast.String:
                raise Invalid
            name = node_id.value
            if name in index:
                raise Invalid
            index[name] = position
            ids.append(name)
            all_fields.append(fields)

        # Resolve every `inputs` list; this loop runs once per node, so it stays flat.
        self.inputs: list[tuple[int, ...]] = []
        self.input_fields: list[tuple[str | None, ...] | None] = []
        self.deps: list[tuple[int, ...]] = []
        inputs_append = self.inputs.append
        fields_append = self.input_fields.append
        deps_append = self.deps.append
        in_order = True
        for position, fields in enumerate(all_fields):
            raw = fields.get("inputs")
            field_names: list[str | None] | None = None
            if type(raw) is ast.Array:
                indexes: list[int] = []
                for item in raw.items:
                    if type(item) is not ast.String:
                        raise Invalid
                    reference = item.value
                    if "." in reference:
                        head, _, field = reference.partition(".")
                        if field_names is None:
                            field_names = [None] * len(indexes)
                        field_names.append(field)
                    else:
                        head = reference
                        if field_names is not None:
                            field_names.append(None)
                    target = index.get(head)
                    if target is None:
                        raise Invalid
                    if target >= position:
                        in_order = False
                    indexes.append(target)
                resolved = tuple(indexes)
            elif raw is None:
                resolved = ()
            else:
                raise Invalid
            inputs_append(resolved)
            fields_append(None if field_names is None else tuple(field_names))
            deps = resolved
            kind = fields.get("type")
            if type(kind) is ast.String and (kind.value == "Route" or kind.value == "Permission"):
                # The shared rule (zerolang.syntax.dependencies); reading itself makes a node its own
                # dependency: a cycle, as the validator says.
                extra = tuple(index[read.value] for read in implicit_reads(fields, index))
                if any(target >= position for target in extra):
                    in_order = False
                deps = resolved + extra
            deps_append(deps)
        self.in_order = in_order

    def error(self, message: str, span: ast.Span | None) -> RunError:
        return RunError(message, path=self.path, span=span, source=self.source)

    def order(self) -> list[int]:
        """Kahn's algorithm; among ready nodes the one declared first runs first."""
        count = len(self.nodes)
        if self.in_order:
            # Every dependency is declared earlier, so by induction the smallest
            # unrun node is always ready: Kahn with a min-heap yields 0, 1, 2, ...
            return list(range(count))
        waiting = [len(deps) for deps in self.deps]
        users: list[list[int]] = [[] for _ in range(count)]
        for position, deps in enumerate(self.deps):
            for dep in deps:
                users[dep].append(position)
        ready = [position for position in range(count) if waiting[position] == 0]  # sorted, so a heap
        order: list[int] = []
        while ready:
            position = heappop(ready)
            order.append(position)
            for user in users[position]:
                waiting[user] -= 1
                if waiting[user] == 0:
                    heappush(ready, user)
        if len(order) < count:
            raise Invalid  # a cycle: the validator names its nodes
        return order


class Invalid(Exception):
    """Compile found that the graph cannot run; `explain` asks the validator why."""


def explain(graph: ast.Graph, path: str | None, source: str | None) -> ZeroError:
    """The validator's diagnostics for a graph compile refused, as the error to raise."""
    problems = validate(graph, path)
    if problems:
        return ValidationError(problems, source=source)
    # Unreachable while compile checks a subset of the validator's rules (a property test holds it).
    return RunError("the graph cannot run, but the validator finds no problem", path=path, source=source)


def execution_order(graph: ast.Graph) -> list[ast.Node]:
    """The nodes in the order `run` executes them; raises ValidationError when the graph cannot run."""
    try:
        facts = _Graph(graph, None, None)
        return [facts.nodes[position] for position in facts.order()]
    except Invalid:
        raise explain(graph, None, None) from None


class Program:
    """A graph compiled once, to run any number of times: node table, steps, order, hash parts.

    `run(graph)` compiles and runs once; code that runs the same graph again
    and again (a server, a benchmark, `zero run` over many inputs) keeps a
    `Program` instead and pays only for execution and the execution hash.
    A Program reads the AST when it is made: it does not see later edits.
    Values of Constant nodes are made once and shared by every run's outputs:
    treat outputs as read-only, as the builtins treat their inputs.
    """

    __slots__ = ("_hashed", "_template", "facts", "order", "outputs", "steps", "trace")

    def __init__(self, graph: ast.Graph, path: str | None = None, source: str | None = None) -> None:
        # Compiling allocates a few small containers per node while the whole AST
        # is alive; nothing here creates reference cycles (see zerolang.util.gcpause).
        with paused_gc():
            try:
                self.facts = facts = _Graph(graph, path, source)
                self.steps = steps = _compile(facts)
                self.order = order = facts.order()
            except Invalid:
                raise explain(graph, path, source) from None
            self.outputs = list(graph.outputs)
            ids = facts.ids
            self.trace = [ids[position] for position in order]
            # The execution hash reads every node's id and value as bytes. Ids and Constant
            # values are the same on every run: encoded once, here, and every stretch of them
            # between two computed values joined into one piece of `_template`. A run fills the
            # computed values' slots (`_hashed`: the positions whose values they are) in place.
            template: list[bytes] = []
            hashed: list[int] = []
            fixed: list[bytes] = []
            for position in order:
                fixed.append(ids[position].encode("utf-8", "surrogatepass"))
                if steps[position][0] == _CONSTANT:
                    fixed.append(canonical_json(steps[position][1]))
                else:
                    template.append(b"".join(fixed))
                    template.append(b"")
                    hashed.append(position)
                    fixed = []
            template.append(b"".join(fixed))
            self._template = template
            self._hashed = hashed

    def run(
        self,
        inputs: dict[str, object] | None = None,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        state: StateStore | None = None,
        signer: Signer | None = None,
        clock: Callable[[], float] | None = None,
        limits: Limits | None = None,
        memory: MemoryPort | None = None,
    ) -> RunResult:
        """Run with the given run inputs (runtime values, by External name); see `run`."""
        facts, order = self.facts, self.order
        if len(order) > max_steps:
            position = order[max_steps]
            raise facts.error(
                f"step limit {max_steps} reached: node `{facts.ids[position]}` would be step"
                f" {max_steps + 1} of {len(order)}",
                facts.nodes[position].span,
            )
        context = RunContext(
            state if state is not None else MemoryStateStore(),
            signer if signer is not None else DigestSigner(),
            clock if clock is not None else time.time,
            memory,
        )
        with paused_gc():
            meter = Meter(limits if limits is not None else Limits())
            values, confidence = _execute(
                facts, self.steps, order, inputs if inputs is not None else {}, context, meter.charge
            )
            return RunResult(
                outputs=_outputs(self.outputs, facts.index, values),
                trace=list(self.trace),
                confidence=float(confidence),
                hash=self._execution_hash(values),
            )

    def _execution_hash(self, values: list[Value]) -> str:
        """SHA-256 over each traced node's id (UTF-8) followed by its value's canonical JSON."""
        parts = self._template.copy()
        encode = canonical_json
        slot = 1
        for position in self._hashed:
            value = values[position]
            kind = type(value)
            # canonical_json's own fast paths for the commonest values, without the call.
            if kind is int:
                parts[slot] = int.__repr__(value).encode()
            elif kind is bool:
                parts[slot] = b"true" if value else b"false"
            else:
                parts[slot] = encode(value)
            slot += 2
        return hashlib.sha256(b"".join(parts)).hexdigest()


def run(
    graph: ast.Graph,
    inputs: dict[str, object] | None = None,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    state: StateStore | None = None,
    signer: Signer | None = None,
    clock: Callable[[], float] | None = None,
    path: str | None = None,
    source: str | None = None,
    limits: Limits | None = None,
    memory: MemoryPort | None = None,
) -> RunResult:
    """Run `graph` with the given run inputs (runtime values, by External name).

    A graph that cannot run raises the validator's ValidationError (every
    problem, as `zero check` reports them); a failure while running is a
    RunError. Both carry `path`, spans and `source`, so they print as
    `file:line:col: message`. `limits` bounds the size and nesting of what
    operations make (zerolang.util.limits; default: its defaults). `memory` is the
    MemoryStore the memory ops (`MemoryStore`, `MemoryRecall`, `MemoryQuery`) use.
    To run one graph many times, compile it once: `Program(graph).run(inputs)`.
    """
    program = Program(graph, path, source)
    return program.run(
        inputs, max_steps=max_steps, state=state, signer=signer, clock=clock, limits=limits, memory=memory
    )


def _execute(
    facts: _Graph,
    steps: list[_Step],
    order: list[int],
    run_inputs: dict[str, object],
    context: RunContext,
    charge: Callable[[Value], str | None],
) -> tuple[list[Value], float]:
    """The hot loop: each step in order, its value stored by node index.

    What an operation makes is charged to the run's meter (zerolang.util.limits): the only
    values that can grow beyond what the source and the inputs hold.
    """
    values: list[Value] = [None] * len(steps)
    confidence = 1.0
    operation, constant, external, lookup, route = _OPERATION, _CONSTANT, _EXTERNAL, _LOOKUP, _ROUTE
    for position in order:
        kind, payload, params, indexes, field_names = steps[position]
        if kind == operation:
            if field_names is None:
                arguments = [values[i] for i in indexes]
            else:
                arguments = [_field(values[i], f) for i, f in zip(indexes, field_names, strict=True)]
            try:
                made = values[position] = payload(arguments, params, context)
            except Exception as error:
                raise _op_error(facts, position, error) from error
            if type(made) is list or type(made) is dict or type(made) is str:
                problem = charge(made)
                if problem is not None:
                    raise _op_error(facts, position, RunError(problem))
        elif kind == constant:
            values[position] = payload
        elif kind == external:
            values[position] = run_inputs.get(payload)
        elif kind == lookup:
            table, default = payload
            key: Value = None
            if indexes:
                key = values[indexes[0]]
                if field_names is not None and field_names[0] is not None:
                    key = _field(key, field_names[0])
            values[position] = table.get(key if type(key) is str else "", default)
        elif kind == route:
            values[position], factor = _route(payload, values)
            confidence *= factor
        else:
            values[position], factor = _permission(payload, values)
            confidence *= factor
    return values, confidence


def _field(value: Value, name: str | None) -> Value:
    """`node.field`: the field when the node's value is a map, else null."""
    if name is None:
        return value
    return value.get(name) if type(value) is dict else None


def _outputs(names: list[str], index: dict[str, int], values: list[Value]) -> dict[str, object]:
    """Each output naming a node (`node` exactly, else `node.field`), keyed as written."""
    outputs: dict[str, object] = {}
    for name in names:
        position = index.get(name)
        if position is not None:
            outputs[name] = values[position]
            continue
        head, dot, field = name.partition(".")
        position = index.get(head)
        if dot and position is not None:
            outputs[name] = _field(values[position], field)
    return outputs


def _op_error(facts: _Graph, position: int, error: Exception) -> RunError:
    op = facts.fields[position].get("op")
    op_name = op.value if isinstance(op, ast.String) else "?"
    detail = error.message if isinstance(error, ZeroError) else f"{type(error).__name__}: {error}"
    return facts.error(f"node `{facts.ids[position]}` ({op_name}): {detail}", facts.nodes[position].span)


# -- Route and Permission -----------------------------------------------------------------

# A compiled condition: (input node index or -1, input name, match_value or None,
# whether threshold > 0, target, confidence).
_Condition = tuple[int, str, str | None, bool, str, Confidence]


def _route(conditions: tuple[_Condition, ...], values: list[Value]) -> tuple[Value, float]:
    """The first matching condition's target, and the factor for the run's confidence."""
    for position, name, match_value, needs_truthy, target, confidence in conditions:
        value = values[position] if position >= 0 else None
        if match_value is not None:
            matched = type(value) is str and value == match_value
        elif needs_truthy:
            matched = is_truthy(value)
        else:
            matched = True
        if matched:
            return {"target": target, "confidence": confidence, "matched_input": name}, confidence
    return None, 1.0


def _permission(payload: tuple[str, float, int], values: list[Value]) -> tuple[Value, float]:
    """Granted when `sender_confidence` (0.5 when absent) reaches `min_confidence`; denied costs x0.1."""
    action, minimum, sender = payload
    number = as_number(values[sender]) if sender >= 0 else None
    that = Confidence(0.5 if number is None else number)
    granted = that >= minimum
    return {"granted": granted, "confidence": that, "action": action}, (that if granted else 0.1)


# -- compiling one node -------------------------------------------------------------------


def _compile(facts: _Graph) -> list[_Step]:
    """One step per node: check its type-specific fields and convert its literals, once per run.

    Constant and Operation, the bulk of every graph, are handled inline.
    """
    steps: list[_Step] = []
    builtins = BUILTINS
    string = ast.String
    for position, fields in enumerate(facts.fields):
        type_value = fields.get("type")
        kind = type_value.value if type(type_value) is string else None
        if kind == "Constant":
            value = fields.get("value")
            if value is None or ("params" in fields and type(fields["params"]) is not ast.Map):
                raise Invalid
            steps.append(
                (
                    _CONSTANT,
                    from_literal(value),
                    _NO_PARAMS,
                    facts.inputs[position],
                    facts.input_fields[position],
                )
            )
        elif kind == "Operation":
            op_value = fields.get("op")
            op = op_value.value if type(op_value) is ast.String else None
            if op is None or (builtin := builtins.get(op)) is None:
                raise Invalid
            raw_params = fields.get("params")
            params = {} if raw_params is None else _params(raw_params)
            node_level = OP_PARAMS.get(op)
            if node_level:
                # Ours: op parameters written at node level count too; `params` wins.
                for key in node_level:
                    if key not in params and key in fields:
                        params[key] = from_literal(fields[key])
            steps.append((_OPERATION, builtin, params, facts.inputs[position], facts.input_fields[position]))
        else:
            steps.append(_compile_other(facts, position, kind, type_value))
    return steps


def _params(value: ast.Value) -> Params:
    """The node's `params` as a fresh dict (the node-level merge adds to it)."""
    if not isinstance(value, ast.Map):
        raise Invalid
    return {entry.key: from_literal(entry.value) for entry in value.entries}


def _compile_other(facts: _Graph, position: int, kind: str | None, type_value: ast.Value | None) -> _Step:
    """The rarer node types; a missing or unknown type cannot run."""
    fields = facts.fields[position]
    indexes = facts.inputs[position]
    field_names = facts.input_fields[position]
    if kind is None or kind not in _KINDS or ("params" in fields and type(fields["params"]) is not ast.Map):
        raise Invalid  # every node's `params`, read or not, must be a map

    def text(key: str) -> str:
        value = fields.get(key)
        if not isinstance(value, ast.String):
            raise Invalid
        return value.value

    if kind == "External":
        return (_EXTERNAL, text("uri").removeprefix("input://"), _NO_PARAMS, indexes, field_names)
    if kind == "Lookup":
        table_value = fields.get("table")
        if not isinstance(table_value, ast.Map):
            raise Invalid
        table: dict[str, Value] = {}
        for entry in table_value.entries:
            item = from_literal(entry.value)
            table[entry.key] = item if type(item) is str else canonical_json(item).decode()
        default_value = fields.get("default")
        default = (
            "" if default_value is None or type(default_value) is ast.Null else from_literal(default_value)
        )
        return (_LOOKUP, (table, default), _NO_PARAMS, indexes, field_names)
    if kind == "Route":
        conditions = _compile_conditions(facts, fields.get("conditions"))
        return (_ROUTE, conditions, _NO_PARAMS, indexes, None)
    action = text("action")
    minimum = fields.get("min_confidence")
    if minimum is None or isinstance(minimum, ast.Null):
        raise Invalid
    threshold = _number(minimum, 0.0)
    sender = facts.index.get(SENDER_CONFIDENCE, -1)
    return (_PERMISSION, (action, threshold, sender), _NO_PARAMS, indexes, None)


def _compile_conditions(facts: _Graph, conditions: ast.Value | None) -> tuple[_Condition, ...]:
    if not isinstance(conditions, ast.Array):
        raise Invalid
    compiled: list[_Condition] = []
    for item in conditions.items:
        if not isinstance(item, ast.Map):
            raise Invalid
        keys = {entry.key: entry.value for entry in item.entries}
        input_value = keys.get("input")
        target_value = keys.get("target")
        if not isinstance(input_value, ast.String) or not isinstance(target_value, ast.String):
            raise Invalid
        match_value = keys.get("match_value")
        match: str | None = None
        if match_value is not None and not isinstance(match_value, ast.Null):
            if not isinstance(match_value, ast.String):
                raise Invalid
            match = match_value.value
        threshold = _number(keys.get("threshold"), 0.0)
        confidence = _number(keys.get("confidence"), 1.0)
        input_position = facts.index.get(input_value.value, -1)
        compiled.append(
            (
                input_position,
                input_value.value,
                match,
                threshold > 0,
                target_value.value,
                Confidence(confidence),
            )
        )
    return tuple(compiled)


def _number(value: ast.Value | None, default: float) -> float:
    """A numeric field (null or absent: `default`); anything else cannot run."""
    if value is None or isinstance(value, ast.Null):
        return default
    result = as_number(from_literal(value))
    if result is None:
        raise Invalid
    return result
