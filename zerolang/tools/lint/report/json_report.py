"""`--format json`: a list of objects, one per finding, with exactly the documented keys.

`path, line, column, end_line, end_column` (1-based, end exclusive), `code`
(null for a file that does not parse), `severity` (`error`/`warning`),
`message`, and `fix` (null, or what the fix does).
"""

from __future__ import annotations

from typing import Any

from zerolang.tools.lint.model import Finding
from zerolang.tools.lint.runner import FileResult
from zerolang.util.escapes import json_text


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


def render(results: list[FileResult]) -> str:
    document = [finding_object(finding) for result in results for finding in result.findings]
    return json_text(document) + "\n"
