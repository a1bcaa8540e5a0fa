"""The builtins are defined once (`@builtin`), and everything that lists or reads them agrees."""

from __future__ import annotations

import ast
import inspect
import json
import re

import pytest
from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.runtime import builtins
from zerolang.runtime.builtins import OPERATIONS
from zerolang.runtime.catalog import LOOSE_ALIASES, OP_ALIASES, OP_PARAMS, OPS
from zerolang.runtime.validator import validate
from zerolang.syntax.parser import parse

runner = CliRunner()


def read_params(function: object) -> set[str]:
    """The `params` keys a builtin's source reads: `params.get("k")`, `params["k"]`, `_str_param(params, "k")`."""
    tree = ast.parse(inspect.getsource(function))  # type: ignore[arg-type]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            callee = node.func
            is_get = isinstance(callee, ast.Attribute) and callee.attr == "get"
            target = callee.value if isinstance(callee, ast.Attribute) else None
            if is_get and isinstance(target, ast.Name) and target.id == "params":
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
            if isinstance(callee, ast.Name) and callee.id == "_str_param":
                key = node.args[1]
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    found.add(key.value)
    return found


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_declared_params_are_the_params_the_code_reads(name: str) -> None:
    op = OPERATIONS[name]
    declared = set(op.param_names)
    if name == "ClassifyIntent":
        declared.discard("classes")  # read and ignored, as in the old runtime: declared so lint accepts it
    assert read_params(op.function) == declared
    assert op.doc and op.summary.endswith((".", ")")), "the docstring is the op's documentation"
    assert all(param.doc for param in op.params)


def test_the_catalog_derives_from_the_builtins() -> None:
    assert tuple(OPERATIONS) == OPS and len(OPS) == 40
    assert {name: op.function for name, op in OPERATIONS.items()} == builtins.BUILTINS
    assert OP_PARAMS["StartsWith"] == ("prefix",) and "CreateMap" not in OP_PARAMS
    assert OP_ALIASES["Eq"] == "Equals" and OP_ALIASES["JsonGet"] == "GetField"
    assert {"JsonGet", "StringFormat"} == LOOSE_ALIASES
    assert not set(OP_ALIASES) & set(OPS)


def test_zero_ops_lists_every_builtin_with_its_summary() -> None:
    result = runner.invoke(app, ["ops"])
    assert result.exit_code == 0
    for op in OPERATIONS.values():
        assert re.search(rf"^  {re.escape(op.signature)} +{re.escape(op.summary)}$", result.stdout, re.M), (
            op.name
        )
    assert result.stdout.startswith("40 builtins")


def test_zero_ops_describes_one_op_by_name_or_alias() -> None:
    result = runner.invoke(app, ["ops", "StartsWith"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "StartsWith(text) {prefix}    (strings)"
    assert "  prefix   the prefix to look for" in result.stdout
    alias = runner.invoke(app, ["ops", "eq"])
    assert alias.exit_code == 0 and alias.stdout.startswith(
        "(`eq` means Equals; write `Equals` in a graph)\n\nEquals(a, b)"
    )
    node_type = runner.invoke(app, ["ops", "Permission"])
    assert node_type.exit_code == 0 and "Required: `action`, `min_confidence`" in node_type.stdout


def test_zero_ops_json() -> None:
    listed = json.loads(runner.invoke(app, ["ops", "--json"]).stdout)
    assert [entry["name"] for entry in listed] == list(OPS)
    one = json.loads(runner.invoke(app, ["ops", "GetField", "--json"]).stdout)
    assert one["params"] == [{"name": "field", "doc": "the key to read"}] and one["aliases"] == ["Get"]


def test_zero_ops_unknown_name_is_a_clear_error() -> None:
    result = runner.invoke(app, ["ops", "Equalz"])
    assert result.exit_code == 1
    assert "`Equalz` is neither a builtin op nor a node type: did you mean `Equals`?" in result.output


def test_the_unknown_op_message_points_at_a_real_command() -> None:
    graph = parse('Graph { name: "g", nodes: [{ id: "x", type: Operation, op: HttpGet }], outputs: [] }')
    (problem,) = validate(graph)
    assert problem.message == "unknown op `HttpGet` (`zero ops` lists the 40 builtins)"
    assert runner.invoke(app, ["ops"]).stdout.startswith("40 builtins")


def test_hover_texts_for_params_and_fields() -> None:
    from zerolang.tools.opdocs import describe, field_doc, param_doc

    assert param_doc("Split", "separator") == '`Split` param `separator`: where to cut (default " ")'
    assert param_doc("Equals", "compare") is None
    assert param_doc("CreateMap", "anything") == "`CreateMap`: every key of `params` becomes a key of the map"
    assert field_doc("min_confidence") is not None and "sender_confidence" in field_doc(
        "min_confidence", in_condition=False
    )  # type: ignore[operator]
    assert field_doc("threshold", in_condition=True) is not None
    assert field_doc("nonsense") is None
    assert describe("Nope") is None
    assert (describe("External") or "").startswith("External    (node type)")


def test_one_quick_fix() -> None:
    from zerolang.tools.lint import fix_one, lint_source

    source = 'Graph { name: "g", nodes: [ { id: "x", type: Constant, value: 1 }, { id: "y", type: Operation, op: Eq, inputs: ["x", "x"] } ], outputs: ["y"] }'
    (finding,) = [f for f in lint_source(source) if f.code == "Z003"]
    assert finding.span is not None
    fixed = fix_one(source, "Z003", finding.span.start)
    assert fixed is not None and "op: Equals" in fixed
    assert fix_one(source, "Z003", finding.span.start + 1) is None
