"""Issue 41.1: each op's inputs counted against what it declares it reads (Z021), and a run's
`--input`s checked against the graph: a name no External reads is refused, a value the op it
reaches does not use is named, and the run computes exactly what the runtime's rules say."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.runtime.builtins import OPERATIONS

runner = CliRunner()

EXTERNALS = """        { id: "a", type: External, uri: "input://a" },
        { id: "b", type: External, uri: "input://b" },
        { id: "c", type: External, uri: "input://c" },
"""


def graph(node: str) -> str:
    return f'Graph {{\n    name: "g",\n    nodes: [\n{EXTERNALS}        {node},\n    ],\n    outputs: ["x"],\n}}\n'


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        (
            '{ id: "x", type: Operation, op: Equals, inputs: ["a", "b", "c"] }',
            "takes 2 inputs (a, b), but it has 3",
        ),
        (
            '{ id: "x", type: Operation, op: If, inputs: ["a"] }',
            "takes 3 inputs (condition, then, else), but it has 1",
        ),
        ('{ id: "x", type: Operation, op: Not }', "takes 1 input (value), but it has none"),
        ('{ id: "x", type: Operation, op: SetField, params: { field: "k" } }', "takes 1 or 2 inputs"),
        (
            '{ id: "x", type: Operation, op: ToUpper, inputs: ["a", "b"] }',
            "takes 1 input (text), but it has 2",
        ),
        ('{ id: "x", type: Operation, op: Timestamp, inputs: ["a"] }', "takes no inputs, but it has 1"),
        ('{ id: "x", type: Operation, op: MemoryRecall, inputs: [] }', "takes at least 1 input"),
    ],
)
def test_check_and_lint_name_the_node_its_place_and_the_count(
    tmp_path: Path, node: str, expected: str
) -> None:
    path = tmp_path / "g.0"
    path.write_text(graph(node), encoding="utf-8")
    checked = runner.invoke(app, ["check", str(path)])
    assert checked.exit_code == 1
    assert "All checks passed" not in checked.output
    (headline,) = [line for line in checked.output.splitlines() if "[Z021]" in line]
    assert re.search(rf"{re.escape(str(path))}:7:\d+: node `x`: `\w+` {re.escape(expected)}", headline), (
        headline
    )
    linted = runner.invoke(app, ["lint", str(path)])
    assert linted.exit_code == 1
    assert f"{path}:7:" in linted.output and "Z021" in linted.output and expected in linted.output
    as_json = json.loads(runner.invoke(app, ["check", str(path), "--json"]).output)
    (problem,) = as_json[0]["problems"]
    assert problem["code"] == "Z021" and problem["line"] == 7 and problem["severity"] == "error"


@pytest.mark.parametrize(
    "node",
    [
        '{ id: "x", type: Operation, op: Equals, inputs: ["a", "b"] }',
        '{ id: "x", type: Operation, op: If, inputs: ["a", "b", "c"] }',
        '{ id: "x", type: Operation, op: SetField, inputs: ["a"], params: { field: "k" } }',
        '{ id: "x", type: Operation, op: Verify, inputs: ["a", "b"] }',
        '{ id: "x", type: Operation, op: Verify, inputs: ["a", "b", "c"] }',
        '{ id: "x", type: Operation, op: Concat, inputs: ["a", "b", "c"] }',
        '{ id: "x", type: Operation, op: Timestamp }',
        '{ id: "x", type: Operation, op: MemoryRecall, inputs: ["a", "b", "c"] }',
    ],
)
def test_the_counts_each_op_declares_pass(tmp_path: Path, node: str) -> None:
    path = tmp_path / "g.0"
    path.write_text(graph(node), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output


def test_zero_ops_shows_the_counts_check_uses() -> None:
    listed = json.loads(runner.invoke(app, ["ops", "--json"]).output)
    text = json.dumps(listed)
    for name in ("SetField", "Verify"):
        assert OPERATIONS[name].signature in text
    assert OPERATIONS["SetField"].arity == (1, 2)
    assert OPERATIONS["If"].arity == (3, 3)
    assert OPERATIONS["Add"].arity == (0, None)
    assert OPERATIONS["Timestamp"].arity == (0, 0)


PRICE = """Graph {
    name: "price",
    nodes: [
        { id: "price", type: External, uri: "input://price" },
        { id: "qty", type: External, uri: "input://qty" },
        { id: "subtotal", type: Operation, op: Multiply, inputs: ["price", "qty"] },
        { id: "label", type: Operation, op: ToUpper, inputs: ["qty"] },
    ],
    outputs: ["subtotal", "label"],
}
"""


@pytest.fixture
def price(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    Path("price.0").write_text(PRICE, encoding="utf-8")
    return "price.0"


def test_a_misspelt_input_is_refused_with_what_it_meant(price: str) -> None:
    result = runner.invoke(app, ["run", price, "-i", "prce:=12", "-i", "qty:=10", "--json"])
    assert result.exit_code == 1
    assert "no External node reads input `prce`: did you mean `price`?" in result.stderr
    assert result.stdout == ""  # nothing run, nothing printed


def test_an_unread_key_of_an_inputs_file_is_a_warning(price: str) -> None:
    Path("inputs.json").write_text('{"price": 2, "qty": 3, "other": 1}', encoding="utf-8")
    result = runner.invoke(app, ["run", price, "--inputs", "inputs.json", "--json"])
    assert result.exit_code == 0
    assert "no External node reads input `other`" in result.stderr
    assert json.loads(result.stdout)["outputs"]["subtotal"] == 6.0


def test_a_string_into_arithmetic_is_named_and_the_run_is_unchanged(price: str) -> None:
    result = runner.invoke(app, ["run", price, "-i", "price=12.5", "-i", "qty=10", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["outputs"]["subtotal"] == 1.0  # the runtime's rule: strings skipped
    assert 'input `price` is the string "12.5"' in result.stderr
    assert "`Multiply` (node `subtotal`)" in result.stderr
    assert "`-i price:=12.5`" in result.stderr and "`-i qty:=10`" in result.stderr


def test_a_number_into_a_string_op_is_named(price: str) -> None:
    result = runner.invoke(app, ["run", price, "-i", "price:=2", "-i", "qty:=10", "--json"])
    assert result.exit_code == 0
    assert "`ToUpper` (node `label`)" in result.stderr and "`-i qty=10` for a string" in result.stderr
    assert "input `price`" not in result.stderr  # a number into Multiply fits


def test_run_warns_about_input_counts_and_runs_as_the_spec_says(tmp_path: Path) -> None:
    path = tmp_path / "g.0"
    path.write_text(graph('{ id: "x", type: Operation, op: Equals, inputs: ["a"] }'), encoding="utf-8")
    result = runner.invoke(app, ["run", str(path), "-i", "a:=null", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["outputs"]["x"] is True  # a missing input is null: null == null
    assert f"{path}:7:" in result.stderr and "warning:" in result.stderr and "[Z021]" in result.stderr
