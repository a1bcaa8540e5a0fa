"""Running graphs: node types, ordering, outputs, the execution hash and run errors (spec §2-§3)."""

from __future__ import annotations

import hashlib
import json

import pytest

from zerolang.runtime.interpreter import RunResult, execution_order, run
from zerolang.runtime.state import MISSING, MemoryStateStore
from zerolang.runtime.validator import validate
from zerolang.runtime.values import Confidence, Hash
from zerolang.syntax.parser import parse
from zerolang.util.errors import RunError, ValidationError


def graph_of(nodes: str, outputs: str = "[]") -> str:
    return f'Graph {{ name: "t", nodes: [\n{nodes}\n], outputs: {outputs} }}'


def run_nodes(nodes: str, outputs: str = "[]", **options: object) -> RunResult:
    return run(parse(graph_of(nodes, outputs)), **options)  # type: ignore[arg-type]


def run_error(nodes: str, **options: object) -> RunError:
    source = graph_of(nodes)
    with pytest.raises(RunError) as caught:
        run(parse(source, "t.0"), path="t.0", source=source, **options)  # type: ignore[arg-type]
    return caught.value


# -- the six node types -------------------------------------------------------------------


def test_constant() -> None:
    result = run_nodes(
        '{ id: "a", type: Constant, value: { k: [1, 2.5, "s", null, true] } },'
        '{ id: "b", type: Constant, value: 3 }',
        '["a", "b"]',
    )
    assert result.outputs == {"a": {"k": [1, 2.5, "s", None, True]}, "b": 3}
    assert type(result.outputs["b"]) is int


def test_external_reads_run_inputs() -> None:
    nodes = """
        { id: "m", type: External, uri: "input://message" },
        { id: "plain", type: External, uri: "user" },
        { id: "absent", type: External, uri: "input://nothing" },
    """
    result = run_nodes(nodes, '["m", "plain", "absent"]', inputs={"message": "/help", "user": {"id": 7}})
    assert result.outputs == {"m": "/help", "plain": {"id": 7}, "absent": None}


def test_operation_applies_its_builtin() -> None:
    nodes = """
        { id: "a", type: Constant, value: 2 },
        { id: "b", type: Constant, value: 3 },
        { id: "sum", type: Operation, op: Add, inputs: ["a", "b", "a"] },
        { id: "words", type: Operation, op: Split, inputs: ["text"], params: { separator: "-" } },
        { id: "text", type: Constant, value: "x-y" },
    """
    result = run_nodes(nodes, '["sum", "words"]')
    assert result.outputs == {"sum": 7.0, "words": ["x", "y"]}


@pytest.mark.parametrize(
    ("key", "expected"),
    [('"/help"', "show help"), ('"/other"', "fallback"), ("42", "empty key"), ('"/n"', '{"n":1}')],
)
def test_lookup(key: str, expected: str) -> None:
    nodes = f"""
        {{ id: "k", type: Constant, value: {key} }},
        {{ id: "l", type: Lookup, inputs: ["k"],
           table: {{ "/help": "show help", "": "empty key", "/n": {{ n: 1 }} }}, default: "fallback" }},
    """
    assert run_nodes(nodes, '["l"]').outputs["l"] == expected


def test_lookup_without_default_or_input() -> None:
    nodes = """
        { id: "k", type: Constant, value: "missing" },
        { id: "l", type: Lookup, inputs: ["k"], table: { a: "b" } },
        { id: "n", type: Lookup, table: { a: "b" }, default: null },
        { id: "d", type: Lookup, inputs: ["k"], table: {}, default: 5 },
    """
    assert run_nodes(nodes, '["l", "n", "d"]').outputs == {"l": "", "n": "", "d": 5}


