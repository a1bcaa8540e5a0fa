"""`--fix`: apply fixes to the syntax tree, print it canonically, lint again, until nothing is left to fix.

Fixes of one round never share a tree object (`Fix.touches`), so each edits
the tree as its rule saw it; the next round sees the printed result fresh.
Text is only ever produced by `print_graph`, so a fixed file always parses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from zerolang.syntax.ast import Graph
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph
from zerolang.tools.lint.linter import lint_graph
from zerolang.tools.lint.model import Finding
from zerolang.util.config import Settings
from zerolang.util.lines import BOM

MAX_ROUNDS = 25


@dataclass(slots=True)
class FixResult:
    """The source after fixing, what is left to report in it, and the findings that were fixed."""

    source: str
    findings: list[Finding]
    fixed: list[Finding] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.fixed)


def fixable(finding: Finding, *, unsafe: bool) -> bool:
    return finding.fix is not None and (unsafe or finding.fix.safe)


def apply_fixes(graph: Graph, findings: list[Finding], *, unsafe: bool = False) -> list[Finding]:
    """Apply every fix whose objects no earlier fix of this round touched; return the findings fixed.

    Local fixes go first; global ones (`Fix.global_`) only in a round with no local fix to apply.
    """
    fixes = [
        (finding, finding.fix) for finding in findings if finding.fix and fixable(finding, unsafe=unsafe)
    ]
    local = [(finding, fix) for finding, fix in fixes if not fix.global_]
    touched: set[int] = set()
    applied: list[Finding] = []
    for finding, fix in local or fixes:
        keys = {id(item) for item in fix.touches if item is not None}
        if keys & touched:
            continue  # the next round, on the tree this round leaves
        fix.edit(graph)
        touched |= keys
        applied.append(finding)
    return applied


def fix_source(
    source: str,
    path: str | Path | None = None,
    settings: Settings | None = None,
    *,
    unsafe: bool = False,
) -> FixResult:
    """Fix `source` as far as the enabled rules' safe (or also unsafe) fixes go.

    Raises `ZeroSyntaxError` when the source does not parse. The source comes
    back unchanged, byte for byte, when there is nothing to fix.
    """
    settings = settings if settings is not None else Settings()
    graph = parse(source, path)
    findings = lint_graph(graph, source, path, settings)
    result = FixResult(source, findings)
    bom = BOM if source.startswith(BOM) else ""  # kept, as `zero fmt` keeps it
    for _ in range(MAX_ROUNDS):
        applied = apply_fixes(graph, result.findings, unsafe=unsafe)
        if not applied:
            break
        result.fixed.extend(applied)
        result.source = bom + print_graph(graph, width=settings.line_width)
        graph = parse(result.source, path)
        result.findings = lint_graph(graph, result.source, path, settings)
    return result


def fix_one(
    source: str,
    code: str,
    start: int,
    path: str | Path | None = None,
    settings: Settings | None = None,
) -> str | None:
    """The text after applying the one fix of the finding `code` whose span starts at offset `start`.

    What an editor's quick fix needs (the language server): None when no such finding
    has a fix. Raises `ZeroSyntaxError` when the source does not parse.
    """
    settings = settings if settings is not None else Settings()
    graph = parse(source, path)
    for finding in lint_graph(graph, source, path, settings):
        if finding.code == code and finding.span is not None and finding.span.start == start and finding.fix:
            finding.fix.edit(graph)
            return print_graph(graph, width=settings.line_width)
    return None
