"""`--format sarif`: SARIF 2.1.0, the format code-scanning services (GitHub's among them) read.

Every rule is described in `tool.driver.rules` (with a pseudo-rule for files
that do not parse); each finding is a result at a physical location whose
columns count Unicode code points, as ours do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zerolang import __version__
from zerolang.tools.lint.model import Finding, Rule
from zerolang.tools.lint.report.shown import shown
from zerolang.tools.lint.rules import RULES
from zerolang.tools.lint.runner import FileResult
from zerolang.util.errors import Severity
from zerolang.util.escapes import json_text
from zerolang.util.limits import more_line

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SYNTAX_ERROR = "syntax-error"


def _rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.explanation or rule.summary},
        "help": {"text": rule.explanation or rule.summary},
        "defaultConfiguration": {"level": str(rule.severity)},
        "properties": {"fix": str(rule.fix) if rule.fix else "none"},
    }


def _syntax_rule() -> dict[str, Any]:
    text = "The file is not a .0 document: it does not parse."
    return {
        "id": SYNTAX_ERROR,
        "name": SYNTAX_ERROR,
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "defaultConfiguration": {"level": "error"},
    }


def _compact_rules() -> list[dict[str, Any]]:
    """The `.0c` checks (C001...), which are not Z rules but can be reported in the same run."""
    from zerolang.util.codes import COMPACT, codes_for

    rules = []
    for code in codes_for(COMPACT):
        text = f"{code.summary} (a .0c document)"
        rules.append(
            {
                "id": code.code,
                "name": code.name,
                "shortDescription": {"text": text},
                "fullDescription": {"text": text},
                "defaultConfiguration": {"level": "error"},
            }
        )
    return rules


def _uri(path: str | None) -> str:
    if path is None:
        return ""
    location = Path(path)
    return location.as_uri() if location.is_absolute() else location.as_posix()


def _result(finding: Finding, index: dict[str, int]) -> dict[str, Any]:
    rule_id = finding.code or SYNTAX_ERROR
    location: dict[str, Any] = {"artifactLocation": {"uri": _uri(finding.path)}}
    span = finding.span
    if span is not None and span.line:
        location["region"] = {
            "startLine": span.line,
            "startColumn": span.column,
            "endLine": span.end_line,
            "endColumn": span.end_column,
        }
    result: dict[str, Any] = {
        "ruleId": rule_id,
        "ruleIndex": index[rule_id],
        "level": "warning" if finding.severity is Severity.WARNING else "error",
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": location}],
    }
    if finding.fix is not None:
        result["properties"] = {"fix": finding.fix.description, "fixSafety": str(finding.fix.applicability)}
    return result


def _left_out(path: str, hidden: int) -> dict[str, Any]:
    """A notification for a file's findings past the cap: how many were left out."""
    location = {"physicalLocation": {"artifactLocation": {"uri": _uri(path)}}}
    return {"level": "note", "message": {"text": more_line(hidden)}, "locations": [location]}


def document(results: list[FileResult]) -> dict[str, Any]:
    rules = [_rule(rule) for rule in RULES.values()] + _compact_rules() + [_syntax_rule()]
    index = {rule["id"]: position for position, rule in enumerate(rules)}
    notes = [_left_out(result.path, hidden) for result in results if (hidden := shown(result)[1])]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "zero lint",
                "version": __version__,
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": [_result(finding, index) for result in results for finding in shown(result)[0]],
    }
    if notes:  # a file's findings past the cap: said where SARIF says what a run left out
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": notes}]
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(results: list[FileResult]) -> str:
    return json_text(document(results)) + "\n"
