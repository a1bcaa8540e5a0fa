"""The rules' edges: what the value-shape reasoning knows, what counts as used, what is not a typo."""

from __future__ import annotations

import pytest

from tests.tools.lint.support import codes, graph, lint_text
from zerolang.syntax.parser import parse
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.shapes import Kind

MAP = '{ id: "m", type: Constant, value: { k: 1 } }'


def merged(*nodes: str, inputs: str) -> list[str | None]:
    return codes(
        graph(*nodes, f'{{ id: "out", type: Operation, op: MergeMap, inputs: {inputs} }}', outputs='["out"]')
    )


@pytest.mark.parametrize(
    ("node", "never_map"),
    [
        ('{ id: "x", type: Constant, value: null }', True),
        ('{ id: "x", type: Constant, value: [1] }', True),
        ('{ id: "x", type: Operation, op: Concat, inputs: ["m"] }', True),
        ('{ id: "x", type: Operation, op: Length, inputs: ["m"] }', True),
        ('{ id: "x", type: Operation, op: Sign, inputs: ["m"] }', True),
        ('{ id: "x", type: Operation, op: Identity, inputs: ["m.k"] }', True),  # the field holds 1
        ('{ id: "x", type: Operation, op: If, inputs: ["m", "m.k", "m.k"] }', True),
        ('{ id: "x", type: Lookup, inputs: ["m"], table: { a: "b" } }', True),
        ('{ id: "x", type: External, uri: "input://x" }', False),  # anything at all
        ('{ id: "x", type: Operation, op: GetField, inputs: ["m"], params: { field: "k" } }', False),
        ('{ id: "x", type: Operation, op: If, inputs: ["m", "m", "m.k"] }', False),
        ('{ id: "x", type: Route, conditions: [{ input: "m", target: "t" }], inputs: ["m"] }', False),
        ('{ id: "x", type: Lookup, inputs: ["m"], table: { a: "b" }, default: { c: 1 } }', False),
    ],
)
def test_what_can_never_be_a_map(node: str, never_map: bool) -> None:
    found = merged(MAP, node, inputs='["m", "x"]')
    assert ("Z008" in found) is never_map


@pytest.mark.parametrize(
    ("nodes", "inputs", "collide"),
    [
        ((MAP, '{ id: "n", type: Constant, value: { k: 2 } }'), '["m", "n"]', True),
        ((MAP, '{ id: "n", type: Constant, value: { j: 2 } }'), '["m", "n"]', False),
        ((MAP,), '["m", "m"]', False),  # the same map twice loses nothing
        ((MAP, '{ id: "n", type: Operation, op: CreateMap, params: { k: 2 } }'), '["m", "n"]', True),
        (
            (MAP, '{ id: "n", type: Operation, op: SetField, inputs: ["m", "m"], params: { field: "j" } }'),
            '["n", "m"]',
            True,  # n is m plus `j`: it has `k` too
        ),
        (
            (
                '{ id: "sender_confidence", type: Constant, value: 0.9 }',
                '{ id: "p", type: Permission, inputs: ["sender_confidence"], action: "a", min_confidence: 0 }',
                '{ id: "q", type: Permission, inputs: ["sender_confidence"], action: "b", min_confidence: 0 }',
            ),
            '["p", "q"]',
            True,
        ),
        ((MAP, '{ id: "n", type: External, uri: "input://n" }'), '["m", "n"]', False),  # unknown keys
    ],
)
def test_which_keys_certainly_collide(nodes: tuple[str, ...], inputs: str, collide: bool) -> None:
    assert ("Z009" in merged(*nodes, inputs=inputs)) is collide


def test_shapes_stop_at_cycles_and_unknown_nodes() -> None:
    source = graph(
        '{ id: "a", type: Operation, op: Identity, inputs: ["b"] }',
        '{ id: "b", type: Operation, op: Identity, inputs: ["a"] }',
        '{ id: "c", type: Operation, op: MergeMap, inputs: ["a", "nowhere"] }',
        outputs='["c"]',
    )
    assert codes(source) == ["Z005", "Z004"]