def test_route_match_value_threshold_and_default() -> None:
    nodes = """
        { id: "cmd", type: Constant, value: "/status" },
        { id: "flag", type: Constant, value: [1] },
        { id: "empty", type: Constant, value: "" },
        { id: "r1", type: Route, conditions: [
            { input: "cmd", match_value: "/help", target: "help" },
            { input: "cmd", match_value: "/status", target: "status", confidence: 0.8 },
        ] },
        { id: "r2", type: Route, conditions: [
            { input: "empty", threshold: 0.5, target: "never" },
            { input: "flag", threshold: 0.5, target: "flagged", confidence: 0.5 },
        ] },
        { id: "r3", type: Route, conditions: [ { input: "cmd", target: "default" } ] },
        { id: "r4", type: Route, conditions: [
            { input: "flag", match_value: "[1]", target: "no: not a string" },
            { input: "nobody", threshold: 1, target: "no: absent node is null" },
        ] },
    """
    result = run_nodes(nodes, '["r1", "r2", "r3", "r4"]')
    assert result.outputs["r1"] == {"target": "status", "confidence": 0.8, "matched_input": "cmd"}
    assert type(result.outputs["r1"]["confidence"]) is Confidence
    assert result.outputs["r2"] == {"target": "flagged", "confidence": 0.5, "matched_input": "flag"}
    assert result.outputs["r3"] == {"target": "default", "confidence": 1.0, "matched_input": "cmd"}
    assert result.outputs["r4"] is None
    assert result.confidence == pytest.approx(0.8 * 0.5 * 1.0)


@pytest.mark.parametrize(
    ("sender", "granted", "factor"),
    [("0.9", True, 0.9), ("0.7", True, 0.7), ("0.3", False, 0.1), ('"high"', False, 0.1), (None, False, 0.1)],
)
def test_permission(sender: str | None, granted: bool, factor: float) -> None:
    nodes = '{ id: "p", type: Permission, action: "send_message", min_confidence: 0.7 }'
    if sender is not None:
        nodes += f', {{ id: "sender_confidence", type: Constant, value: {sender} }}'
    result = run_nodes(nodes, '["p"]')
    that = 0.5 if sender in (None, '"high"') else float(sender)
    assert result.outputs["p"] == {"granted": granted, "confidence": that, "action": "send_message"}
    assert type(result.outputs["p"]["confidence"]) is Confidence
    assert result.confidence == pytest.approx(factor)


def test_permission_granted_at_default_confidence() -> None:
    result = run_nodes('{ id: "p", type: Permission, action: "read", min_confidence: 0.5 }', '["p"]')
    assert result.outputs["p"] == {"granted": True, "confidence": 0.5, "action": "read"}
    assert result.confidence == 0.5


# -- ordering -----------------------------------------------------------------------------


def test_kahn_order_prefers_the_node_declared_first() -> None:
    nodes = """
        { id: "late", type: Operation, op: Identity, inputs: ["b"] },
        { id: "b", type: Constant, value: 1 },
        { id: "a", type: Constant, value: 2 },
        { id: "c", type: Operation, op: Identity, inputs: ["a"] },
    """
    result = run_nodes(nodes)
    assert result.trace == ["b", "late", "a", "c"]
    assert [node.id for node in execution_order(parse(graph_of(nodes)))] == result.trace


def test_route_and_permission_inputs_run_first_whatever_the_declaration_order() -> None:
    after = """
        { id: "route", type: Route, conditions: [ { input: "cmd", match_value: "go", target: "went" } ] },
        { id: "perm", type: Permission, action: "act", min_confidence: 0.8 },
        { id: "cmd", type: Constant, value: "go" },
        { id: "sender_confidence", type: Constant, value: 0.9 },
    """
    before = """
        { id: "cmd", type: Constant, value: "go" },
        { id: "sender_confidence", type: Constant, value: 0.9 },
        { id: "route", type: Route, conditions: [ { input: "cmd", match_value: "go", target: "went" } ] },
        { id: "perm", type: Permission, action: "act", min_confidence: 0.8 },
    """
    late, early = run_nodes(after, '["route", "perm"]'), run_nodes(before, '["route", "perm"]')
    assert late.trace == ["cmd", "route", "sender_confidence", "perm"]
    assert late.outputs == early.outputs
    assert late.outputs["route"] == {"target": "went", "confidence": 1.0, "matched_input": "cmd"}
    assert late.outputs["perm"]["granted"] is True  # type: ignore[index]
    assert late.confidence == early.confidence == pytest.approx(0.9)


# -- inputs, outputs, params --------------------------------------------------------------


