"""The four report formats: text for people, json for scripts, SARIF for code scanning, github annotations."""

from __future__ import annotations

import json

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.tools.lint.support import case, graph, report
from zerolang.syntax.ast import Span
from zerolang.tools.lint import RULES, lint_source
from zerolang.tools.lint.model import Finding
from zerolang.tools.lint.report import Format, remaining, render
from zerolang.tools.lint.report.github import annotation
from zerolang.tools.lint.runner import FileResult
from zerolang.util.errors import Severity
from zerolang.util.limits import MAX_DIAGNOSTICS, more_line

LEGACY_LIKE = graph(
    '{ id: "text", type: Constant, value: "hello" }',
    '{ id: "same", type: Operation, op: Eq, inputs: ["text", "text"] }',
    '{ id: "all", type: Aggregate, inputs: ["text", "same"] }',
    outputs='["all.result"]',
)
BROKEN = 'Graph {\n    name: "b",\n    nodes: [\n        { id: "a" }\n        { id: "b" },\n    ],\n}\n'


def test_json_shape_is_exactly_as_documented() -> None:
    document = json.loads(report(LEGACY_LIKE, "g.0", Format.JSON))
    assert document == [
        {
            "path": "g.0",
            "line": 5,
            "column": 44,
            "end_line": 5,
            "end_column": 46,
            "code": "Z003",
            "severity": "error",
            "message": "unknown op `Eq`: did you mean `Equals`?",
            "fix": "rename `Eq` to `Equals`",
        },
        {
            "path": "g.0",
            "line": 6,
            "column": 28,
            "end_line": 6,
            "end_column": 37,
            "code": "Z001",
            "severity": "error",
            "message": "node type `Aggregate` does not exist in the runtime: use `Operation` with `op: MergeMap`",
            "fix": "change `all` to `Operation` with `op: MergeMap`, output `all.result` becomes `all`",
        },
    ]


def test_json_of_a_clean_file_is_an_empty_list() -> None:
    assert json.loads(report(case("Z001", "good").read_text(encoding="utf-8"), "g.0", Format.JSON)) == []


def test_json_of_a_file_that_does_not_parse() -> None:
    [item] = json.loads(report(BROKEN, "b.0", Format.JSON))
    assert item["code"] is None
    assert (item["line"], item["column"], item["severity"]) == (5, 9, "error")
    assert "missing a comma" in item["message"]


def test_sarif() -> None:
    document = json.loads(report(LEGACY_LIKE, "dir/g.0", Format.SARIF))
    assert document["version"] == "2.1.0"
    assert document["$schema"].endswith("sarif-2.1.0.json")
    [run] = document["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules][: len(RULES)] == list(RULES)
    for rule in rules[: len(RULES)]:
        assert rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning")
    results = run["results"]
    assert [result["ruleId"] for result in results] == ["Z003", "Z001"]
    first = results[0]
    assert rules[first["ruleIndex"]]["id"] == "Z003"
    assert first["level"] == "error"
    assert first["message"]["text"] == "unknown op `Eq`: did you mean `Equals`?"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "dir/g.0"
    assert location["region"] == {"startLine": 5, "startColumn": 44, "endLine": 5, "endColumn": 46}


def test_sarif_of_a_file_that_does_not_parse() -> None:
    document = json.loads(report(BROKEN, "b.0", Format.SARIF))
    [result] = document["runs"][0]["results"]
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == "syntax-error"


def test_github_annotations() -> None:
    lines = report(LEGACY_LIKE, "g.0", Format.GITHUB).splitlines()
    assert lines == [
        "::error file=g.0,line=5,col=44,endLine=5,endColumn=46,title=Z003::unknown op `Eq`: did you mean `Equals`?",
        "::error file=g.0,line=6,col=28,endLine=6,endColumn=37,title=Z001::node type `Aggregate` does not exist"
        " in the runtime: use `Operation` with `op: MergeMap`",
    ]


def test_github_warnings_and_escaping() -> None:
    [finding] = lint_source(case("Z011", "bad").read_text(encoding="utf-8"), "a,b:c.0")
    finding.message = "50% done\nnext line"
    assert annotation(finding) == (
        "::warning file=a%2Cb%3Ac.0,line=6,col=15,endLine=6,endColumn=22,title=Z011::50%25 done%0Anext line"
    )


def test_text_report(snapshot: SnapshotAssertion) -> None:
    assert report(LEGACY_LIKE, "g.0") == snapshot


def test_text_report_of_a_file_that_does_not_parse(snapshot: SnapshotAssertion) -> None:
    assert report(BROKEN, "b.0") == snapshot


def test_text_summary_when_clean() -> None:
    assert report(case("Z001", "good").read_text(encoding="utf-8")) == "All checks passed!\n"


def test_text_report_after_fixing(snapshot: SnapshotAssertion) -> None:
    from zerolang.tools.lint import fix_source

    fixed = fix_source(LEGACY_LIKE, "g.0")
    result = FileResult("g.0", fixed.source, fixed.findings, fixed.fixed)
    assert render([result], Format.TEXT, fixing=True) == snapshot


@pytest.mark.parametrize("output_format", list(Format))
def test_every_format_shows_a_file_s_first_findings_then_how_many_more(output_format: Format) -> None:
    """Past `MAX_DIAGNOSTICS` findings in a file, each format shows the first ones and says how many
    more there are; the exit code still counts them all."""
    many = [
        Finding("Z002", f"unknown op number {n}", Span(n + 1, 5, n + 1, 9, 0, 0), Severity.ERROR, "big.0")
        for n in range(MAX_DIAGNOSTICS + 7)
    ]
    few = [Finding("Z002", "unknown op in the small file", Span(1, 5, 1, 9, 0, 0), Severity.ERROR, "small.0")]
    results = [FileResult("big.0", None, many), FileResult("small.0", None, few)]
    report = render(results, output_format)
    assert f"unknown op number {MAX_DIAGNOSTICS - 1}" in report
    assert f"unknown op number {MAX_DIAGNOSTICS}" not in report
    assert "unknown op in the small file" in report
    assert more_line(7) in report and report.count("more problem") == 1
    assert remaining(results) == MAX_DIAGNOSTICS + 8
    if output_format is Format.JSON:
        objects = json.loads(report)
        assert len(objects) == MAX_DIAGNOSTICS + 2
        note = objects[MAX_DIAGNOSTICS]
        assert note["severity"] == "note" and note["path"] == "big.0" and note["message"] == more_line(7)
        assert set(note) == set(objects[0])