def test_a_long_chain_does_not_recurse_too_deep() -> None:
    count = 3000
    nodes = ['{ id: "n0", type: Constant, value: "text" }']
    nodes += [
        f'{{ id: "n{i}", type: Operation, op: Identity, inputs: ["n{i - 1}"] }}' for i in range(1, count)
    ]
    nodes.append(f'{{ id: "out", type: Operation, op: MergeMap, inputs: ["n{count - 1}", "n10"] }}')
    source = graph(*nodes, outputs='["out"]')
    found = codes(source)
    assert found == ["Z008"]  # n10 is a string; the far end is too far back to be sure of


def test_kind_names_read_as_english() -> None:
    context = Context(parse(graph(MAP, '{ id: "h", type: Operation, op: Hash, inputs: ["m"] }')), "")
    assert context.shapes.node("h").kinds == frozenset({Kind.HASH})
    assert context.shapes.node("h").describe() == "a hash"


def test_effects_count_as_used() -> None:
    source = graph(
        '{ id: "session", type: Constant, value: "s" }',
        '{ id: "value", type: Constant, value: 1 }',
        '{ id: "save", type: Operation, op: SaveState, inputs: ["session", "value"] }',
        '{ id: "sender_confidence", type: Constant, value: 0.9 }',
        '{ id: "p", type: Permission, inputs: ["sender_confidence"], action: "a", min_confidence: 0.5 }',
        outputs="[]",
    )
    assert codes(source) == []


def test_outputs_through_fields_count_as_use() -> None:
    source = graph(MAP, outputs='["m.k"]')
    assert codes(source) == []


def test_extra_fields_are_not_typos() -> None:
    source = graph(
        '{ id: "a", type: Constant, value: 1, description: "one", tensor_type: "i64", notes: [] }',
        outputs='["a"]',
    )
    assert codes(source) == []


@pytest.mark.parametrize(
    ("node", "message"),
    [
        ('{ id: "a", type: External, url: "input://a" }', "`url` is read by nothing: did you mean `uri`?"),
        ('{ id: "a", type: Constant, vaule: 1 }', "`vaule` is read by nothing: did you mean `value`?"),
        ('{ id: "a", type: Constant, values: 1 }', "`values` is read by nothing: did you mean `value`?"),
        (
            '{ id: "a", type: Permission, action: "x", confidence: 0.5 }',
            "`confidence` is read by nothing: did you mean `min_confidence`?",
        ),
    ],
)
def test_misspelled_node_fields(node: str, message: str) -> None:
    source = graph(node, '{ id: "sender_confidence", type: Constant, value: 1 }', outputs='["a"]')
    assert message in [finding.message for finding in lint_text(source) if finding.code == "Z015"]


def test_misspelled_graph_field() -> None:
    source = 'Graph { name: "t", nodes: [{ id: "a", type: Constant, value: 1 }], ouputs: ["a"] }'
    assert codes(source) == ["Z012", "Z015"]


def test_a_present_field_is_never_a_misspelling() -> None:
    source = graph('{ id: "a", type: Constant, value: 1, values: [1] }', outputs='["a"]')
    assert codes(source) == []


@pytest.mark.parametrize(
    ("first", "unreachable"),
    [
        ('{ input: "i", target: "a" }', True),
        ('{ input: "i", target: "a", threshold: 0 }', True),
        ('{ input: "i", target: "a", threshold: -1 }', True),
        ('{ input: "i", target: "a", match_value: null }', True),
        ('{ input: "i", target: "a", threshold: 0.5 }', False),
        ('{ input: "i", target: "a", match_value: "x" }', False),
    ],
)
def test_what_always_matches(first: str, unreachable: bool) -> None:
    route = f'{{ id: "r", type: Route, inputs: ["i"], conditions: [{first}, {{ input: "i", target: "b", match_value: "y" }}] }}'
    source = graph('{ id: "i", type: Constant, value: "y" }', route, outputs='["r"]')
    assert ("Z017" in codes(source)) is unreachable


