"""Shared helpers for the 0-memory tests: inputs, the spec vectors, a graph-vs-record checker, table dumps."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from zerolang.memory import CompilerInput, ContextMeta, MemoryRecord, MemoryStore, SemanticTuple
from zerolang.runtime.interpreter import run
from zerolang.runtime.validator import validate
from zerolang.storage import open_store
from zerolang.syntax.ast import Graph
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph
from zerolang.tools.lint import lint_graph

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_INPUT = ROOT / "examples" / "memory_input.json"
NOW = "2026-03-01T12:00:00.000Z"
LATER = "2026-03-02T12:00:00.000Z"

# spec/runtime.md §7
AGENT = "d4f0bc5a29de06b510f9aa428f1eedba926012b591fef7a518e776a7c9bd1824"
LTM = "1a53ed01b4fb5295f6378f6407edb0f788e491be38df947f1eb1762a697cbf09"
FACT = "a91d0273e8013b3837ae8d233811ab3889d8de28eaedac02d817f332660a4dce"
CONTEXT = "4131f8414b2c0e2b6ec58a66ddabea29d22f84e0b95de3a6178edee31c174c77"
EPISODE = "7203be7d61789e2b6bb7580c43f24ed3737b416417f1b1023caccb43306b1e5f"
SPEC_CONTEXT = ContextMeta("2026-02-18T00:00:00Z", "user_prompt", "0-memory_design")


def make_input(
    *tuples: tuple[str, str, str, float],
    event_time: str = "2026-02-18T00:00:00Z",
    source: str = "user_prompt",
    scope: str = "0-memory_design",
) -> CompilerInput:
    return CompilerInput(
        tuple(SemanticTuple(s, p, o, c) for s, p, o, c in tuples), ContextMeta(event_time, source, scope)
    )


@pytest.fixture
def store() -> Iterator[MemoryStore]:
    with open_store() as memory:
        yield memory


def dump(store: MemoryStore) -> dict[str, list[tuple[object, ...]]]:
    """Everything the store's space holds, in key order: two equal dumps mean nothing changed."""
    from zerolang.knowledge.backend import FactFilter

    backend = store.backend
    return {
        "concepts": [tuple(vars_of(c)) for c in backend.scan_concepts()],
        "contexts": [(node.hash, node.meta.to_json(), at) for node, at in backend.scan_contexts()],
        "facts": [tuple(vars_of(f)) for f in backend.find_facts(FactFilter())],
        "episodes": [tuple(vars_of(r)) for r in backend.scan_relations()],
    }


def vars_of(value: object) -> list[object]:
    return [getattr(value, name) for name in value.__slots__]  # type: ignore[attr-defined]


def assert_graph_reproduces(graph: Graph, record: MemoryRecord) -> None:
    """The printed graph parses back equal, validates and lints clean, and its run gives the record's hashes."""
    text = print_graph(graph)
    parsed = parse(text)
    assert parsed == graph
    assert validate(parsed) == []
    assert lint_graph(parsed, text, None) == []
    kinds = {node.type for node in parsed.nodes}
    assert kinds <= {"Constant", "Operation"}
    assert not {node.op for node in parsed.nodes} & {"MergeMap", "Aggregate"}
    assert parsed.outputs == ["memory_record"]

    result = run(parsed)
    assert list(result.outputs) == ["memory_record"]
    output = result.outputs["memory_record"]
    assert isinstance(output, dict)
    assert set(output) == {
        "kind",
        "schema_version",
        "concepts",
        "relations",
        "context",
        "context_hash",
        "proof",
    }
    assert {label: bytes(value) for label, value in output["concepts"].items()} == {
        concept.label: concept.hash.digest for concept in record.concepts
    }
    assert bytes(output["context_hash"]) == record.context.hash.digest
    assert output["context"] == record.context.meta.to_json()
    labels = {concept.hash: concept.label for concept in record.concepts}
    assert len(output["relations"]) == len(record.relations)
    for relation in record.relations:
        key = f"{labels[relation.subject_hash]}|{relation.predicate}|{labels[relation.object_hash]}"
        computed = output["relations"][key]
        assert bytes(computed["fact_hash"]) == relation.fact_hash.digest
        assert computed["episode_hash"] == relation.episode_hash.hex()
        assert computed["confidence"] == relation.confidence
        recomputed = hashlib.sha256(bytes(computed["fact_hash"]) + bytes(output["context_hash"])).digest()
        assert recomputed == relation.episode_hash.digest
