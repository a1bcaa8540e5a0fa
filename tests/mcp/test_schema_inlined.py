"""The graph tools publish their output schemas without `$ref`s, with the same constraints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("mcp")
import zerolang.memory
from zerolang.mcp.server import GRAPH_TOOLS, build_server, inlined

jsonschema = pytest.importorskip("jsonschema")


def test_published_graph_schemas_hold_no_references_and_check_the_same(tmp_path: Path) -> None:
    good = {
        "entities": [{"name": "a", "entityType": "t", "observations": ["o"]}],
        "relations": [{"from": "a", "to": "a", "relationType": "r"}],
    }
    bad = {"entities": [{"name": "a", "entityType": "t"}], "relations": []}
    with zerolang.memory.open(tmp_path / "m.db") as memory:
        manager = build_server(memory)._tool_manager  # type: ignore[attr-defined]
        for name in GRAPH_TOOLS:
            schema = manager.get_tool(name).output_schema
            assert "$ref" not in json.dumps(schema), name
        graph = manager.get_tool("read_graph").output_schema
    jsonschema.validate(good, graph)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, graph)


def test_a_recursive_schema_is_kept_as_it_is() -> None:
    schema = {
        "$defs": {"Node": {"type": "object", "properties": {"kids": {"items": {"$ref": "#/$defs/Node"}}}}},
        "properties": {"root": {"$ref": "#/$defs/Node"}},
    }
    assert inlined(schema) is schema
    flat = {"$defs": {"A": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/A"}}}
    assert inlined(flat) == {"properties": {"a": {"type": "string"}}}
