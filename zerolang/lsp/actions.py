"""Quick fixes from the linter's fixes, and "fix all" for the safe ones.

A quick fix is offered for each finding in the asked range that has a fix:
safe fixes are marked preferred (an editor applies them with one key), unsafe
ones say so in their title. Each action applies just its own fix to a fresh
tree and sends the smallest edits that make the source match (`edits`).
"""

from __future__ import annotations

from lsprotocol import types

from zerolang.lsp import adapter
from zerolang.lsp.analysis import Analysis
from zerolang.lsp.diagnostics import to_diagnostic
from zerolang.lsp.edits import Edit, tree_edits

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.zero"


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(position: types.Position) -> tuple[int, int]:
        return (position.line, position.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def text_edits(analysis: Analysis, edits: list[Edit]) -> list[types.TextEdit]:
    return [
        types.TextEdit(range=analysis.lines.range(edit.start, edit.end), new_text=edit.text) for edit in edits
    ]


def code_actions(
    analysis: Analysis, uri: str, requested: types.Range, only: list[str] | None
) -> list[types.CodeAction]:
    actions: list[types.CodeAction] = []
    wants_quick_fix = only is None or any(
        types.CodeActionKind.QuickFix.value.startswith(kind) for kind in only
    )
    if analysis.graph is not None and wants_quick_fix:
        for index, finding in enumerate(analysis.findings):
            if finding.fix is None:
                continue
            diagnostic = to_diagnostic(finding, analysis.lines)
            if not _overlaps(diagnostic.range, requested):
                continue
            for choice in range(1 + len(finding.fix.alternatives)):
                action = _quick_fix(analysis, uri, index, diagnostic, choice)
                if action is not None:
                    actions.append(action)
    wants_fix_all = only is not None and any(FIX_ALL.startswith(kind) for kind in only)
    if wants_fix_all or (only is None and any(f.fix and f.fix.safe for f in analysis.findings)):
        fix_all = fix_all_action(analysis, uri)
        if fix_all is not None:
            actions.append(fix_all)
    return actions


def _quick_fix(
    analysis: Analysis, uri: str, index: int, diagnostic: types.Diagnostic, choice: int = 0
) -> types.CodeAction | None:
    """Apply the `index`-th finding's fix (`choice` > 0: one of its alternatives) to a tree of its own
    (fixes mutate the tree they were found on)."""
    pristine = adapter.parse(analysis.source, analysis.path)
    working = adapter.parse(analysis.source, analysis.path)
    findings = adapter.lint_graph(working, analysis.source, analysis.path)
    if index >= len(findings) or findings[index].fix is None:
        return None
    offered = findings[index].fix
    assert offered is not None
    choices = (offered, *offered.alternatives)
    if choice >= len(choices):
        return None
    fix = choices[choice]
    fix.edit(working)
    printed = adapter.print_graph(working, analysis.path)
    edits = tree_edits(analysis.source, pristine, working, analysis.path, printed)
    if not edits:
        return None
    code = findings[index].code
    title = f"{fix.description} ({code})" if fix.safe else f"{fix.description} ({code}, unsafe)"
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=fix.safe,
        edit=types.WorkspaceEdit(changes={uri: text_edits(analysis, edits)}),
    )


def fix_all_action(analysis: Analysis, uri: str) -> types.CodeAction | None:
    """Every safe fix at once, as `zero lint --fix` applies them."""
    if analysis.graph is None:
        return None
    fixed = adapter.fix_all(analysis.source, analysis.path)
    if fixed == analysis.source:
        return None
    pristine = adapter.parse(analysis.source, analysis.path)
    edits = tree_edits(analysis.source, pristine, adapter.parse(fixed, analysis.path), analysis.path, fixed)
    return types.CodeAction(
        title="Fix all safe problems (zero lint --fix)",
        kind=FIX_ALL,
        edit=types.WorkspaceEdit(changes={uri: text_edits(analysis, edits)}),
    )
