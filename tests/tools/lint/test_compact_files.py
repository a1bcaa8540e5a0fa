"""`.0c` files in `zero lint`: found in folders, and their C codes chosen like the Z rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.tools.lint.runner import Options, discover, lint_paths
from zerolang.tools.lint.selection import unknown_selectors
from zerolang.util.errors import ZeroError

runner = CliRunner()

# C002 (agent twice), C001 (no concept 9), C003 (120%) and a syntax finding (`2 x`).
BAD = "0M:1.0\nagent\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 uses9\n1 likes1 120\n2 x\n"
GOOD = "0M:1.0\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 likes1\n"
GRAPH = 'Graph { name: "g", nodes: [{ id: "a", type: Constant, value: 1 }], outputs: ["a"] }\n'


def tree(root: Path, lint_table: str | None = None) -> Path:
    files = {
        "g.0": GRAPH,
        "memory/bad.0c": BAD,
        "memory/deep/good.0c": GOOD,
        "notes.txt": "x",
        ".hidden/x.0c": BAD,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if lint_table is not None:
        (root / "pyproject.toml").write_text(f"[tool.zero.lint]\n{lint_table}\n", encoding="utf-8")
    return root


def codes(root: Path, options: Options | None = None) -> dict[str, list[str | None]]:
    results = lint_paths([root], options or Options())
    return {Path(r.path).relative_to(root).as_posix(): [f.code for f in r.findings] for r in results}


def test_a_folder_is_searched_for_0_and_0c_files(tmp_path: Path) -> None:
    root = tree(tmp_path)
    found = [path.relative_to(root).as_posix() for path in discover([root])]
    assert found == ["g.0", "memory/bad.0c", "memory/deep/good.0c"]
    assert codes(root) == {
        "g.0": [],
        "memory/bad.0c": ["C002", "C001", "C003", None],
        "memory/deep/good.0c": [],
    }


def test_zero_lint_on_a_folder_reports_0c_findings(tmp_path: Path) -> None:
    root = tree(tmp_path)
    result = runner.invoke(app, ["lint", str(root)])
    assert result.exit_code == 1
    assert f"{root / 'memory' / 'bad.0c'}:6:3: C001 there is no concept 9" in result.output
    assert "good.0c" not in result.output


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (Options(select=("C001",)), ["C001", None]),
        (Options(ignore=("C001",)), ["C002", "C003", None]),
        (Options(ignore=("C",)), [None]),
        (Options(select=("C", "Z"), ignore=("C00",)), [None]),
        (Options(select=("Z",)), [None]),  # a syntax finding is always reported
        (Options(select=("ALL",), ignore=("C002", "C003")), ["C001", None]),
    ],
    ids=[
        "select a C code",
        "ignore a C code",
        "ignore the C prefix",
        "ignore C00",
        "only Z",
        "ALL minus two",
    ],
)
def test_select_and_ignore_options_apply_to_c_codes(
    tmp_path: Path, options: Options, expected: list[str | None]
) -> None:
    assert codes(tree(tmp_path), options)["memory/bad.0c"] == expected


def test_config_select_ignore_and_per_file_ignores_apply_to_c_codes(tmp_path: Path) -> None:
    root = tree(tmp_path, 'ignore = ["C003"]\n[tool.zero.lint.per-file-ignores]\n"memory/**" = ["C002"]')
    assert codes(root)["memory/bad.0c"] == ["C001", None]
    (root / "elsewhere.0c").write_text(BAD, encoding="utf-8")
    assert codes(root)["elsewhere.0c"] == ["C002", "C001", None]


def test_config_select_of_a_c_code(tmp_path: Path) -> None:
    root = tree(tmp_path, 'select = ["C002"]')
    assert codes(root)["memory/bad.0c"] == ["C002", None]


def test_c_codes_are_known_selectors_and_typos_are_not(tmp_path: Path) -> None:
    assert unknown_selectors(["C001", "C00", "C", "Z", "C004", "C1"]) == ["C004", "C1"]
    result = runner.invoke(app, ["lint", "--ignore", "C001", str(tree(tmp_path))])
    assert result.exit_code == 1
    assert "C001" not in result.output and "C002" in result.output
    assert runner.invoke(app, ["lint", "--select", "C009", str(tmp_path)]).exit_code == 2
    (tmp_path / "pyproject.toml").write_text('[tool.zero.lint]\nignore = ["C009"]\n', encoding="utf-8")
    with pytest.raises(
        ZeroError, match=r"unknown rule code `C009` \(the codes are Z001 to Z\d+, and C001 to C003"
    ):
        lint_paths([tmp_path / "memory" / "bad.0c"], Options())


SAMPLES = Path(__file__).resolve().parents[1] / "highlight" / "samples"


def test_exports_at_every_level_lint_clean() -> None:
    results = lint_paths([SAMPLES], Options())
    assert sorted(Path(r.path).name for r in results) == [
        "memory_declarations.0c",
        "memory_delta.0c",
        "memory_l0.0c",
        "memory_l1.0c",
        "memory_l2.0c",
        "memory_quoted.0c",
    ]
    assert [(r.path, r.findings) for r in results if r.findings] == []


def test_l1_and_l0_documents_are_checked_as_what_they_are(tmp_path: Path) -> None:
    l1 = tmp_path / "view.0c"
    l1.write_text("# an L1 view\n0M:1.0 L1 concepts=2 facts=1\nagent\nagent\n1 likes3\n", encoding="utf-8")
    (l1_result,) = lint_paths([l1], Options())
    assert [(f.code, f.span.line if f.span else 0, f.message) for f in l1_result.findings] == [
        ("C002", 4, "this concept is already defined on line 3"),
        ("C001", 5, "there is no concept 3 (the document defines 2)"),
    ]
    l0 = tmp_path / "ids.0c"
    l0.write_text("0M:1.0 L0 concepts=2 relations=1\na:3f 41c\nnot ids\n", encoding="utf-8")
    (l0_result,) = lint_paths([l0], Options())
    assert [(f.code, f.span.line if f.span else 0) for f in l0_result.findings] == [(None, 3)]


@pytest.mark.parametrize("report", ["json", "sarif", "github"])
def test_every_report_format_carries_c_codes(report: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.0c"
    bad.write_text(
        "0M:1.0\nagent\nX:2026-02-18T00:00:00Z user_prompt s\n@2026-02-18T00:00:00Z\n1 needs9 95\n"
    )
    result = runner.invoke(app, ["lint", "--format", report, str(bad)])
    assert result.exit_code == 1, result.output
    assert "C001" in result.stdout
    if report == "sarif":
        import json

        run = json.loads(result.stdout)["runs"][0]
        rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
        (finding,) = run["results"]
        assert finding["ruleId"] == "C001" and rules[finding["ruleIndex"]] == "C001"
