"""Quick-fix edits, without a session: every fix of the lint cases and examples, as small text edits.

Each fix applied through its edits must give the tree the fix itself gives,
and replace only a part of the file (the whole-document fallback is for when
no smaller edit says the same).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp.conftest import apply_edits
from tests.lsp.samples import ROOT
from zerolang.lsp import actions, adapter
from zerolang.lsp.analysis import analyse
from zerolang.lsp.diagnostics import to_diagnostic
from zerolang.syntax.parser import parse

CASES = sorted(
    [*(ROOT / "tests" / "tools" / "lint" / "cases").glob("*.0"), *(ROOT / "examples").rglob("*.0")]
)
URI = "file:///case.0"


def fixes(path: Path) -> list[tuple[int, str]]:
    analysis = analyse(path.read_text(encoding="utf-8"), str(path))
    return [(index, f.code or "") for index, f in enumerate(analysis.findings) if f.fix is not None]


FIXES = [(path, index, code) for path in CASES for index, code in fixes(path)]


def test_the_cases_hold_fixes_of_every_kind() -> None:
    assert {code for _, _, code in FIXES} >= {"Z001", "Z003", "Z010", "Z011", "Z013", "Z015"}


@pytest.mark.parametrize(("path", "index", "code"), FIXES, ids=lambda value: str(value).split("/")[-1])
def test_a_fix_is_a_small_edit_with_the_fixed_meaning(path: Path, index: int, code: str) -> None:
    source = path.read_text(encoding="utf-8")
    analysis = analyse(source, str(path))
    finding = analysis.findings[index]
    action = actions._quick_fix(analysis, URI, index, to_diagnostic(finding, analysis.lines))
    assert action is not None and action.edit is not None and action.edit.changes is not None
    edits = list(action.edit.changes[URI])
    after = apply_edits(source, edits)

    expected = parse(source, str(path))
    fix = adapter.lint_graph(expected, source, str(path))[index].fix
    assert fix is not None
    fix.edit(expected)
    assert parse(after) == expected
    changed = sum(len(edit.new_text) for edit in edits)
    assert changed < len(source) / 2, f"{code}: the edit rewrites most of the file"
