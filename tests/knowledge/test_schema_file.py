"""The JSON Schema of the input (schema/memory_input.schema.json) and the example that follows it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from zerolang.memory import load_inputs

from .conftest import EXAMPLE_INPUT, ROOT

SCHEMA = ROOT / "schema" / "memory_input.schema.json"


def load(path: Any) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_example_is_accepted_by_the_python_side() -> None:
    items = load_inputs(EXAMPLE_INPUT)
    assert len(items) == 3
    assert any(":" in item.input.context.event_time for item in items)


def test_the_schema_is_draft_2020_12_and_names_every_field() -> None:
    schema = load(SCHEMA)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    definitions = schema["$defs"]
    assert set(definitions["CompilerInput"]["properties"]) == {"utterance", "tuples", "context"}
    assert set(definitions["SemanticTuple"]["properties"]) == {"subject", "predicate", "object", "confidence"}
    assert set(definitions["ContextMeta"]["properties"]) == {
        "event_time",
        "source",
        "scope",
        "agent_id",
        "session_id",
        "metadata",
    }


def test_the_example_validates_against_the_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = load(SCHEMA)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(load(EXAMPLE_INPUT))


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["tuples"][0].update(confidence=1.5),
        lambda d: d["tuples"][0].update(subject="  "),
        lambda d: d["tuples"][0].update(confidance=1),
        lambda d: d["context"].pop("scope"),
        lambda d: d.update(tuples=[]),
        lambda d: d["context"].update(metadata={"k": 1}),
    ],
)
def test_the_schema_and_the_python_side_refuse_the_same_mistakes(mutate: Any) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from zerolang.memory import CompilerInput, InputError

    document = load(EXAMPLE_INPUT)[0]
    mutate(document)
    assert not jsonschema.Draft202012Validator(load(SCHEMA)).is_valid(document)
    with pytest.raises(InputError):
        CompilerInput.from_json(document)
