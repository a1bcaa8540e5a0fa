"""Findings as LSP diagnostics: the validator's and the linter's for `.0`, the `.0c` checks for `.0c`."""

from __future__ import annotations

from lsprotocol import types

from zerolang.lsp import adapter
from zerolang.lsp.positions import LineIndex
from zerolang.util.escapes import escaped
from zerolang.util.limits import MAX_DIAGNOSTICS, more_line

SOURCE = "zero"
# Findings that mean "this text does nothing": editors fade it rather than underline it.
UNNECESSARY = frozenset({"Z011"})


def to_diagnostic(finding: adapter.Finding, lines: LineIndex) -> types.Diagnostic:
    severity = (
        types.DiagnosticSeverity.Error
        if finding.severity is adapter.Severity.ERROR
        else types.DiagnosticSeverity.Warning
    )
    message = finding.message
    if finding.fix is not None:
        unsafe = "" if finding.fix.safe else " (unsafe)"
        message += f" [fix{unsafe}: {finding.fix.description}]"
    return types.Diagnostic(
        range=lines.span_range(finding.span),
        message=escaped(message, exact=False),  # an id holding ESC or U+202E shows as data
        severity=severity,
        code=finding.code,
        source=SOURCE,
        tags=[types.DiagnosticTag.Unnecessary] if finding.code in UNNECESSARY else None,
    )


def diagnostics(
    findings: list[adapter.Finding], lines: LineIndex, config: adapter.ConfigProblem | None = None
) -> list[types.Diagnostic]:
    """The first `MAX_DIAGNOSTICS` findings, then one note at the top saying how many more there are;
    first, when the document's `[tool.zero]` has a problem, a warning at its top saying so."""
    found = [] if config is None else [config_notice(config, lines)]
    found += [to_diagnostic(finding, lines) for finding in findings[:MAX_DIAGNOSTICS]]
    if len(findings) > MAX_DIAGNOSTICS:
        found.append(
            types.Diagnostic(
                range=lines.range(0, 0),
                message=more_line(len(findings) - MAX_DIAGNOSTICS),
                severity=types.DiagnosticSeverity.Information,
                source=SOURCE,
            )
        )
    return found


CONFIG = "config"
"""The code of a diagnostic about `[tool.zero]` (in pyproject.toml, and its notice on a document)."""


def config_notice(problem: adapter.ConfigProblem, lines: LineIndex) -> types.Diagnostic:
    """On the document: its settings could not be used, so it was checked with the defaults."""
    where = f"{problem.pyproject}:{problem.line + 1}:{problem.column + 1}"
    return types.Diagnostic(
        range=lines.range(0, 0),
        message=escaped(f"{where}: {problem.message}; checked with the default settings", exact=False),
        severity=types.DiagnosticSeverity.Warning,
        code=CONFIG,
        source=SOURCE,
    )


def config_diagnostic(problem: adapter.ConfigProblem) -> types.Diagnostic:
    """On pyproject.toml: the bad setting, where it is written."""
    start = types.Position(line=problem.line, character=problem.column)
    end = types.Position(line=problem.line, character=problem.column + problem.length)
    return types.Diagnostic(
        range=types.Range(start=start, end=end),
        message=escaped(f"{problem.message}; zero uses the default settings until it is fixed", exact=False),
        severity=types.DiagnosticSeverity.Error,
        code=CONFIG,
        source=SOURCE,
    )
