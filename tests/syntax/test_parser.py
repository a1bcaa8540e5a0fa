"""The grammar reads everything spec §1 lists, into a typed AST with spans and comments."""

from __future__ import annotations

import pytest

from zerolang.syntax.ast import Array, Bool, Float, Graph, Int, Map, Node, Null, String, Struct
from zerolang.syntax.parser import parse, parse_file
from zerolang.util.errors import ZeroError, ZeroSyntaxError

SPEC_EXAMPLE = """\
# comment lines, and inline comments after a value
Graph {
    name: "main_router",          # required
    version: 1,                   # default 1
    description: "...",           # default ""
    nodes: [
        { "id": "message", "type": "External", "uri": "input://message" },
        { id: "kind", type: Operation, op: StartsWith, inputs: ["message"], params: { prefix: "/" } },
    ],
    outputs: ["kind"],            # required
    entry_point: "message",       # default ""
    metadata: { tags: ["core"] }, # free-form, default empty
}
"""


def test_spec_example_parses_into_typed_graph() -> None:
    graph = parse(SPEC_EXAMPLE)
    assert isinstance(graph, Graph)
    assert graph.name_value == "main_router"
    assert [node.id for node in graph.nodes] == ["message", "kind"]
    assert all(isinstance(node, Node) for node in graph.nodes)
    assert graph.outputs == ["kind"]
    kind = graph.nodes[1]
    assert (kind.type, kind.op, kind.inputs) == ("Operation", "StartsWith", ["message"])
    assert kind.params is not None and kind.params.get("prefix") == String("/")


def test_quoted_and_bare_keys_mean_the_same() -> None:
    quoted = parse('Graph { "name": "x", "nodes": [], "outputs": [] }')
    bare = parse('Graph { name: "x", nodes: [], outputs: [] }')
    assert quoted == bare
    assert quoted.entries[0].key_quoted and not bare.entries[0].key_quoted


def test_bare_identifier_values_are_strings() -> None:
    graph = parse("Graph { nodes: [ { id: a, type: Operation, op: StartsWith } ] }")
    node = graph.nodes[0]
    assert node.type == "Operation" and node.op == "StartsWith" and node.id == "a"
    type_value = node.get("type")
    assert isinstance(type_value, String) and type_value.bare


def test_trailing_commas_everywhere() -> None:
    graph = parse("Graph { a: [1, 2,], b: { c: 1, }, s: T { x: 1, }, }")
    assert graph.get("a") == Array(items=[Int(1), Int(2)])


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ('"a: b"', "a: b"),
        ('"T00:00:00Z"', "T00:00:00Z"),
        ('"# not a comment"', "# not a comment"),
        ('"{ braces }"', "{ braces }"),
        (r'"say \"hi\""', 'say "hi"'),
        (r'"back\\slash"', "back\\slash"),
        (r'"line\nbreak\ttab\r\b\f\/"', "line\nbreak\ttab\r\b\f/"),
        (r'"caf\u00e9 \ud83d\ude00"', "café 😀"),
        ('"日本語"', "日本語"),
        ('""', ""),
    ],
)
def test_strings_keep_special_characters_and_decode_escapes(literal: str, expected: str) -> None:
    graph = parse(f"Graph {{ s: {literal} }}")
    assert graph.get("s") == String(expected)


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ("0", Int(0)),
        ("42", Int(42)),
        ("-7", Int(-7)),
        ("9223372036854775807", Int(2**63 - 1)),
        ("-9223372036854775808", Int(-(2**63))),
        ("0.98", Float(0.98)),
        ("1.0", Float(1.0)),
        ("1e-3", Float(0.001)),
        ("-2.5E+2", Float(-250.0)),
        ("true", Bool(True)),
        ("false", Bool(False)),
        ("null", Null()),
    ],
)
def test_numbers_and_literals(literal: str, expected: object) -> None:
    assert parse(f"Graph {{ v: {literal} }}").get("v") == expected


def test_int_and_float_are_distinct() -> None:
    assert parse("Graph { v: 1 }").get("v") != parse("Graph { v: 1.0 }").get("v")


def test_typed_struct_literals_and_unknown_fields() -> None:
    graph = parse(
        "Graph { proofs: [ HaltingProof { max_steps: 3, fuel_budget: 100 }, MemoryBound { max_bytes: 524288 } ],"
        ' nodes: [ { id: a, type: Constant, value: 1, tensor_type: f32, description: "d" } ] }'
    )
    proofs = graph.get("proofs")
    assert isinstance(proofs, Array)
    first = proofs.items[0]
    assert isinstance(first, Struct) and first.name == "HaltingProof" and first.get("max_steps") == Int(3)
    assert graph.nodes[0].get("tensor_type") == String("f32")


