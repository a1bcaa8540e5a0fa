"""Lint reports in four formats: `text` for people, `json` for scripts, `sarif` for code
scanning, `github` for workflow annotations. Each is a pure function of the results.

Every format shows at most `MAX_DIAGNOSTICS` findings of a file (`zerolang.util.limits`), then
says how many more it left out (`more_line`), each in its own way; the exit code and the text
summary count them all."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from zerolang.tools.lint.report import github, json_report, sarif, text
from zerolang.tools.lint.runner import FileResult


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    GITHUB = "github"


def render(
    results: list[FileResult],
    output_format: Format,
    *,
    fixing: bool = False,
    unsafe: bool = False,
    quiet: bool = False,
    statistics: bool = False,
) -> str:
    """The whole report as text (`text` without colour; the CLI colours it on a terminal); with
    `statistics`, how many findings each rule has instead (`text` or `json`)."""
    if statistics:
        from zerolang.tools.lint.report import counts

        return counts.render(results, as_json=output_format is not Format.TEXT)
    if output_format is Format.TEXT:
        return text.plain(text.render(results, fixing=fixing, unsafe=unsafe, quiet=quiet))
    renderers: dict[Format, Callable[[list[FileResult]], str]] = {
        Format.JSON: json_report.render,
        Format.SARIF: sarif.render,
        Format.GITHUB: github.render,
    }
    return renderers[output_format](results)


def remaining(results: list[FileResult]) -> int:
    """How many problems are left: the exit code is 1 when there is any."""
    return sum(len(result.findings) for result in results)