def test_field_references_in_inputs_and_outputs() -> None:
    nodes = """
        { id: "m", type: Constant, value: { user: { name: "ada" }, n: 2 } },
        { id: "s", type: Constant, value: "not a map" },
        { id: "name", type: Operation, op: Identity, inputs: ["m.user"] },
        { id: "none", type: Operation, op: Identity, inputs: ["s.user"] },
        { id: "mixed", type: Operation, op: Add, inputs: ["m.n", "m.n", "m"] },
    """
    outputs = '["name.name", "m.n", "none", "mixed", "m.missing", "s.x", "ghost", "ghost.x"]'
    result = run_nodes(nodes, outputs)
    assert result.outputs == {
        "name.name": "ada",
        "m.n": 2,
        "none": None,
        "mixed": 4.0,
        "m.missing": None,
        "s.x": None,
    }  # outputs naming no node are left out


def test_node_level_params_count_and_params_wins() -> None:
    nodes = """
        { id: "m", type: Constant, value: { target: "t", other: "o" } },
        { id: "level", type: Operation, op: GetField, inputs: ["m"], field: "target" },
        { id: "both", type: Operation, op: GetField, inputs: ["m"],
          field: "target", params: { field: "other" } },
        { id: "map", type: Operation, op: CreateMap, params: { a: 1 }, description: "not part of the map" },
    """
    result = run_nodes(nodes, '["level", "both", "map"]')
    assert result.outputs == {"level": "t", "both": "o", "map": {"a": 1}}


def test_run_result_to_json() -> None:
    nodes = """
        { id: "text", type: Constant, value: "x" },
        { id: "h", type: Operation, op: Hash, inputs: ["text"] },
        { id: "c", type: Constant, value: 1.5 },
    """
    result = run_nodes(nodes, '["h", "c"]')
    assert type(result.outputs["h"]) is Hash
    document = result.to_json()
    assert document == {
        "outputs": {"h": hashlib.sha256(b"x").hexdigest(), "c": 1.5},
        "trace": ["text", "h", "c"],
        "confidence": 1.0,
        "hash": result.hash,
    }
    json.dumps(document)  # plain JSON all the way down


def test_timestamp_uses_the_injected_clock() -> None:
    result = run_nodes('{ id: "now", type: Operation, op: Timestamp }', '["now"]', clock=lambda: 12.5)
    assert result.outputs == {"now": 12_500}


def test_state_store_is_shared_by_the_run() -> None:
    store = MemoryStateStore()
    nodes = """
        { id: "key", type: Constant, value: "s1" },
        { id: "v", type: Constant, value: { n: 1 } },
        { id: "save", type: Operation, op: SaveState, inputs: ["key", "v"] },
        { id: "load", type: Operation, op: LoadState, inputs: ["key", "save"] },
        { id: "fresh", type: Operation, op: LoadState, inputs: ["v"] },
    """
    result = run_nodes(nodes, '["load", "fresh"]', state=store)
    assert result.outputs["load"] == {"n": 1}
    assert result.outputs["fresh"] == {"session_id": '{"n":1}', "trust_score": 0.5, "message_count": 0}
    assert store.load("s1") == {"n": 1}


# -- the execution hash -------------------------------------------------------------------


def test_hash_of_a_two_node_graph_by_hand() -> None:
    nodes = """
        { id: "a", type: Constant, value: { b: 1, a: "x" } },
        { id: "b", type: Operation, op: Add, inputs: ["a.b", "a.b"] },
    """
    result = run_nodes(nodes, '["b"]')
    expected = hashlib.sha256(b'a{"a":"x","b":1}' + b"b2.0").hexdigest()
    assert result.hash == expected
    assert len(result.hash) == 64


def test_hash_is_deterministic_and_sensitive_to_values() -> None:
    nodes = """
        { id: "m", type: Operation, op: CreateMap, params: { z: 1, a: [1, 2], m: { y: null, b: 0.5 } } },
        { id: "h", type: Operation, op: Hash, inputs: ["m"] },
        { id: "s", type: Operation, op: Sign, inputs: ["m"] },
    """
    first = run_nodes(nodes)
    assert run_nodes(nodes).hash == first.hash
    assert run(parse(graph_of(nodes))).hash == first.hash
    reordered = nodes.replace("z: 1, a: [1, 2]", "a: [1, 2], z: 1")
    assert run_nodes(reordered).hash == first.hash  # map key order does not matter
    changed = nodes.replace("z: 1", "z: 2")
    assert run_nodes(changed).hash != first.hash


