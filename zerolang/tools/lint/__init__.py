"""`zero lint`: rules that find what breaks a `.0` graph or silently loses data, with fixes.

Public API:

- `lint_graph(graph, source, path, settings)`: the findings for a parsed graph;
- `lint_source(source, path, settings)`: the same from text, a syntax error being one finding;
- `fix_source(source, path, settings, unsafe=False)`: apply fixes, get the new text and what remains;
- `fix_one(source, code, start, path, settings)`: apply one finding's fix (an editor's quick fix);
- `RULES`: every rule by code (`Rule.code`, `.name`, `.severity`, `.fix`, `.summary`, `.explanation`).

Rules live in `zerolang.tools.lint.rules`, one small module each; a rule is a
function decorated with `@rule(code, severity, fix)`, its code (and name)
from the one table of `zerolang.util.codes`, whose docstring says why it
matters. Fixes edit the syntax tree and the canonical printer writes the
file; nothing is ever patched as text.
"""

from __future__ import annotations

from pathlib import Path

from zerolang.syntax.parser import parse
from zerolang.tools.lint.fixes import FixResult, fix_one, fix_source
from zerolang.tools.lint.linter import lint_graph, syntax_finding
from zerolang.tools.lint.model import Applicability, Finding, Fix, Rule, Violation, rule
from zerolang.tools.lint.rules import RULES
from zerolang.util.config import Settings
from zerolang.util.errors import ZeroSyntaxError

__all__ = [
    "RULES",
    "Applicability",
    "Finding",
    "Fix",
    "FixResult",
    "Rule",
    "Violation",
    "fix_one",
    "fix_source",
    "lint_graph",
    "lint_source",
    "rule",
]


def lint_source(
    source: str, path: str | Path | None = None, settings: Settings | None = None
) -> list[Finding]:
    """Parse and lint `source`; text that does not parse gives one finding at the parser's place."""
    name = str(path) if path is not None else None
    try:
        graph = parse(source, path)
    except ZeroSyntaxError as error:
        return [syntax_finding(error, name)]
    return lint_graph(graph, source, path, settings)
