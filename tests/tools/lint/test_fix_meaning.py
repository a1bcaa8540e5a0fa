"""Issue 23, point 3: every fix keeps or states its meaning. Safe fixes never change what a run
computes (on generated graphs that need them); unsafe fixes say in their description what changes;
Z019 renames a short form of the param the op reads; `zero ops`, the validator and the linter agree
on aliases (an alias listed as an op name runs; the others are said not to be op names)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.strategies import runnable_graphs
from tests.tools.lint.support import case, graph, lint_text
from zerolang.cli.app import app
from zerolang.runtime.builtins import OPERATIONS
from zerolang.runtime.interpreter import run
from zerolang.runtime.validator import validate
from zerolang.syntax.ast import Entry, Graph, Map, String
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph
from zerolang.tools.lint import RULES, Applicability, fix_source
from zerolang.tools.opdocs import describe

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INPUTS = {"a": "x", "b": 2, "c": [1]}


def _loosened(graph: Graph, choices: list[bool]) -> Graph:
    """The graph with each op's params written beside `op` (Z010), where `choices` says so: what safe
    fixes put back. (A Lookup's `input:` for `inputs`, Z013, is not: that Lookup reads nothing, and
    the fix, which makes it read its input, is unsafe.)"""
    for index, node in enumerate(graph.nodes):
        if not choices[index % len(choices)]:
            continue
        params = node.get("params")
        if node.type == "Operation" and isinstance(params, Map):
            clashing = {"id", "type", "op", "inputs", "params", "input"}
            moving = [entry for entry in params.entries if entry.key not in clashing]
            params.entries = [entry for entry in params.entries if entry not in moving]
            node.entries.extend(Entry(key=entry.key, value=entry.value) for entry in moving)
    return graph


@SETTINGS
@given(runnable_graphs(), st.lists(st.booleans(), min_size=1, max_size=6))
def test_safe_fixes_never_change_what_a_run_computes(graph: Graph, choices: list[bool]) -> None:
    source = print_graph(_loosened(graph, choices))
    before = parse(source)
    if validate(before):
        return
    fixed = fix_source(source)
    assert all(finding.fix is not None and finding.fix.safe for finding in fixed.fixed)
    assert run(parse(fixed.source), INPUTS).outputs == run(before, INPUTS).outputs


UNSAFE_SAYS = {
    "Z011": "remove",
    "Z015": "rename",
    "Z013": "then reads",
    "Z019": "then reads",
    "Z020": "then means",
}


@pytest.mark.parametrize("code", [code for code, rule in RULES.items() if rule.fix is Applicability.UNSAFE])
def test_unsafe_fixes_say_what_changes(code: str) -> None:
    findings = [f for f in lint_text(case(code, "bad").read_text(encoding="utf-8")) if f.code == code]
    descriptions = [f.fix.description for f in findings if f.fix is not None]
    assert descriptions
    for description in descriptions:
        assert re.search(r"`[^`]+`", description), description  # names what it changes
    assert any(UNSAFE_SAYS.get(code, "") in d for d in descriptions), descriptions


CONCAT = graph(
    '{ id: "p", type: Constant, value: "p" }',
    '{ id: "j", type: Operation, op: Concat, inputs: ["p", "p"], params: { sep: ", " } }',
    outputs='["j"]',
)


@pytest.mark.parametrize(
    ("key", "op", "meant"), [("sep", "Concat", "separator"), ("delim", "Split", "separator")]
)
def test_z019_renames_a_short_form_of_the_param_the_op_reads(key: str, op: str, meant: str) -> None:
    source = CONCAT.replace("sep:", f"{key}:").replace("Concat", op)
    (finding,) = [f for f in lint_text(source) if f.code == "Z019"]
    assert f"did you mean `params.{meant}`?" in finding.message
    assert finding.fix is not None and not finding.fix.safe
    assert f"rename `params.{key}` to `params.{meant}`" in finding.fix.description
    fixed = fix_source(source, unsafe=True).source
    assert f"{meant}: " in fixed and "Constant node" not in finding.fix.description


def test_z019_fix_computes_what_was_meant() -> None:
    fixed = fix_source(CONCAT, unsafe=True).source
    assert run(parse(fixed)).outputs == {"j": "p, p"}
    assert 'inputs: ["p", "p"]' in fixed  # no third text input


ALIASES = [(alias, op.name) for op in OPERATIONS.values() for alias in op.aliases]
runner = CliRunner()


@pytest.mark.parametrize(("alias", "name"), ALIASES)
def test_ops_validator_and_linter_agree_on_aliases(alias: str, name: str) -> None:
    source = graph(f'{{ id: "a", type: Operation, op: {alias}, inputs: [] }}', outputs='["a"]')
    runs = not validate(parse(source))
    shown = runner.invoke(app, ["ops", alias]).stdout
    text = describe(name) or ""
    listed_as_name = re.search(r"^Also written:.*`" + re.escape(alias) + "`", text, re.MULTILINE)
    assert bool(listed_as_name) == runs, (alias, text)
    if not runs:
        assert f"Not op names (zero lint --fix renames them to `{name}`)" in text
        assert f"write `{name}` in a graph" in shown
        fixed = fix_source(source).source  # the linter's safe rename
        assert f"op: {name}" in fixed and not validate(parse(fixed))
    assert String(name).value in OPERATIONS