def test_input_on_any_node_type() -> None:
    source = graph(
        '{ id: "a", type: Constant, value: "x" }',
        '{ id: "b", type: Operation, op: ToUpper, input: "a" }',
        outputs='["b"]',
    )
    [finding] = [finding for finding in lint_text(source) if finding.code == "Z013"]
    assert (
        finding.message
        == "an `Operation` reads its inputs from `inputs`, not `input`: this one reads nothing"
    )


def test_unread_params_say_what_the_op_reads_instead() -> None:
    source = graph(
        '{ id: "n", type: Constant, value: "x" }',
        '{ id: "label", type: Operation, op: Concat, inputs: ["n"], params: { prefix: "n=", suffix: "!" } }',
        '{ id: "field", type: Operation, op: GetField, inputs: ["n"], params: { field: "a", default: 0 } }',
        '{ id: "two", type: Operation, op: Equals, inputs: ["n", "n"], params: { compare: 1 } }',
        outputs='["label", "field", "two"]',
    )
    found = [(f.code, f.message, f.fix is not None) for f in lint_text(source) if f.code == "Z019"]
    reads_concat = "it reads `params.separator` and its inputs (texts...)"
    assert found == [
        # Two unread params: which operand each would be is unclear, so no fix.
        ("Z019", f"`Concat` does not read `params.prefix`: {reads_concat}", False),
        ("Z019", f"`Concat` does not read `params.suffix`: {reads_concat}", False),
        (
            "Z019",
            "`GetField` does not read `params.default`: it reads `params.field` and its inputs (map)",
            False,
        ),
        # Both operands are already inputs: nothing for the value to be.
        (
            "Z019",
            "`Equals` does not read `params.compare`: it reads no params, only its inputs (a, b)",
            False,
        ),
    ]


def test_a_misspelled_param_is_z015_not_z019() -> None:
    source = graph(
        '{ id: "n", type: Constant, value: "a b" }',
        '{ id: "words", type: Operation, op: Split, inputs: ["n"], params: { seperator: " " } }',
        outputs='["words"]',
    )
    assert codes(source) == ["Z015"]


def test_a_permission_with_threshold_gets_a_rename_hint() -> None:
    source = graph(
        '{ id: "sender_confidence", type: Constant, value: 0.9 }',
        '{ id: "ok", type: Permission, action: "send", threshold: 0.8 }',
        outputs='["ok"]',
    )
    found = {f.code: f for f in lint_text(source)}
    assert found["Z015"].message == "`threshold` is read by nothing: did you mean `min_confidence`?"
    assert (
        found["Z015"].fix is not None
        and found["Z015"].fix.description == "rename `threshold` to `min_confidence`"
    )
    assert "Z012" in found  # the Permission has no min_confidence: it cannot run as written


@pytest.mark.parametrize(
    ("node", "fixed"),
    [
        ('{ id: "message", type: Input }', '{ id: "message", type: External, uri: "input://message" }'),
        ('{ id: "m", type: Input, uri: "input://text" }', '{ id: "m", type: External, uri: "input://text" }'),
        ('{ id: "m", type: Input, default: "hi" }', None),  # an External has no default
        ('{ id: "m", type: Input, inputs: ["x"] }', None),
    ],
)
def test_input_becomes_external_only_where_the_shape_allows(node: str, fixed: str | None) -> None:
    from zerolang.tools.lint.fixes import fix_source

    source = graph(node, '{ id: "x", type: Constant, value: 1 }', outputs='["m", "message", "x"]')
    (finding,) = [f for f in lint_text(source) if f.code == "Z002"]
    assert (finding.fix is not None) is (fixed is not None)
    if fixed is not None:
        assert fixed in fix_source(source, "t.0").source
