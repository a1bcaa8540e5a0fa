"""`--format json`: a list of objects, one per finding, with exactly the documented keys.

`path, line, column, end_line, end_column` (1-based, end exclusive), `code`
(null for a file that does not parse), `severity` (`error`/`warning`),
`message`, and `fix` (null, or what the fix does). A file with more findings than a report shows
(`MAX_DIAGNOSTICS`) ends with one more object of the same keys: `severity` `note`, `code` and the
place null, and `message` saying how many were left out.
"""

from __future__ import annotations

from typing import Any

from zerolang.tools.lint.model import Finding
from zerolang.tools.lint.report.shown import shown
from zerolang.tools.lint.runner import FileResult
from zerolang.util.escapes import json_text
from zerolang.util.limits import more_line


def finding_object(finding: Finding) -> dict[str, Any]:
    span = finding.span
    located = span is not None and span.line > 0
    return {
        "path": finding.path,
        "line": span.line if located and span else None,
        "column": span.column if located and span else None,
        "end_line": span.end_line if located and span else None,
        "end_column": span.end_column if located and span else None,
        "code": finding.code,
        "severity": str(finding.severity),
        "message": finding.message,
        "fix": finding.fix.description if finding.fix is not None else None,
    }


def more_object(path: str, hidden: int) -> dict[str, Any]:
    """The object after a file's shown findings: how many more it has."""
    place = dict.fromkeys(("line", "column", "end_line", "end_column", "code"))
    return {"path": path, **place, "severity": "note", "message": more_line(hidden), "fix": None}


def render(results: list[FileResult]) -> str:
    document: list[dict[str, Any]] = []
    for result in results:
        findings, hidden = shown(result)
        document.extend(finding_object(finding) for finding in findings)
        if hidden:
            document.append(more_object(result.path, hidden))
    return json_text(document) + "\n"
