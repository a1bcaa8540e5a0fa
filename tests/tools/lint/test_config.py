"""`[tool.zero.lint]`: select, ignore and per-file-ignores from pyproject.toml; the command line overrides them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.lint.support import case
from zerolang.tools.lint.runner import Options, lint_paths
from zerolang.tools.lint.selection import is_enabled, matches, parse_selectors, unknown_selectors
from zerolang.util.errors import ZeroError

# Z003 (an unknown op), Z011 (an unused node) and Z018 (no sender_confidence) in one file.
MIXED = """Graph {
    name: "mixed",
    nodes: [
        { id: "a", type: Constant, value: 1 },
        { id: "b", type: Operation, op: Eq, inputs: ["a", "a"] },
        { id: "p", type: Permission, action: "run", min_confidence: 0.5 },
    ],
    outputs: ["a"],
}
"""


def project(tmp_path: Path, lint_table: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[tool.zero.lint]\n{lint_table}\n", encoding="utf-8")
    for name in ("main.0", "legacy/old.0", "legacy/deep/older.0"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(MIXED, encoding="utf-8")
    return tmp_path


def found(root: Path, options: Options | None = None) -> dict[str, list[str | None]]:
    results = lint_paths([root], options or Options())
    return {Path(r.path).relative_to(root).as_posix(): [f.code for f in r.findings] for r in results}


def test_without_settings_every_rule_applies(tmp_path: Path) -> None:
    root = project(tmp_path, "")
    assert found(root)["main.0"] == ["Z011", "Z003", "Z018"]


def test_select_and_ignore(tmp_path: Path) -> None:
    root = project(tmp_path, 'select = ["Z00", "Z01"]\nignore = ["Z011"]')
    assert found(root)["main.0"] == ["Z003", "Z018"]


def test_per_file_ignores_are_globs_relative_to_the_pyproject(tmp_path: Path) -> None:
    root = project(tmp_path, '[tool.zero.lint.per-file-ignores]\n"legacy/**" = ["Z003"]\n"older.0" = ["Z01"]')
    result = found(root)
    assert result["main.0"] == ["Z011", "Z003", "Z018"]
    assert result["legacy/old.0"] == ["Z011", "Z018"]
    assert result["legacy/deep/older.0"] == []


def test_command_line_overrides_the_config(tmp_path: Path) -> None:
    root = project(tmp_path, 'select = ["Z003"]\nignore = ["Z018"]')
    assert found(root)["main.0"] == ["Z003"]
    assert found(root, Options(select=("Z018",)))["main.0"] == []  # still ignored by the config
    assert found(root, Options(select=("Z018",), ignore=()))["main.0"] == ["Z018"]


def test_unknown_code_in_config_is_an_error(tmp_path: Path) -> None:
    root = project(tmp_path, 'ignore = ["Z999"]')
    with pytest.raises(
        ZeroError, match=r"pyproject.toml: \[tool.zero.lint\] ignore: unknown rule code `Z999`"
    ):
        lint_paths([root / "main.0"], Options())


def test_settings_come_from_the_nearest_pyproject(tmp_path: Path) -> None:
    root = project(tmp_path, 'ignore = ["Z011"]')
    (root / "legacy" / "pyproject.toml").write_text('[tool.zero.lint]\nignore = ["Z003"]\n', encoding="utf-8")
    result = found(root)
    assert result["main.0"] == ["Z003", "Z018"]
    assert result["legacy/old.0"] == ["Z011", "Z018"]


@pytest.mark.parametrize(
    ("code", "select", "ignore", "enabled"),
    [
        ("Z008", [], [], True),
        ("Z008", [], ["Z008"], False),
        ("Z008", [], ["Z00"], False),
        ("Z008", ["Z01"], [], False),
        ("Z011", ["Z"], ["Z01"], False),
        ("Z011", ["Z", "Z011"], ["Z01"], True),  # the most specific selector decides
        ("Z011", ["ALL"], [], True),
        ("Z011", ["Z011"], ["ALL"], True),
        ("Z011", ["Z011"], ["Z011"], False),  # a tie: ignore wins
    ],
)
def test_selection(code: str, select: list[str], ignore: list[str], enabled: bool) -> None:
    assert is_enabled(code, select, ignore) is enabled


def test_selectors_from_the_command_line() -> None:
    assert parse_selectors(["z008, Z01", "", "ALL"]) == ("Z008", "Z01", "ALL")
    assert unknown_selectors(["Z008", "Z0", "ALL", "Z2", "E501"]) == ["Z2", "E501"]


@pytest.mark.parametrize(
    ("glob", "path", "matched"),
    [
        ("legacy/**", "legacy/a.0", True),
        ("legacy/**", "legacy/x/a.0", True),
        ("legacy/*.0", "legacy/x/a.0", False),
        ("**/*.0", "a.0", True),
        ("*.0", "deep/down/a.0", True),  # no slash: the file name alone
        ("./main.0", "main.0", True),
        ("other/**", "legacy/a.0", False),
        ("a?.0", "ab.0", True),
    ],
)
def test_per_file_globs(tmp_path: Path, glob: str, path: str, matched: bool) -> None:
    assert matches(glob, tmp_path / path, tmp_path) is matched


def test_files_outside_the_root_match_no_glob(tmp_path: Path) -> None:
    assert not matches("**", case("Z001", "bad"), tmp_path)