def test_unknown_node_types_and_ops_still_parse() -> None:
    graph = parse(
        'Graph { nodes: [ { id: x, type: Aggregate }, { id: y, type: Operation, op: Eq }, { id: z, type: Lookup, input: "x" } ] }'
    )
    assert [node.type for node in graph.nodes] == ["Aggregate", "Operation", "Lookup"]
    assert graph.nodes[1].op == "Eq"


def test_literal_inputs_parse() -> None:
    graph = parse(
        'Graph { nodes: [ { id: x, type: Operation, op: GetField, inputs: ["input.metadata", "type"] } ] }'
    )
    assert graph.nodes[0].inputs == ["input.metadata", "type"]


def test_spans_point_at_source() -> None:
    graph = parse(SPEC_EXAMPLE)
    node = graph.nodes[1]
    assert (node.span.line, node.span.column) == (8, 9)
    op = node.entry("op")
    assert op is not None
    line = SPEC_EXAMPLE.splitlines()[7]
    assert (op.key_span.line, op.key_span.column) == (8, line.index("op:") + 1)
    assert (op.value.span.line, op.value.span.column) == (8, line.index("StartsWith") + 1)
    assert op.value.span.end_column == op.value.span.column + len("StartsWith")
    assert SPEC_EXAMPLE[op.value.span.start : op.value.span.end] == "StartsWith"
    assert graph.span.line == 2 and graph.span.end_line == 13


def test_comments_attach_to_their_elements() -> None:
    graph = parse(SPEC_EXAMPLE)
    assert [comment.text for comment in graph.leading] == [
        " comment lines, and inline comments after a value"
    ]
    name = graph.entry("name")
    assert name is not None and name.trailing is not None and name.trailing.text == " required"
    metadata = graph.entry("metadata")
    assert metadata is not None and metadata.trailing is not None
    assert metadata.trailing.text == " free-form, default empty"


def test_own_line_dangling_and_footer_comments() -> None:
    source = """Graph {
    nodes: [
        # first node
        { id: a, type: Constant, value: 1 },  # after a
        # nothing follows
    ],
    # before outputs
    outputs: ["a"],
    # end of graph
}
# footer
"""
    graph = parse(source)
    nodes = graph.get("nodes")
    assert isinstance(nodes, Array)
    node = nodes.items[0]
    assert [c.text for c in node.leading] == [" first node"]
    assert node.trailing is not None and node.trailing.text == " after a"
    assert [c.text for c in nodes.dangling] == [" nothing follows"]
    outputs = graph.entry("outputs")
    assert outputs is not None and [c.text for c in outputs.leading] == [" before outputs"]
    assert [c.text for c in graph.dangling] == [" end of graph"]
    assert [c.text for c in graph.footer] == [" footer"]


def test_comment_inside_a_node_map() -> None:
    graph = parse("Graph { nodes: [ {\n id: a,  # the id\n type: Constant,\n # own line\n value: 1 } ] }")
    node = graph.nodes[0]
    id_entry, _, value_entry = node.entries
    assert id_entry.trailing is not None and id_entry.trailing.text == " the id"
    assert [c.text for c in value_entry.leading] == [" own line"]


def test_equality_ignores_layout_but_not_meaning() -> None:
    compact = parse('Graph{name:"x",nodes:[{id:a,type:Constant,value:1}],outputs:["a"]}')
    spread = parse(
        'Graph {\n  name: "x",\n  nodes: [\n    { "id": "a", "type": "Constant", "value": 1 },\n  ],\n  outputs: ["a"],\n}\n'
    )
    assert compact == spread
    assert compact != parse('Graph{name:"x",nodes:[{id:a,type:Constant,value:2}],outputs:["a"]}')


def test_map_get_last_duplicate_wins() -> None:
    graph = parse("Graph { v: { a: 1, a: 2 } }")
    value = graph.get("v")
    assert isinstance(value, Map) and value.get("a") == Int(2)


def test_top_level_must_be_graph() -> None:
    with pytest.raises(ZeroSyntaxError) as caught:
        parse("Foo { }", "f.0")
    assert caught.value.headline() == "f.0:1:1: expected `Graph { ... }`, found `Foo { ... }`"


def test_parse_file_errors_are_zero_errors(tmp_path: object) -> None:
    with pytest.raises(ZeroError, match="no such file"):
        parse_file("/nonexistent/graph.0")


def test_not_utf8_is_a_clear_error(tmp_path: pytest.TempPathFactory) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "latin1.0"
    path.write_bytes(b'Graph { name: "caf\xe9" }')
    with pytest.raises(ZeroError, match="not UTF-8"):
        parse_file(path)


def test_pure_python_and_cython_parsers_agree() -> None:
    from zerolang.syntax import parser

    source = "\n".join(line.split(" #")[0] for line in SPEC_EXAMPLE.splitlines()[1:])
    fast = parse(source)
    slow = parser._parser(fast=False).parse(source)
    assert fast == slow
    assert [node.span for node in fast.nodes] == [node.span for node in slow.nodes]
