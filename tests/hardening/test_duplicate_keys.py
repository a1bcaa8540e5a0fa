"""Issue 23, point 2: a key given twice is an error naming the key and both places, in `.0`, `.0c`
metadata, JSON inputs to memory and run, and query clauses; numbers must be finite."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.support import ROOT, graph, zero
from zerolang.knowledge.formats.compact import CompactError
from zerolang.knowledge.formats.compact import parse as parse_compact
from zerolang.knowledge.ingest import parse_inputs
from zerolang.knowledge.query import parse_query
from zerolang.runtime.validator import validate
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph
from zerolang.tools.lint import fix_source, lint_graph, lint_source
from zerolang.util.errors import ZeroError
from zerolang.util.files import parse_json
from zerolang.util.strictjson import locate

DUPLICATED = graph(
    '{ id: "a", type: Constant, value: 1, value: 2 }',
    '{ id: "b", type: Operation, op: ToUpper, op: ToLower, inputs: ["w"] }',
    '{ id: "w", type: Constant, value: { k: "x", "k": "y" } }',
    outputs='"a", "b"',
)


def test_every_duplicate_key_in_0_is_z020_with_both_places() -> None:
    found = [(d.code, d.message) for d in validate(parse(DUPLICATED))]
    assert [code for code, _ in found] == ["Z020", "Z020", "Z020"]
    assert [message.split(":")[0] for _, message in found] == [
        "duplicate key `value`",
        "duplicate key `op`",
        "duplicate key `k`",
    ]
    assert all("first at " in message and ", again at " in message for _, message in found)


@pytest.mark.parametrize("command", [["check"], ["run"]])
def test_check_and_run_refuse_duplicate_keys(command: list[str], tmp_path: Path) -> None:
    path = tmp_path / "dup.0"
    path.write_text(DUPLICATED, encoding="utf-8")
    outcome = zero(*command, str(path))
    assert outcome.code == 1, outcome.stderr
    assert "duplicate key `value`: first at 4:36, again at 4:46" in outcome.stderr


def test_lint_fix_keeps_the_last_and_offers_the_first() -> None:
    findings = [f for f in lint_source(DUPLICATED, "d.0") if f.code == "Z020"]
    assert len(findings) == 3 and all(f.fix is not None and not f.fix.safe for f in findings)
    assert not fix_source(DUPLICATED, "d.0").changed  # unsafe: only when asked
    fixed = fix_source(DUPLICATED, "d.0", unsafe=True).source
    assert "value: 2" in fixed and "value: 1" not in fixed and "op: ToLower" in fixed
    assert validate(parse(fixed)) == []
    # an alternative edits the tree it was found on: lint a tree of our own, then apply it
    tree = parse(DUPLICATED)
    chosen = next(f for f in lint_graph(tree, DUPLICATED, "d.0") if f.code == "Z020")
    assert chosen.fix is not None
    chosen.fix.alternatives[0].edit(tree)
    assert "value: 1" in print_graph(tree) and "value: 2" not in print_graph(tree)
    assert "keep the first" in chosen.fix.alternatives[0].description


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1, "b": {"x": 1}, "a": 2}', 'duplicate key "a": first at 1:2, again at 1:25'),
        ('{"a": {"b": 1,\n "b": 2}}', 'duplicate key "b": first at 1:8, again at 2:2'),
        ('{"a": [1e999]}', "the number 1e999 is out of range"),
        ("[NaN]", "`NaN` is not a JSON number"),
        ('{"x": Infinity}', "`Infinity` is not a JSON number"),
        ("-Infinity", "`-Infinity` is not a JSON number"),
    ],
)
def test_json_readers_refuse_duplicates_and_non_finite_numbers(text: str, message: str) -> None:
    with pytest.raises(ZeroError) as caught:
        parse_json(text, "x.json")
    assert message in str(caught.value)
    problem = locate(text)
    assert problem is not None


def test_same_key_in_different_objects_is_fine() -> None:
    assert parse_json('[{"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}]', "x.json") is not None
    assert locate('{"a": "\\"a\\"", "\\"a\\"": 1}') is None


RECORD = (
    '{"utterance": "x", "context": {"source": "s", "scope": "t"},'
    ' "tuples": [{"subject": "a", "predicate": "b", "object": "c", "confidence": CONF}]EXTRA}'
)


@pytest.mark.parametrize(
    ("conf", "extra", "message"),
    [
        ("1e999", "", "the number 1e999 is out of range"),
        ("NaN", "", "`NaN` is not a JSON number"),
        ("0.5", ', "utterance": "y"', 'duplicate key "utterance": first at '),
    ],
)
def test_memory_inputs_refuse_duplicates_and_non_finite(conf: str, extra: str, message: str) -> None:
    text = RECORD.replace("CONF", conf).replace("EXTRA", extra)
    for document in (text, f"[{text}]", f"{RECORD.replace('CONF', '1').replace('EXTRA', '')}\n{text}"):
        with pytest.raises(ZeroError) as caught:
            parse_inputs(document, "in.json")
        assert message in str(caught.value)


def test_memory_ingest_exits_1_on_a_duplicate_key(tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text(RECORD.replace("CONF", "1").replace("EXTRA", ', "tuples": []'), encoding="utf-8")
    line = zero("memory", "ingest", str(path), "--db", str(tmp_path / "m.db")).clear_error()
    assert 'duplicate key "tuples": first at 1:' in line


def test_run_input_json_refuses_a_duplicate_key() -> None:
    outcome = zero("run", str(ROOT / "examples" / "hello.0"), "-i", 'x:={"a": 1, "a": 2}')
    assert 'duplicate key "a": first at 1:2, again at 1:10' in outcome.clear_error()


def test_0c_metadata_refuses_a_duplicate_key() -> None:
    text = (
        '0M:1.0\na|A\nb|B\nX:2026-02-18T00:00:00Z s t m={"k":"v","k":"w"}\n'
        "@2026-02-20T10:00:00.000Z\n1 needs2 95\n"
    )
    with pytest.raises(CompactError, match='duplicate key "k": first at column 31, again at column 39'):
        parse_compact(text, "x.0c")


def test_query_names_both_places_of_a_repeated_clause() -> None:
    with pytest.raises(ZeroError, match=r"`depth` is given twice: at 1:16 and at 1:24"):
        parse_query("recall a depth 2 depth 3")
    with pytest.raises(ZeroError, match="too large"):
        parse_query("recall a where confidence > " + "9" * 400)


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1" + "0" * 400 + ".0"])
def test_0_numbers_must_be_finite(number: str) -> None:
    source = graph(f'{{ id: "a", type: Constant, value: {number} }}', outputs='"a"')
    with pytest.raises(ZeroError, match="out of range") as caught:
        parse(source, "n.0")
    assert caught.value.span is not None and caught.value.span.line == 4
