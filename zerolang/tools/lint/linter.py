"""Running the rules over one graph: selection, the rules themselves, then noqa."""

from __future__ import annotations

from pathlib import Path

from zerolang.syntax.ast import Graph
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.model import Finding
from zerolang.tools.lint.noqa import is_suppressed, suppressions
from zerolang.tools.lint.rules import RULES
from zerolang.tools.lint.selection import enabled_codes
from zerolang.util.config import Settings
from zerolang.util.errors import Severity, ZeroError
from zerolang.util.gcpause import paused_gc


def lint_graph(
    graph: Graph, source: str, path: str | Path | None = None, settings: Settings | None = None
) -> list[Finding]:
    """The findings of the rules enabled for `path`, minus those noqa comments suppress, in source order."""
    settings = settings if settings is not None else Settings()
    name = str(path) if path is not None else None
    enabled = enabled_codes(settings, path)
    with paused_gc():
        context = Context(graph, source, name)
        findings = [
            Finding(rule.code, violation.message, violation.span, rule.severity, name, violation.fix)
            for code, rule in RULES.items()
            if code in enabled
            for violation in rule.check(context)
        ]
    quiet = suppressions(graph, source)
    kept = [finding for finding in findings if not is_suppressed(finding, quiet)]
    kept.sort(key=lambda finding: finding.sort_key)
    return kept


def syntax_finding(error: ZeroError, path: str | None) -> Finding:
    """A file that does not parse (or cannot be read): one error at the parser's place."""
    return Finding(None, error.message, error.span, Severity.ERROR, path)
