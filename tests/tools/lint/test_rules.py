"""Every rule: one bad case that reports its code, one good case that is clean, and the report's snapshot.

The good cases are clean of every rule (not just their own), validate and
run, so they also guard all rules against false positives.
"""

from __future__ import annotations

import re

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.tools.lint.support import CASES, case, lint_text, report
from zerolang.runtime.interpreter import run
from zerolang.runtime.validator import validate
from zerolang.syntax.parser import parse
from zerolang.tools.lint import RULES, Applicability
from zerolang.util.errors import Severity

CODES = list(RULES)


def test_every_rule_has_exactly_a_bad_and_a_good_case() -> None:
    expected = {f"{code}_{kind}.0" for code in CODES for kind in ("bad", "good")}
    assert {path.name for path in CASES.glob("*.0")} == expected


def test_codes_are_stable_and_contiguous() -> None:
    expected = [f"Z{number:03d}" for number in range(1, len(CODES) + 1)]
    assert list(RULES) == expected


@pytest.mark.parametrize("code", CODES)
def test_rule_is_documented(code: str) -> None:
    rule = RULES[code]
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name)
    assert rule.summary.endswith(".")
    assert len(rule.explanation) > 80, "say why it matters"
    assert rule.severity in (Severity.ERROR, Severity.WARNING)


@pytest.mark.parametrize("code", CODES)
def test_bad_case_reports_its_code(code: str) -> None:
    findings = lint_text(case(code, "bad").read_text(encoding="utf-8"))
    assert code in {finding.code for finding in findings}
    assert all(f.severity is RULES[code].severity for f in findings if f.code == code)


@pytest.mark.parametrize("code", CODES)
def test_good_case_is_clean_valid_and_runs(code: str) -> None:
    source = case(code, "good").read_text(encoding="utf-8")
    assert lint_text(source) == []
    graph = parse(source)
    assert validate(graph) == []
    run(graph)


@pytest.mark.parametrize("code", CODES)
def test_bad_case_report(code: str, snapshot: SnapshotAssertion) -> None:
    path = case(code, "bad")
    assert report(path.read_text(encoding="utf-8"), path.name) == snapshot


@pytest.mark.parametrize("code", CODES)
def test_fix_is_offered_only_as_declared(code: str) -> None:
    rule = RULES[code]
    findings = [f for f in lint_text(case(code, "bad").read_text(encoding="utf-8")) if f.code == code]
    offered = {f.fix.applicability for f in findings if f.fix is not None}
    declared = {rule.fix} if rule.fix else set()
    if rule.fix is Applicability.UNSAFE:  # a rule whose fixes may change meaning may offer safe ones too
        declared.add(Applicability.SAFE)
    assert offered <= declared
    if rule.fix is not None:
        assert offered, f"{code} declares a {rule.fix} fix: its bad case should show it"
