"""The compiler: record contents, dedup, the graph's shape, its snapshot, and labels that must round-trip."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from zerolang.knowledge.hashing import concept_hash, fact_hash
from zerolang.memory import (
    CompilerInput,
    ContextMeta,
    SemanticTuple,
    compile_input,
    compile_record,
    load_inputs,
)
from zerolang.syntax.ast import Node
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph

from .conftest import (
    AGENT,
    CONTEXT,
    EPISODE,
    EXAMPLE_INPUT,
    FACT,
    LTM,
    NOW,
    assert_graph_reproduces,
    make_input,
)

THREE = make_input(
    ("Agent", "needs", "LTM", 0.95),
    ("0-Memory", "provides", "long_term_memory", 0.9),
    ("agent", "uses", "0-memory", 0.5),
)


def test_three_tuples_give_deduplicated_concepts_and_every_relation() -> None:
    graph, record = compile_input(THREE, now=NOW)
    assert [concept.label for concept in record.concepts] == ["agent", "long-term-memory", "0-memory"]
    assert len(record.relations) == 3
    agent = record.concept(concept_hash("agent"))
    assert agent.aliases == ("Agent",)
    assert agent.confidence == 0.95  # the highest confidence of the tuples naming it
    assert record.concept(concept_hash("long-term-memory")).aliases == ("LTM", "long_term_memory")
    assert {concept.created_at for concept in record.concepts} == {NOW}
    text = print_graph(graph)
    assert "MergeMap" not in text and "Aggregate" not in text
    for label in ("agent", "long-term-memory", "0-memory"):
        assert f'"{label}"' in text


def test_spec_vectors_come_out_of_the_compiler() -> None:
    _, record = compile_input(make_input(("Agent", "needs", "LTM", 0.95)))
    (relation,) = record.relations
    assert {str(c.hash) for c in record.concepts} == {AGENT, LTM}
    assert (str(relation.fact_hash), str(relation.context_hash), str(relation.episode_hash)) == (
        FACT,
        CONTEXT,
        EPISODE,
    )


def test_a_fact_stated_twice_in_one_input_is_one_observation_with_the_higher_confidence() -> None:
    record = compile_record(make_input(("a", "p", "b", 0.4), ("A", "P", "B", 0.7), ("a", "p", "b", 0.5)))
    (relation,) = record.relations
    assert relation.confidence == 0.7
    assert relation.fact_hash == fact_hash("a", "p", "b")


def test_the_graph_has_one_output_built_by_setfield_chains() -> None:
    graph, record = compile_input(THREE)
    nodes = {node.id: node for node in graph.nodes}
    assert graph.outputs == ["memory_record"]
    output = nodes["memory_record"]
    assert output.op == "SetField"
    assert {node.type for node in graph.nodes} == {"Constant", "Operation"}
    assert {node.op for node in graph.nodes if node.type == "Operation"} == {"Hash", "SetField", "Concat"}
    # every concept hash is a Hash node over a Constant holding the normalised label
    for concept in record.concepts:
        (label_node,) = [n for n in graph.nodes if n.type == "Constant" and _value(n) == concept.label]
        hash_node = nodes[f"{label_node.id}_hash"]
        assert hash_node.op == "Hash" and hash_node.inputs == [label_node.id]
    assert_graph_reproduces(graph, record)


def _value(node: Node) -> object:
    value = node.get("value")
    return getattr(value, "value", None)


@pytest.mark.parametrize(
    "label",
    [
        'say "hi"',
        "back\\slash",
        "two\nlines",
        "key: value",
        "# not a comment",
        "{ braces } [and] , commas",
        "2026-02-18T00:00:00Z",
        "ünïcödé 记忆 🧠",
        "tab\there",
        "\u2028line separator",
        "nul\x00byte",
        "a|pipe",
        "Graph { nodes: [] }",
    ],
)
def test_any_label_round_trips(label: str) -> None:
    source = make_input((label, "relates to", label + " too", 0.5), event_time="2026-02-18T00:00:00+05:30")
    graph, record = compile_input(source)
    assert_graph_reproduces(graph, record)
    text = print_graph(graph)
    assert '"2026-02-18T00:00:00+05:30"' in text  # the timestamp keeps its colons


def test_node_ids_stay_unique_and_free_of_dots() -> None:
    source = make_input(
        ("x.y", "p", "x_y", 1.0),
        ("X Y", "p", "x-y", 1.0),
        ("记忆", "p", "回忆", 1.0),
        ("hash", "p", "x", 1.0),
    )
    graph, record = compile_input(source)
    ids = [node.id for node in graph.nodes]
    assert len(ids) == len(set(ids))
    assert all(node_id is not None and "." not in node_id for node_id in ids)
    assert_graph_reproduces(graph, record)


def test_every_example_input_compiles_to_a_graph_that_reproduces_its_record() -> None:
    for item in load_inputs(EXAMPLE_INPUT):
        graph, record = compile_input(item.input)
        assert_graph_reproduces(graph, record)


def test_utterance_and_optional_context_fields_are_kept() -> None:
    context = ContextMeta("2026-02-18T00:00:00Z", "s", "x", "agent-1", "session-1", {"k": "v"})
    source = CompilerInput((SemanticTuple("a", "p", "b"),), context, utterance='said: "a p b"')
    graph, record = compile_input(source)
    text = print_graph(graph)
    assert 'utterance: "said: \\"a p b\\""' in text
    assert_graph_reproduces(graph, record)
    assert parse(text) == graph


def test_the_compiled_example_matches_the_hand_written_example_memory_graph() -> None:
    """Compiling the content of examples/example_memory.0 gives exactly the hashes that file computes."""
    from zerolang.runtime.interpreter import run
    from zerolang.syntax.parser import parse_file

    from .conftest import ROOT

    hand = run(parse_file(ROOT / "examples" / "example_memory.0")).outputs["memory_record"]
    first = load_inputs(EXAMPLE_INPUT)[0].input
    ours = run(compile_input(first)[0]).outputs["memory_record"]
    assert isinstance(hand, dict) and isinstance(ours, dict)
    assert {k: bytes(v) for k, v in ours["concepts"].items()} == {
        k: bytes(v) for k, v in hand["concepts"].items()
    }
    assert bytes(ours["context_hash"]) == bytes(hand["context_hash"])
    assert {bytes(r["fact_hash"]) for r in ours["relations"].values()} == {
        bytes(r["fact_hash"]) for r in hand["relations"].values()
    }
    assert ours["context"] == hand["context"]


def test_snapshot_of_the_compiled_example(snapshot: SnapshotAssertion) -> None:
    texts = [print_graph(compile_input(item.input)[0]) for item in load_inputs(EXAMPLE_INPUT)]
    assert texts == snapshot
