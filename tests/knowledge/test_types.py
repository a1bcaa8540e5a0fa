"""Input validation at the edge: one clear line naming the field, for every way an input can be wrong."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from zerolang.memory import CompilerInput, ContextMeta, InputError, SemanticTuple
from zerolang.util.errors import ZeroError

from .conftest import EXAMPLE_INPUT


def valid() -> dict[str, Any]:
    return {
        "utterance": "the agent needs memory",
        "tuples": [{"subject": "Agent", "predicate": "needs", "object": "LTM", "confidence": 0.9}],
        "context": {"event_time": "2026-02-18T00:00:00Z", "source": "user_prompt", "scope": "design"},
    }


def error_for(document: dict[str, Any]) -> str:
    with pytest.raises(InputError) as caught:
        CompilerInput.from_json(document)
    assert isinstance(caught.value, ZeroError)
    assert "\n" not in caught.value.message
    return caught.value.message


def test_a_valid_input_round_trips_through_json() -> None:
    source = CompilerInput.from_json(valid())
    assert source.tuples == (SemanticTuple("Agent", "needs", "LTM", 0.9),)
    assert source.context.event_time == "2026-02-18T00:00:00Z"
    assert CompilerInput.from_json(source.to_json()) == source


def test_the_example_file_is_accepted() -> None:
    documents = json.loads(EXAMPLE_INPUT.read_text(encoding="utf-8"))
    inputs = [CompilerInput.from_json(document) for document in documents]
    assert len(inputs) == 3 and sum(len(item.tuples) for item in inputs) == 9


def test_confidence_defaults_to_one_and_ints_are_numbers() -> None:
    document = valid()
    del document["tuples"][0]["confidence"]
    assert CompilerInput.from_json(document).tuples[0].confidence == 1.0
    document["tuples"][0]["confidence"] = 0
    assert CompilerInput.from_json(document).tuples[0].confidence == 0.0
    assert SemanticTuple("a", "p", "b", -0.0).confidence == 0.0
    assert math.copysign(1, SemanticTuple("a", "p", "b", -0.0).confidence) == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("subject", "", "tuples[0].subject: a label must not be empty"),
        ("object", "   \t ", "tuples[0].object: a label must not be empty"),
        ("predicate", " ", "tuples[0].predicate: a predicate must not be empty"),
        ("subject", 3, "tuples[0].subject: must be a string, not a number"),
        ("subject", "\ud800", "tuples[0].subject: is not valid Unicode text (it holds a lone surrogate)"),
        ("confidence", float("nan"), "tuples[0].confidence: must be a number between 0 and 1, not NaN"),
        ("confidence", 1.5, "tuples[0].confidence: must be between 0 and 1, not 1.5"),
        ("confidence", -0.1, "tuples[0].confidence: must be between 0 and 1, not -0.1"),
        ("confidence", float("inf"), "tuples[0].confidence: must be between 0 and 1, not inf"),
        ("confidence", "0.9", "tuples[0].confidence: must be a number between 0 and 1, not a string"),
        ("confidence", True, "tuples[0].confidence: must be a number between 0 and 1, not a boolean"),
        ("confidence", None, "tuples[0].confidence: must be a number between 0 and 1, not null"),
        ("confidance", 0.9, "tuples[0]: unknown field `confidance` (did you mean `confidence`?)"),
    ],
)
def test_bad_tuples(field: str, value: object, message: str) -> None:
    document = valid()
    document["tuples"][0][field] = value
    assert error_for(document) == message


def test_nan_from_json_text_is_refused() -> None:
    document = json.loads(json.dumps(valid()).replace("0.9", "NaN"))
    assert error_for(document) == "tuples[0].confidence: must be a number between 0 and 1, not NaN"


@pytest.mark.parametrize("field", ["event_time", "source", "scope"])
def test_missing_context_fields(field: str) -> None:
    document = valid()
    del document["context"][field]
    assert error_for(document) == f"context.{field}: is missing"


@pytest.mark.parametrize("field", ["source", "scope"])
def test_empty_context_fields(field: str) -> None:
    document = valid()
    document["context"][field] = " "
    assert error_for(document) == f"context.{field}: must not be empty"


@pytest.mark.parametrize("event_time", ["yesterday", "18/02/2026", "2026-02-18T25:00:00Z", "", "2026-13-01"])
def test_non_iso_event_times(event_time: str) -> None:
    document = valid()
    document["context"]["event_time"] = event_time
    message = error_for(document)
    assert message.startswith("context.event_time: ")


@pytest.mark.parametrize(
    "event_time",
    [
        "2026-02-18T00:00:00Z",
        "2026-02-18T00:00:00+01:00",
        "2026-02-18T00:00:00.250Z",
        "2026-02-18",
        "2026-02-18 10:00",
    ],
)
def test_iso_event_times_are_kept_as_written(event_time: str) -> None:
    document = valid()
    document["context"]["event_time"] = event_time
    assert CompilerInput.from_json(document).context.event_time == event_time


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("tuples"), "tuples: is missing"),
        (lambda d: d.pop("context"), "context: is missing"),
        (lambda d: d.update(tuples=[]), "tuples: must hold at least one tuple"),
        (lambda d: d.update(tuples={}), "tuples: must be a list of tuples, not an object"),
        (lambda d: d.update(tuples=["a b c"]), "tuples[0]: must be an object, not a string"),
        (lambda d: d.update(context=[]), "context: must be an object, not a list"),
        (lambda d: d.update(utterance=3), "utterance: must be a string, not a number"),
        (lambda d: d.update(extra=1), "unknown field `extra` (expected one of: utterance, tuples, context)"),
        (
            lambda d: d["context"].update(metadata={"k": 1}),
            "context.metadata.k: must be a string, not a number",
        ),
        (
            lambda d: d["context"].update(metadata=[]),
            "context.metadata: must be an object of strings, not a list",
        ),
        (lambda d: d["context"].update(agent_id=""), "context.agent_id: must not be empty"),
        (lambda d: d["context"].update(scop="x"), "context: unknown field `scop` (did you mean `scope`?)"),
    ],
)
def test_bad_documents(mutate: Any, message: str) -> None:
    document = valid()
    mutate(document)
    assert error_for(document) == message


def test_not_an_object() -> None:
    with pytest.raises(InputError, match="must be an object, not a list"):
        CompilerInput.from_json([])


def test_constructors_validate_too() -> None:
    with pytest.raises(InputError, match="subject: a label must not be empty"):
        SemanticTuple(" ", "p", "o")
    with pytest.raises(InputError, match="event_time: must be an ISO 8601 date-time"):
        ContextMeta("soon", "s", "x")
    with pytest.raises(InputError, match="tuples: must hold at least one tuple"):
        CompilerInput((), ContextMeta("2026-01-01", "s", "x"))
    with pytest.raises(TypeError, match="tuples\\[0\\] must be a SemanticTuple"):
        CompilerInput(({"subject": "a"},), ContextMeta("2026-01-01", "s", "x"))  # type: ignore[arg-type]


def test_context_metadata_is_read_only() -> None:
    context = ContextMeta("2026-01-01", "s", "x", metadata={"k": "v"})
    with pytest.raises(TypeError):
        context.metadata["k"] = "w"  # type: ignore[index]
    assert context.to_json() == {
        "event_time": "2026-01-01",
        "source": "s",
        "scope": "x",
        "metadata": {"k": "v"},
    }
