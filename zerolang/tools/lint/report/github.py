"""`--format github`: one workflow command per finding, shown as an annotation on the pull request.

`::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=Z001::message`
(`::warning` for warnings), escaped as the workflow command syntax requires. The file name and the
message are user data: a control character in either is shown `escaped` (`\\x1b`), never written raw
into the log a terminal or a browser shows.
"""

from __future__ import annotations

from zerolang.tools.lint.model import Finding
from zerolang.tools.lint.report.shown import shown
from zerolang.tools.lint.runner import FileResult
from zerolang.util.errors import Severity
from zerolang.util.escapes import escaped_lines
from zerolang.util.limits import more_line


def _data(text: str) -> str:
    text = escaped_lines(text, exact=False)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding) -> str:
    command = "warning" if finding.severity is Severity.WARNING else "error"
    properties = [f"file={_property(finding.path or '')}"]
    span = finding.span
    if span is not None and span.line:
        properties += [
            f"line={span.line}",
            f"col={span.column}",
            f"endLine={span.end_line}",
            f"endColumn={span.end_column}",
        ]
    properties.append(f"title={_property(finding.code or 'SyntaxError')}")
    return f"::{command} {','.join(properties)}::{_data(finding.message)}"


def render(results: list[FileResult]) -> str:
    lines: list[str] = []
    for result in results:
        findings, hidden = shown(result)
        lines.extend(annotation(finding) for finding in findings)
        if hidden:  # a file's findings past the cap: one notice says how many
            lines.append(f"::notice file={_property(result.path)}::{_data(more_line(hidden))}")
    return "".join(line + "\n" for line in lines)