# -- run errors ---------------------------------------------------------------------------


def test_division_by_zero_names_the_node_and_op() -> None:
    error = run_error("""
        { id: "one", type: Constant, value: 1 },
        { id: "zero", type: Constant, value: 0 },
        { id: "ratio", type: Operation, op: Divide, inputs: ["one", "zero"] },
    """)
    assert error.message == "node `ratio` (Divide): division by zero"
    assert error.path == "t.0"
    assert error.span is not None
    assert (error.span.line, error.span.column) == (5, 9)
    assert error.headline() == "t.0:5:9: node `ratio` (Divide): division by zero"
    assert "^" in error.render()


def test_step_limit() -> None:
    nodes = ", ".join(f'{{ id: "n{i}", type: Constant, value: {i} }}' for i in range(5))
    assert len(run_nodes(nodes, max_steps=5).trace) == 5
    error = run_error(nodes, max_steps=4)
    assert "step limit 4 reached" in error.message
    assert "n4" in error.message


def test_step_limit_runs_nothing() -> None:
    store = MemoryStateStore()
    nodes = """
        { id: "v", type: Constant, value: 1 },
        { id: "save", type: Operation, op: SaveState, inputs: ["v", "v"] },
        { id: "more", type: Constant, value: 2 },
    """
    run_error(nodes, max_steps=2, state=store)
    assert store.load("1") is MISSING


def invalid(nodes: str, **options: object) -> list[tuple[str, str]]:
    """What `run` says of a graph that cannot run: the validator's (code, message) pairs, all of them."""
    source = graph_of(nodes)
    with pytest.raises(ValidationError) as caught:
        run(parse(source, "t.0"), path="t.0", source=source, **options)  # type: ignore[arg-type]
    error = caught.value
    assert error.diagnostics == validate(parse(source, "t.0"), "t.0"), "the validator's own diagnostics"
    assert error.path == "t.0" and error.source == source
    return [(diagnostic.code, diagnostic.message) for diagnostic in error.diagnostics]


def test_cycle_names_the_nodes_on_it() -> None:
    source = graph_of("""
        { id: "start", type: Constant, value: 1 },
        { id: "a", type: Operation, op: Identity, inputs: ["c", "start"] },
        { id: "b", type: Operation, op: Identity, inputs: ["a"] },
        { id: "c", type: Operation, op: Identity, inputs: ["b"] },
        { id: "downstream", type: Operation, op: Identity, inputs: ["c"] },
    """)
    with pytest.raises(ValidationError) as caught:
        run(parse(source))
    (problem,) = caught.value.diagnostics
    assert (problem.code, problem.message) == ("Z005", "cycle between nodes: a -> b -> c -> a")
    assert problem.span is not None and problem.span.line == 4  # node `a`, the first declared on the cycle


def test_self_reference_is_a_cycle() -> None:
    assert invalid('{ id: "me", type: Operation, op: Identity, inputs: ["me"] }') == [
        ("Z005", "cycle between nodes: me -> me")
    ]


def test_implicit_self_reads_are_cycles() -> None:
    route = '{ id: "r", type: Route, conditions: [ { input: "r", target: "t" } ] }'
    assert invalid(route) == [("Z005", "cycle between nodes: r -> r")]
    permission = '{ id: "sender_confidence", type: Permission, action: "a", min_confidence: 0 }'
    assert invalid(permission) == [("Z005", "cycle between nodes: sender_confidence -> sender_confidence")]


def test_dangling_input_names_node_and_reference() -> None:
    source = graph_of("""
        { id: "message", type: Constant, value: 1 },
        { id: "user", type: Operation, op: Identity, inputs: ["mesage.text"] },
    """)
    with pytest.raises(ValidationError) as caught:
        run(parse(source))
    (problem,) = caught.value.diagnostics
    assert problem.message == (
        "node `user` reads input `mesage.text`, but no node is named `mesage`: did you mean `message`?"
    )
    assert problem.span is not None and problem.span.line == 4  # at the reference itself


