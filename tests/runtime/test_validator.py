"""The validator finds every reason a graph cannot run, each with its rule code and place."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from zerolang.runtime.validator import validate, validate_or_raise
from zerolang.syntax.parser import parse
from zerolang.util.errors import ValidationError


def problems(body: str, outputs: str = "[]") -> list[tuple[str, str]]:
    graph = parse(f'Graph {{ name: "t", nodes: [ {body} ], outputs: {outputs} }}')
    return [(problem.code, problem.message) for problem in validate(graph, "t.0")]


def codes(body: str, outputs: str = "[]") -> list[str]:
    return [code for code, _ in problems(body, outputs)]


def test_valid_graph_has_no_problems() -> None:
    body = '{ id: a, type: Constant, value: 1 }, { id: b, type: Operation, op: Add, inputs: ["a", "a.x"] }'
    assert problems(body, '["b", "a.x"]') == []


def test_missing_graph_fields() -> None:
    graph = parse("Graph { }")
    assert [p.message for p in validate(graph)] == [
        "the graph has no `name` field",
        "the graph has no `nodes` field",
        "the graph has no `outputs` field",
    ]


def test_graph_fields_of_the_wrong_kind() -> None:
    graph = parse('Graph { name: 1, nodes: {}, outputs: "a" }')
    assert {p.code for p in validate(graph)} == {"Z014"}
    assert len(validate(graph)) == 3


@pytest.mark.parametrize(
    ("node", "message"),
    [
        ("{ type: Constant, value: 1 }", "this node has no `id` field"),
        ("{ id: a, value: 1 }", "node `a` has no `type` field"),
        ("{ id: a, type: Constant }", "node `a` is a `Constant` but has no `value` field"),
        ("{ id: a, type: Operation }", "node `a` is an `Operation` but has no `op` field"),
        ("{ id: a, type: External }", "node `a` is an `External` but has no `uri` field"),
        ("{ id: a, type: Lookup }", "node `a` is a `Lookup` but has no `table` field"),
        ("{ id: a, type: Route }", "node `a` is a `Route` but has no `conditions` field"),
        (
            "{ id: a, type: Permission, action: x }",
            "node `a` is a `Permission` but has no `min_confidence` field",
        ),
        ("{ id: a, type: Route, conditions: [{ input: a }] }", "a route condition has no `target` field"),
    ],
)
def test_required_fields(node: str, message: str) -> None:
    assert ("Z012", message) in problems(node)


def test_aggregate_has_its_own_message() -> None:
    assert problems("{ id: a, type: Aggregate, inputs: [] }") == [
        ("Z001", "node type `Aggregate` does not exist in the runtime: use `Operation` with `op: MergeMap`")
    ]


@pytest.mark.parametrize(
    ("type_name", "hint"),
    [("Input", "External"), ("Branch", "Route"), ("constant", "Constant"), ("Operaton", "Operation")],
)
def test_unknown_type_with_did_you_mean(type_name: str, hint: str) -> None:
    assert problems(f"{{ id: a, type: {type_name} }}") == [
        ("Z002", f"unknown node type `{type_name}`: did you mean `{hint}`?")
    ]


def test_unknown_type_without_a_close_match_lists_the_types() -> None:
    ((code, message),) = problems("{ id: a, type: RateLimit }")
    assert code == "Z002" and "External, Constant, Operation, Lookup, Route, Permission" in message


@pytest.mark.parametrize(
    ("op", "hint"), [("Eq", "Equals"), ("Hsh", "Hash"), ("concat", "Concat"), ("JsonGet", "GetField")]
)
def test_unknown_op_with_did_you_mean(op: str, hint: str) -> None:
    assert problems(f"{{ id: a, type: Operation, op: {op} }}") == [
        ("Z003", f"unknown op `{op}`: did you mean `{hint}`?")
    ]


def test_unknown_op_without_match() -> None:
    assert codes("{ id: a, type: Operation, op: HttpGet }") == ["Z003"]


def test_input_naming_no_node_names_both() -> None:
    assert problems('{ id: a, type: Operation, op: Identity, inputs: ["input.metadata"] }') == [
        ("Z004", "node `a` reads input `input.metadata`, but no node is named `input`")
    ]


def test_input_typo_gets_a_suggestion() -> None:
    body = '{ id: message, type: Constant, value: 1 }, { id: b, type: Operation, op: Identity, inputs: ["mesage"] }'
    assert problems(body) == [
        ("Z004", "node `b` reads input `mesage`, but no node is named `mesage`: did you mean `message`?")
    ]


def test_cycle_names_its_nodes_in_flow_order() -> None:
    body = (
        '{ id: a, type: Operation, op: Identity, inputs: ["c"] },'
        '{ id: b, type: Operation, op: Identity, inputs: ["a"] },'
        '{ id: c, type: Operation, op: Identity, inputs: ["b"] },'
        '{ id: d, type: Operation, op: Identity, inputs: ["c"] }'
    )
    assert problems(body) == [("Z005", "cycle between nodes: a -> b -> c -> a")]


def test_self_loop_is_a_cycle() -> None:
    assert problems('{ id: a, type: Operation, op: Identity, inputs: ["a"] }') == [
        ("Z005", "cycle between nodes: a -> a")
    ]


def test_route_condition_input_counts_as_a_dependency_for_cycles() -> None:
    body = (
        '{ id: r, type: Route, conditions: [{ input: "x", target: t }] },'
        '{ id: x, type: Operation, op: Identity, inputs: ["r"] }'
    )
    assert codes(body) == ["Z005"]


def test_duplicate_ids() -> None:
    assert problems("{ id: a, type: Constant, value: 1 }, { id: a, type: Constant, value: 2 }") == [
        ("Z006", "duplicate node id `a` (first defined on line 1)")
    ]


def test_output_naming_no_node() -> None:
    assert problems("{ id: a, type: Constant, value: 1 }", '["a", "b.field"]') == [
        ("Z007", "output `b.field` names no node")
    ]


@pytest.mark.parametrize(
    "node",
    [
        "{ id: 1, type: Constant, value: 1 }",
        '{ id: a, type: Constant, value: 1, inputs: "x" }',
        "{ id: a, type: Constant, value: 1, inputs: [1] }",
        "{ id: a, type: Constant, value: 1, params: [] }",
        "{ id: a, type: Operation, op: 3 }",
        "{ id: a, type: Lookup, table: [] }",
        "{ id: a, type: Route, conditions: {} }",
        '{ id: a, type: Route, conditions: ["x"] }',
        '{ id: a, type: Permission, action: x, min_confidence: "high" }',
        "{ id: a, type: External, uri: 5 }",
    ],
)
def test_fields_of_the_wrong_kind(node: str) -> None:
    assert "Z014" in codes(node)


def test_a_node_must_be_a_map() -> None:
    assert codes('"just a string"') == ["Z014"]


def test_every_problem_carries_its_span() -> None:
    source = 'Graph {\n  name: "t",\n  nodes: [\n    { id: a, type: Operation, op: Eq },\n  ],\n  outputs: ["zz"],\n}\n'
    found = validate(parse(source), "g.0")
    assert [(p.code, p.span.line, p.span.column) for p in found if p.span] == [
        ("Z003", 4, 35),
        ("Z007", 6, 13),
    ]
    assert found[0].headline() == "g.0:4:35: Z003 unknown op `Eq`: did you mean `Equals`?"


def test_validation_error_renders_all_problems(snapshot: SnapshotAssertion) -> None:
    source = (
        "# a graph with one of everything wrong\n"
        "Graph {\n"
        '    name: "broken",\n'
        "    nodes: [\n"
        '        { id: "merge", type: Aggregate, inputs: ["a", "b"] },\n'
        '        { id: "a", type: Operation, op: Eq, inputs: ["b"] },\n'
        '        { id: "b", type: Operation, op: Identity, inputs: ["a"] },\n'
        '        { id: "b", type: Input },\n'
        '        { id: "c", type: Constant },\n'
        '        { id: "d", type: Operation, op: Identity, inputs: ["input.metadata"] },\n'
        "    ],\n"
        '    outputs: ["merge.schema", "nowhere"],\n'
        "}\n"
    )
    with pytest.raises(ValidationError) as caught:
        validate_or_raise(parse(source, "broken.0"), "broken.0", source)
    assert caught.value.render() == snapshot
    assert [d.code for d in caught.value.diagnostics] == [
        "Z001",
        "Z005",
        "Z003",
        "Z006",
        "Z002",
        "Z012",
        "Z004",
        "Z007",
    ]


def test_a_permission_written_with_threshold_is_told_to_rename_it() -> None:
    from zerolang.runtime.validator import validate as check
    from zerolang.syntax.parser import parse as parse_graph

    graph = parse_graph(
        'Graph { name: "g", nodes: [ { id: "p", type: Permission, action: "a", threshold: 0.8 } ], outputs: [] }'
    )
    (problem,) = check(graph)
    assert problem.message == (
        "node `p` is a `Permission` but has no `min_confidence` field (it has `threshold`: rename it to `min_confidence`)"
    )


def test_a_file_with_more_problems_than_the_cap_shows_the_first_and_says_how_many_more() -> None:
    from zerolang.runtime.validator import validate
    from zerolang.syntax.parser import parse
    from zerolang.util.errors import ValidationError
    from zerolang.util.limits import MAX_DIAGNOSTICS

    count = MAX_DIAGNOSTICS  # two problems per node after the first: twice the cap, less two
    nodes = ['{ id: "n0", type: Constant, value: 1 }']
    nodes += [
        f'{{ id: "n{i}", type: Operation, op: Addd, inputs: ["n{i - 1}", "missing{i}"] }}'
        for i in range(1, count)
    ]
    source = 'Graph { name: "g", nodes: [' + ",\n".join(nodes) + f'], outputs: ["n{count - 1}"] }}\n'
    problems = validate(parse(source, "g.0"), "g.0")
    assert len(problems) == 2 * (count - 1)
    assert [p.span.start for p in problems] == sorted(p.span.start for p in problems)  # type: ignore[union-attr]
    assert all("did you mean `Add`?" in p.message for p in problems if p.code == "Z003")
    text = ValidationError(problems, source=source).render()
    assert text.count("[Z00") == MAX_DIAGNOSTICS
    assert text.splitlines()[-1] == (
        f"... and {len(problems) - MAX_DIAGNOSTICS} more problems (only the first {MAX_DIAGNOSTICS} of a file are shown)"
    )


def test_an_unknown_input_among_many_ids_still_gets_its_hint() -> None:
    from zerolang.runtime.validator import validate
    from zerolang.syntax.parser import parse

    nodes = [f'{{ id: "step_{i}", type: Constant, value: {i} }}' for i in range(6000)]
    nodes.append('{ id: "message", type: Constant, value: "hi" }')
    nodes.append('{ id: "out", type: Operation, op: Identity, inputs: ["mesage"] }')
    source = 'Graph { name: "g", nodes: [' + ",\n".join(nodes) + '], outputs: ["out"] }\n'
    (problem,) = validate(parse(source, "g.0"), "g.0")
    assert problem.message.endswith("did you mean `message`?")
