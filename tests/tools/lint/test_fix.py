"""`--fix`: fixes edit the tree, the printer writes the file; the result lints clean of what was fixed,
validates and runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.tools.lint.support import ROOT, case, codes, graph, lint_text
from zerolang.runtime.interpreter import run
from zerolang.runtime.validator import validate
from zerolang.syntax.parser import parse
from zerolang.tools.lint import RULES, Applicability, fix_source
from zerolang.tools.lint.rules.unknown_op import unambiguous_op
from zerolang.util.config import LintSettings, Settings

FIXABLE = [code for code, rule in RULES.items() if rule.fix is not None]


@pytest.mark.parametrize("code", FIXABLE)
def test_fixed_case(code: str, snapshot: SnapshotAssertion) -> None:
    source = case(code, "bad").read_text(encoding="utf-8")
    result = fix_source(source, "bad.0", unsafe=RULES[code].fix is Applicability.UNSAFE)
    assert result.source == snapshot
    assert code in {finding.code for finding in result.fixed}
    assert code not in codes(result.source)
    assert result.findings == lint_text(result.source, "bad.0")
    fixed = parse(result.source)
    assert validate(fixed) == []
    run(fixed)


@pytest.mark.parametrize("code", FIXABLE)
def test_fixing_twice_changes_nothing(code: str) -> None:
    unsafe = RULES[code].fix is Applicability.UNSAFE
    once = fix_source(case(code, "bad").read_text(encoding="utf-8"), unsafe=unsafe).source
    again = fix_source(once, unsafe=unsafe)
    assert again.source == once
    assert not again.changed


def test_nothing_to_fix_leaves_the_text_byte_for_byte() -> None:
    source = (ROOT / "examples" / "router.0").read_text(encoding="utf-8")  # deliberately not canonical
    result = fix_source(source)
    assert result.source == source
    assert not result.changed


def test_unsafe_fixes_need_asking_for() -> None:
    source = case("Z011", "bad").read_text(encoding="utf-8")
    assert not fix_source(source).changed
    assert 'id: "shout"' not in fix_source(source, unsafe=True).source


def test_fixes_keep_comments() -> None:
    source = graph(
        '{ id: "m", type: Constant, value: { x: 1 } }',
        "{\n"
        '            id: "x",  # the x of m\n'
        "            type: Operation,\n"
        "            op: GetField,\n"
        '            inputs: ["m"],\n'
        '            field: "x",  # which field\n'
        "        }",
        outputs='["x"]',
    )
    fixed = fix_source(source).source
    assert "# the x of m" in fixed
    assert "# which field" in fixed
    assert parse(fixed).nodes[1].params is not None


def test_legacy_example_fixes_what_can_be_fixed(tmp_path: Path) -> None:
    copy = tmp_path / "legacy.0"
    shutil.copy(ROOT / "examples" / "broken" / "legacy.0", copy)
    result = fix_source(copy.read_text(encoding="utf-8"), copy)
    assert [finding.code for finding in result.fixed] == ["Z003", "Z001"]
    remaining = [finding.code for finding in result.findings]
    assert "Z004" in remaining  # no fix: which node was meant is the author's call
    assert remaining.count("Z008") == 2  # the MergeMap that replaced Aggregate drops both inputs
    assert "op: Equals" in result.source
    assert 'outputs: ["all"]' in result.source


def test_fixes_only_for_enabled_rules() -> None:
    source = case("Z003", "bad").read_text(encoding="utf-8")
    settings = Settings(lint=LintSettings(ignore=("Z003",)))
    assert not fix_source(source, settings=settings).changed


def test_suppressed_findings_are_not_fixed() -> None:
    source = graph(
        '{ id: "a", type: Constant, value: 1 }',
        '{ id: "b", type: Operation, op: Eq, inputs: ["a", "a"] }  # zero: noqa: Z003',
        outputs='["b"]',
    )
    assert not fix_source(source).changed


def test_fixed_file_uses_the_configured_width() -> None:
    source = case("Z010", "bad").read_text(encoding="utf-8")
    narrow = fix_source(source, settings=Settings(line_width=60)).source
    wide = fix_source(source, settings=Settings(line_width=200)).source
    assert max(map(len, wide.splitlines())) > 60
    assert all(len(line) <= 60 for line in narrow.splitlines() if not line.lstrip().startswith("#"))


def test_aggregate_without_outputs_field() -> None:
    source = graph(
        '{ id: "a", type: Constant, value: { x: 1 } }',
        '{ id: "all", type: Aggregate, inputs: ["a"] }',
        outputs='["all"]',
    )
    fixed = fix_source(source).source
    assert '{ id: "all", type: Operation, op: MergeMap, inputs: ["a"] }' in fixed
    assert run(parse(fixed)).outputs == {"all": {"x": 1}}


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("Eq", "Equals"),
        ("Sha256", "Hash"),
        ("equals", "Equals"),
        ("CONCAT", "Concat"),
        ("Concatt", "Concat"),
        ("StringFormat", None),  # Concat takes other params: named, not renamed
        ("JsonGet", None),
        ("HttpGet", None),
        ("JsonParse", None),
    ],
)
def test_only_unambiguous_ops_are_renamed(name: str, meant: str | None) -> None:
    assert unambiguous_op(name) == meant


def test_ambiguous_op_has_no_fix() -> None:
    source = graph(
        '{ id: "a", type: Constant, value: 1 }',
        '{ id: "b", type: Operation, op: StringFormat, inputs: ["a"] }',
        outputs='["b"]',
    )
    [finding] = lint_text(source)
    assert finding.code == "Z003"
    assert "Concat" in finding.message
    assert finding.fix is None


def test_node_level_param_with_non_map_params_is_reported_without_fix() -> None:
    source = graph(
        '{ id: "m", type: Constant, value: { x: 1 } }',
        '{ id: "x", type: Operation, op: GetField, inputs: ["m"], field: "x", params: [] }',
        outputs='["x"]',
    )
    [z010] = [finding for finding in lint_text(source) if finding.code == "Z010"]
    assert z010.fix is None


def test_unused_node_removal_keeps_the_comment_above_it() -> None:
    source = graph(
        '{ id: "a", type: Constant, value: 1 }',
        '# ---- section ----\n        { id: "unused", type: Constant, value: 2 }',
        '{ id: "b", type: Operation, op: Identity, inputs: ["a"] }',
        outputs='["b"]',
    )
    fixed = fix_source(source, unsafe=True).source
    assert "unused" not in fixed
    assert "# ---- section ----" in fixed


def test_unused_node_removal_is_not_offered_when_references_are_broken() -> None:
    source = graph('{ id: "greeting", type: Constant, value: "hi" }', outputs='["greting"]')
    [unused] = [finding for finding in lint_text(source) if finding.code == "Z011"]
    assert unused.fix is None
    assert not fix_source(source, unsafe=True).changed


def test_lookup_input_as_a_list_is_renamed() -> None:
    source = graph(
        '{ id: "k", type: Constant, value: "a" }',
        '{ id: "l", type: Lookup, input: ["k"], table: { a: "A" } }',
        outputs='["l"]',
    )
    assert fix_source(source).source == source  # the fix changes what `l` computes: unsafe
    fixed = fix_source(source, unsafe=True).source
    assert 'inputs: ["k"]' in fixed
    assert run(parse(fixed)).outputs == {"l": "A"}


def test_input_beside_inputs_is_reported_without_fix() -> None:
    source = graph(
        '{ id: "k", type: Constant, value: "a" }',
        '{ id: "l", type: Lookup, input: "k", inputs: ["k"], table: { a: "A" } }',
        outputs='["l"]',
    )
    [finding] = lint_text(source)
    assert finding.code == "Z013"
    assert finding.fix is None
    assert "never read" in finding.message