def test_unknown_op() -> None:
    assert invalid('{ id: "x", type: Operation, op: Eq, inputs: [] }') == [
        ("Z003", "unknown op `Eq`: did you mean `Equals`?")
    ]
    assert invalid('{ id: "x", type: Operation }') == [
        ("Z012", "node `x` is an `Operation` but has no `op` field")
    ]


def test_unknown_type() -> None:
    assert invalid('{ id: "agg", type: Aggregate, inputs: [] }') == [
        ("Z001", "node type `Aggregate` does not exist in the runtime: use `Operation` with `op: MergeMap`")
    ]
    assert invalid('{ id: "x", type: Blorp }')[0][0] == "Z002"
    assert invalid('{ id: "x" }') == [("Z012", "node `x` has no `type` field")]


def test_every_problem_is_reported_not_just_the_first() -> None:
    found = invalid('{ id: "x", type: Operation, op: Nope }, { id: "y", type: Blorp, inputs: ["z"] }')
    assert [code for code, _ in found] == ["Z003", "Z002", "Z004"]


def test_execution_order_refuses_what_run_refuses() -> None:
    with pytest.raises(ValidationError):
        execution_order(parse(graph_of('{ id: "me", type: Operation, op: Identity, inputs: ["me"] }')))


def test_compile_errors_come_before_any_side_effect() -> None:
    store = MemoryStateStore()
    invalid(
        """
        { id: "save", type: Operation, op: SaveState, inputs: ["k", "k"] },
        { id: "k", type: Constant, value: "key" },
        { id: "bad", type: Operation, op: Nope },
        """,
        state=store,
    )
    assert len(store) == 0


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        ("{ type: Constant, value: 1 }", ("Z012", "this node has no `id` field")),
        (
            '{ id: "a", type: Constant, value: 1 }, { id: "a", type: Constant, value: 2 }',
            ("Z006", "duplicate node id `a` (first defined on line 2)"),
        ),
        ('{ id: "c", type: Constant }', ("Z012", "node `c` is a `Constant` but has no `value` field")),
        (
            '{ id: "e", type: External, uri: 5 }',
            ("Z014", '`uri` must be a string like "input://message", not a number'),
        ),
        ('{ id: "l", type: Lookup, table: [] }', ("Z014", "`table` must be a map of strings, not a list")),
        (
            '{ id: "p", type: Permission, action: "x" }',
            ("Z012", "node `p` is a `Permission` but has no `min_confidence` field"),
        ),
        (
            '{ id: "p", type: Permission, action: "x", min_confidence: "high" }',
            ("Z014", "`min_confidence` must be a number, not a string"),
        ),
        (
            '{ id: "r", type: Route, conditions: [ { target: "t" } ] }',
            ("Z012", "a route condition has no `input` field"),
        ),
        (
            '{ id: "r", type: Route, conditions: [ 1 ] }',
            ("Z014", "a route condition must be a map, not a number"),
        ),
        (
            '{ id: "r", type: Route, conditions: [ { input: "r2", target: "t", match_value: 3 } ] }, { id: "r2", type: Constant, value: 1 }',
            ("Z014", "`match_value` must be a string, not a number"),
        ),
        (
            '{ id: "o", type: Operation, op: Identity, inputs: [1] }',
            ("Z014", "an input must be a node id string, not a number"),
        ),
        (
            '{ id: "o", type: Operation, op: Identity, inputs: "a" }',
            ("Z014", "`inputs` must be a list of node ids, not a string"),
        ),
        (
            '{ id: "o", type: Operation, op: Identity, inputs: null }',
            ("Z014", "`inputs` must be a list of node ids, not null"),
        ),
        (
            '{ id: "o", type: Operation, op: Identity, params: [] }',
            ("Z014", "`params` must be a map, not a list"),
        ),
    ],
)
def test_malformed_nodes_are_the_validators_diagnostics(nodes: str, expected: tuple[str, str]) -> None:
    assert invalid(nodes) == [expected]


def test_builtin_failures_become_run_errors() -> None:
    error = run_error(
        """
        { id: "sig", type: Constant, value: "x" },
        { id: "v", type: Operation, op: Verify, inputs: ["sig", "sig", "sig"] },
        """
    )
    assert error.message.startswith("node `v` (Verify): ")
    assert "public key" in error.message
