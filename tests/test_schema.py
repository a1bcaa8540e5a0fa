"""`schema/schema.0`: the 0-memory schema parses, validates, runs, and keeps all five parts.

Also checks that the schema's own test vectors are true (recomputed with
hashlib), that the example memory record conforms to it, and shows the flat
`MergeMap` trap the SetField chain avoids (see `schema/compatibility.md`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

from zerolang.runtime.interpreter import RunResult, run
from zerolang.runtime.validator import validate
from zerolang.runtime.values import Hash, type_name
from zerolang.syntax.parser import parse, parse_file
from zerolang.syntax.printer import print_graph

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "schema"
SCHEMA = SCHEMA_DIR / "schema.0"
SCHEMA_FILES = sorted(SCHEMA_DIR.glob("*.0"))
EXAMPLE_MEMORY = ROOT / "examples" / "example_memory.0"

PARTS = ["schema_version", "concept_schema", "relation_schema", "context_schema", "memory_record_schema"]


@pytest.fixture(scope="module")
def result() -> RunResult:
    return run(parse_file(SCHEMA), path=str(SCHEMA))


@pytest.fixture(scope="module")
def schema(result: RunResult) -> dict[str, Any]:
    value = result.outputs["schema"]
    assert type(value) is dict
    return value


def sha256_hex(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


# ---- the file --------------------------------------------------------------------------


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda path: path.name)
def test_schema_file_parses_validates_and_runs(path: Path) -> None:
    graph = parse_file(path)
    assert validate(graph, str(path)) == []
    outcome = run(graph, {}, path=str(path))
    assert list(outcome.outputs) == graph.outputs
    assert sorted(outcome.trace) == sorted(node.id for node in graph.nodes)
    assert re.fullmatch(r"[0-9a-f]{64}", outcome.hash)
    assert outcome.confidence == 1.0
    assert "Timestamp" not in {node.op for node in graph.nodes}
    assert run(graph, {}).to_json() == outcome.to_json()
    assert parse(print_graph(graph)) == graph


def test_schema_uses_runtime_nodes_only() -> None:
    graph = parse_file(SCHEMA)
    assert {node.type for node in graph.nodes} == {"Constant", "Operation"}
    assert {node.op for node in graph.nodes if node.type == "Operation"} == {"SetField"}
    assert graph.outputs == ["schema"]


def test_schema_snapshot(result: RunResult, snapshot: Any) -> None:
    assert result.to_json() == snapshot


def test_zero_run_schema_from_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    monkeypatch.chdir(ROOT)
    outcome = CliRunner().invoke(app, ["run", "schema/schema.0", "--json"])
    assert outcome.exit_code == 0, outcome.output
    assert '"memory_record_schema"' in outcome.stdout


# ---- the output keeps every part -------------------------------------------------------


def test_schema_output_has_all_five_parts(schema: dict[str, Any]) -> None:
    assert list(schema) == PARTS
    assert schema["schema_version"] == "0.2.0"
    kinds = {name: schema[name]["kind"] for name in PARTS[1:]}
    assert kinds == {
        "concept_schema": "concept",
        "relation_schema": "relation",
        "context_schema": "context",
        "memory_record_schema": "memory_record",
    }


def test_schema_parts_keep_their_distinct_contents(schema: dict[str, Any]) -> None:
    assert set(schema["concept_schema"]["fields"]) == {"label", "hash", "aliases", "embedding_ref"}
    assert set(schema["relation_schema"]["fields"]) == {
        "subject",
        "predicate",
        "object",
        "subject_hash_ref",
        "object_hash_ref",
        "confidence",
        "fact_hash",
        "episode_hash",
    }
    assert set(schema["context_schema"]["fields"]) == {"event_time", "source", "scope", "session_id"}
    assert set(schema["memory_record_schema"]["fields"]) == {
        "kind",
        "schema_version",
        "concepts",
        "relations",
        "context",
        "context_hash",
        "proof",
    }
    assert set(schema["concept_schema"]["hashes"]) == {"ConceptHash"}
    assert set(schema["relation_schema"]["hashes"]) == {"FactHash", "EpisodeHash"}
    assert set(schema["context_schema"]["hashes"]) == {"ContextHash"}
    assert schema["memory_record_schema"]["hashes"] == {}


def test_every_field_has_a_kind_and_a_required_flag(schema: dict[str, Any]) -> None:
    runtime_kinds = {"Null", "Bool", "Int", "Float", "String", "Bytes", "Array", "Map", "Hash", "Confidence"}
    for name in PARTS[1:]:
        part = schema[name]
        assert set(part) == {"kind", "description", "hashes", "fields"}, name
        for field, spec in part["fields"].items():
            assert spec["kind"] in runtime_kinds, (name, field)
            assert type(spec["required"]) is bool, (name, field)


def test_relation_schema_has_the_two_hash_layers(schema: dict[str, Any]) -> None:
    relation = schema["relation_schema"]
    fact, episode = relation["hashes"]["FactHash"], relation["hashes"]["EpisodeHash"]
    assert (fact["layer"], episode["layer"]) == (1, 2)
    assert fact["formula"] == 'sha256(subject_label + "|" + predicate + "|" + object_label)'
    assert episode["formula"] == "sha256(FactHash raw 32 bytes ++ ContextHash raw 32 bytes)"
    assert relation["fields"]["fact_hash"] == {"kind": "Hash", "required": True, "note": "FactHash, layer 1"}
    assert relation["fields"]["episode_hash"]["kind"] == "Hash"
    assert relation["fields"]["episode_hash"]["required"] is False


def test_schema_hash_formulas_and_test_vectors_are_true(schema: dict[str, Any]) -> None:
    concept = schema["concept_schema"]["hashes"]["ConceptHash"]
    assert concept["formula"] == "sha256(normalized_label)"
    assert sha256_hex(concept["test_vector"]["input"]) == concept["test_vector"]["hex"]
    assert concept["test_vector"]["hex"] == "d4f0bc5a29de06b510f9aa428f1eedba926012b591fef7a518e776a7c9bd1824"

    fact = schema["relation_schema"]["hashes"]["FactHash"]["test_vector"]
    assert sha256_hex(fact["input"]) == fact["hex"]

    context = schema["context_schema"]["hashes"]["ContextHash"]
    assert context["formula"] == 'sha256(event_time + "|" + source + "|" + scope)'
    assert sha256_hex(context["test_vector"]["input"]) == context["test_vector"]["hex"]

    episode = schema["relation_schema"]["hashes"]["EpisodeHash"]["test_vector"]
    raw = bytes.fromhex(fact["hex"]) + bytes.fromhex(context["test_vector"]["hex"])
    assert sha256_hex(raw) == episode["hex"]
    assert episode["hex"] == "7203be7d61789e2b6bb7580c43f24ed3737b416417f1b1023caccb43306b1e5f"


def test_context_schema_keeps_timestamp_colons(schema: dict[str, Any]) -> None:
    event_time = schema["context_schema"]["fields"]["event_time"]
    assert event_time["required"] is True
    assert "2026-02-18T00:00:00Z" in event_time["format"]


# ---- the example record conforms ------------------------------------------------------


def _conforms(value: dict[str, Any], part: dict[str, Any], where: str) -> None:
    for field, spec in part["fields"].items():
        if spec["required"]:
            assert field in value, f"{where}: required field `{field}` missing"
        if field in value and value[field] is not None:
            assert type_name(value[field]) == spec["kind"], f"{where}.{field}"
    assert set(value) <= set(part["fields"]), f"{where}: fields the schema does not describe"


def test_example_memory_record_conforms_to_the_schema(schema: dict[str, Any]) -> None:
    record = run(parse_file(EXAMPLE_MEMORY)).outputs["memory_record"]
    _conforms(record, schema["memory_record_schema"], "memory_record")
    assert record["kind"] == schema["memory_record_schema"]["fields"]["kind"]["value"]
    assert record["schema_version"] == schema["schema_version"]
    _conforms(record["context"], schema["context_schema"], "context")
    for name, relation in record["relations"].items():
        _conforms(relation, schema["relation_schema"], f"relations.{name}")
    for label, concept_hash in record["concepts"].items():
        assert type(concept_hash) is Hash, label


# ---- why not one MergeMap --------------------------------------------------------------


def test_flat_mergemap_would_lose_parts(schema: dict[str, Any]) -> None:
    """The seed's plain `Aggregate` -> `MergeMap` rewrite: key collisions and a dropped string."""
    source = SCHEMA.read_text(encoding="utf-8")
    flat_node = (
        '{ id: "flat", type: Operation, op: MergeMap, inputs: '
        '["schema_version", "concept_schema", "relation_schema", "context_schema", "memory_record_schema"] },'
    )
    ending = re.compile(r'\n    \],\s*outputs: \["schema"\]')
    edited = ending.sub(lambda _: f'\n        {flat_node}\n    ],\n    outputs: ["flat"]', source)
    assert edited != source
    graph = parse(edited)
    assert validate(graph) == []  # nothing warns: the loss is silent
    merged = run(graph).outputs["flat"]
    assert set(merged) == {"kind", "description", "hashes", "fields"}  # no schema_version: not a map
    assert merged == schema["memory_record_schema"]  # the last map won every shared key
    assert merged["kind"] == "memory_record"
