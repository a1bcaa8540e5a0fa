"""Reading inputs: a JSON object, a JSON array, JSON Lines, stdin; errors name the file, line and field."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from zerolang.memory import InsertResult, ingest, load_inputs, parse_inputs
from zerolang.storage import open_store
from zerolang.util.errors import ZeroError

from .conftest import EXAMPLE_INPUT, dump


def record(subject: str = "agent", confidence: object = 0.9, scope: str = "s") -> dict[str, object]:
    return {
        "tuples": [{"subject": subject, "predicate": "needs", "object": "LTM", "confidence": confidence}],
        "context": {"event_time": "2026-02-18T00:00:00Z", "source": "test", "scope": scope},
    }


def test_one_object() -> None:
    (item,) = parse_inputs(json.dumps(record(), indent=2))
    assert (item.number, item.line) == (1, 1)
    assert item.input.tuples[0].subject == "agent"


def test_an_array_with_line_numbers() -> None:
    text = "[\n" + ",\n".join(json.dumps(record(scope=str(i)), indent=1) for i in range(3)) + "\n]\n"
    items = parse_inputs(text)
    assert [item.input.context.scope for item in items] == ["0", "1", "2"]
    height = len(json.dumps(record(), indent=1).splitlines())
    assert [item.line for item in items] == [2, 2 + height, 2 + 2 * height]
    assert parse_inputs("[]") == []


def test_json_lines_with_blank_lines_and_odd_characters() -> None:
    special = record(subject="line\u2028separator")
    text = "\n".join([json.dumps(record()), "", "   ", json.dumps(special, ensure_ascii=False), ""])
    items = parse_inputs("\ufeff" + text)  # a byte order mark is tolerated
    assert [item.line for item in items] == [1, 4]
    assert items[1].input.tuples[0].subject == "line\u2028separator"


def test_the_example_file() -> None:
    items = load_inputs(EXAMPLE_INPUT)
    assert [item.line for item in items] == [2, 17, 32]


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.dumps(record()).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    (item,) = load_inputs("-")
    assert item.input.tuples[0].object == "LTM"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "in.json: no input"),
        ("  \n ", "in.json: no input"),
        ('{"tuples": [}', "in.json:1:13: invalid JSON: Expecting value"),
        (
            "[\n" + json.dumps(record()) + "\n" + json.dumps(record()) + "]",
            "in.json:3:1: invalid JSON: expected `,` or `]`",
        ),
        ("[" + json.dumps(record()) + "] x", "in.json:1:"),
        (
            json.dumps(record()) + "\n" + json.dumps(record(confidence=2)) + "\n",
            "in.json:2:1: record 2: tuples[0].confidence: must be between 0 and 1, not 2",
        ),
        (json.dumps(record()) + "\n{oops\n", "in.json:2:2: invalid JSON: Expecting property name"),
        (
            json.dumps(record()) + "\n" + json.dumps(record()) + " " + json.dumps(record()),
            "one JSON document per line",
        ),
        (
            "[\n  " + json.dumps(record()) + ",\n  " + json.dumps(record(subject=" ")) + "\n]",
            "in.json:3:3: record 2: tuples[0].subject: a label must not be empty",
        ),
        (
            json.dumps(record(confidence=float("nan"))),
            "`NaN` is not a JSON number (numbers must be finite)",  # refused where it is written
        ),
        ('"just a string"', "in.json:1:1: must be an object, not a string"),
    ],
)
def test_errors_name_the_place(text: str, message: str) -> None:
    with pytest.raises(ZeroError) as caught:
        parse_inputs(text, "in.json")
    assert message in caught.value.headline()
    assert "\n" not in caught.value.headline()


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ZeroError, match="no such input file"):
        load_inputs(tmp_path / "missing.json")
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"x": "\xe9"}')
    with pytest.raises(ZeroError, match="not UTF-8"):
        load_inputs(bad)


def test_ingest_validates_everything_before_writing(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(
        json.dumps(record()) + "\n" + json.dumps(record(confidence="high")) + "\n", encoding="utf-8"
    )
    with pytest.raises(ZeroError, match=r"in\.jsonl:2:1: record 2"):
        load_inputs(path)


def test_ingest_compiles_and_stores_and_is_idempotent() -> None:
    items = load_inputs(EXAMPLE_INPUT)
    with open_store() as store:
        first = ingest(store, items)
        assert first == InsertResult(new_concepts=8, new_facts=8, new_episodes=9, duplicates=0)
        before = dump(store)
        assert ingest(store, items) == InsertResult(duplicates=9)
        assert dump(store) == before
        assert ingest(store, [item.input for item in items]) == InsertResult(duplicates=9)
        assert store.check().ok
