"""`zero lint` end to end through typer's test runner: output, files written and exit codes."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tools.lint.support import ROOT, case
from zerolang.cli.app import app
from zerolang.tools.lint import RULES

runner = CliRunner()
EXAMPLES = ROOT / "examples"
LEGACY = EXAMPLES / "broken" / "legacy.0"


def lint(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, ["lint", *map(str, args)])
    return result.exit_code, result.output


def test_examples_and_schema_are_clean() -> None:
    clean = [path for path in sorted(EXAMPLES.glob("*.0")) if path.name != "verifier.0"]  # buggy on purpose
    code, output = lint(*clean, ROOT / "schema" / "schema.0")
    assert (code, output) == (0, "All checks passed!\n")


def test_legacy_example_shows_its_problems_and_fixes() -> None:
    code, output = lint(LEGACY)
    assert code == 1
    for expected in (
        "legacy.0:6:44: Z003 [*] unknown op `Eq`: did you mean `Equals`?",
        "= fix: rename `Eq` to `Equals`",
        "legacy.0:7:63: Z004 node `meta` reads input `input.metadata`",
        "legacy.0:8:28: Z001 [*] node type `Aggregate`",
        "= fix: change `all` to `Operation` with `op: MergeMap`, output `all.result` becomes `all`",
        "[*] 2 fixable with `zero lint --fix`.",
    ):
        assert expected in output


def test_fix_rewrites_the_file_and_reports_what_remains(tmp_path: Path) -> None:
    copy = tmp_path / "legacy.0"
    shutil.copy(LEGACY, copy)
    code, output = lint("--fix", copy)
    assert code == 1  # Z004 has no fix; Z008 appears on the new MergeMap
    assert output.startswith(f"Fixed {copy}:\n  Z003 rename `Eq` to `Equals`\n  Z001 change `all`")
    assert "Found 6 problems (2 fixed, 4 remaining: 1 error, 3 warnings)." in output
    text = copy.read_text(encoding="utf-8")
    assert "op: Equals" in text and "type: Operation, op: MergeMap" in text


def test_fix_of_everything_exits_0(tmp_path: Path) -> None:
    copy = tmp_path / "z013.0"
    shutil.copy(case("Z013", "bad"), copy)
    code, output = lint("--fix", "--unsafe-fixes", copy)
    assert code == 0
    assert output.endswith("Found 4 problems (4 fixed, 0 remaining).\n")
    assert lint(copy) == (0, "All checks passed!\n")


def test_unsafe_fixes_on_request(tmp_path: Path) -> None:
    copy = tmp_path / "z011.0"
    shutil.copy(case("Z011", "bad"), copy)
    assert lint("--fix", copy)[0] == 1
    assert lint("--fix", "--unsafe-fixes", copy)[0] == 0
    assert 'id: "shout"' not in copy.read_text(encoding="utf-8")


def test_folders_are_searched_for_dot_0_files(tmp_path: Path) -> None:
    for name in ("a.0", "sub/b.0", ".hidden/c.0", "notes.txt"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(case("Z011", "bad"), path)
    code, output = lint("--format", "json", tmp_path)
    assert code == 1
    paths = [Path(item["path"]).relative_to(tmp_path).as_posix() for item in json.loads(output)]
    assert paths == ["a.0", "sub/b.0"]


def test_default_path_is_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(case("Z007", "bad"), tmp_path / "x.0")
    monkeypatch.chdir(tmp_path)
    code, output = lint()
    assert code == 1
    assert "x.0:7:15: Z007" in output


def test_file_that_does_not_parse_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.0"
    shutil.copy(EXAMPLES / "broken" / "missing_comma.0", path)
    code, output = lint(path, case("Z001", "good"))
    assert code == 1
    assert f"{path}:6:9: SyntaxError: expected `,` or `]` after a node" in output
    assert "Found 1 error." in output


def test_file_that_is_not_utf8_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.0"
    path.write_bytes(b'Graph { name: "\xe9" }')
    code, output = lint(path)
    assert code == 1
    assert f"{path}: SyntaxError: not UTF-8 text (byte 15)" in output


def test_missing_path_is_an_error() -> None:
    result = runner.invoke(app, ["lint", "no/such/place.0"])
    assert result.exit_code == 1
    assert "no/such/place.0: no such file or folder" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "xml"],
        ["--select", "Z999"],
        ["--ignore", "Z0,E501"],
        ["--explain", "Z999"],
        ["--no-such-option"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, ["lint", *args, str(LEGACY)])
    assert result.exit_code == 2


def test_select_and_ignore_on_the_command_line() -> None:
    assert lint("--select", "Z00", "--ignore", "Z003,Z004", LEGACY)[1].count(": Z00") == 1
    assert lint("--select", "Z011", "--select", "Z003", LEGACY)[1].count("legacy.0:") == 2
    assert lint("--select", "Z018", LEGACY) == (0, "All checks passed!\n")


@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_machine_formats_are_json(output_format: str) -> None:
    code, output = lint("--format", output_format, LEGACY)
    assert code == 1
    json.loads(output)


def test_github_format() -> None:
    code, output = lint("--format", "github", LEGACY)
    assert code == 1
    assert all(line.startswith(("::error file=", "::warning file=")) for line in output.splitlines())


def test_explain() -> None:
    code, output = lint("--explain", "z008")
    assert code == 0
    assert output.startswith("Z008 merge-map-non-map (warning)\n\nA `MergeMap` input that can never be a map")
    assert output.rstrip().endswith("Fix: none")


def test_explain_compact_codes() -> None:
    code, output = lint("--explain", "C001")
    assert code == 0
    assert output.startswith(
        "C001 dangling-reference (error, .0c files)\n\nA relation names a concept number"
    )
    code, _ = lint("--explain", "C999")
    assert code == 2


def test_help_lists_every_rule() -> None:
    result = runner.invoke(app, ["lint", "--help"])
    assert result.exit_code == 0
    for rule in RULES.values():
        fix = f"{rule.fix} fix" if rule.fix else ""
        assert f"{rule.code}  {rule.name:<25} {rule.severity:<8} {fix}".rstrip() in result.output


def test_command_line_formats_are_the_report_formats() -> None:
    from zerolang.cli.lint_cmd import OutputFormat
    from zerolang.tools.lint.report import Format

    assert [item.value for item in OutputFormat] == [item.value for item in Format]


def test_text_report_is_plain_in_a_pipe() -> None:
    assert "\x1b[" not in lint(LEGACY)[1]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_text_report_is_coloured_on_a_terminal() -> None:
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "zerolang", "lint", str(LEGACY)],
        stdin=follower,
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    os.close(follower)  # read until the child closes its end, so a full pty buffer cannot block it
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child has exited
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    process.wait(timeout=60)
    output = b"".join(chunks).decode("utf-8", "replace")
    assert process.returncode == 1
    assert "\x1b[" in output
    assert "Z003" in output


def test_the_verifier_example_shows_the_unread_params_and_their_fix(tmp_path: Path) -> None:
    """examples/verifier.0 has the openclaw bugs: three Z019s and the two Z021s they cause, nothing else;
    fixed, it can say `is_safe` (and the fix gives each op the inputs it reads)."""
    from zerolang.runtime.interpreter import run
    from zerolang.syntax.parser import parse_file

    code, output = lint(EXAMPLES / "verifier.0")
    assert code == 1
    assert re.findall(r": (Z\d+) `(\w+)` does not read `params.(\w+)`", output) == [
        ("Z019", "Equals", "compare"),
        ("Z019", "If", "else"),
        ("Z019", "Add", "add"),
    ]
    assert re.findall(r": (Z021) node `(\w+)`: `(\w+)` takes", output) == [
        ("Z021", "no_missing_refs", "Equals"),
        ("Z021", "cycle_deduction", "If"),
    ]
    assert "Found 5 problems: 2 errors, 3 warnings." in output
    inputs = {"missing_refs": 0, "has_cycles": False, "node_count": 12, "permissions_declared": True}
    before = run(parse_file(EXAMPLES / "verifier.0"), {**inputs, "sender_confidence": 0.9})
    assert before.outputs["is_safe"] is False and before.outputs["decision.target"] == "review"
    fixed = tmp_path / "verifier.0"
    shutil.copy(EXAMPLES / "verifier.0", fixed)
    assert lint("--fix", "--unsafe-fixes", fixed)[0] == 0
    after = run(parse_file(fixed), {**inputs, "sender_confidence": 0.9})
    assert after.outputs["is_safe"] is True and after.outputs["decision.target"] == "install"
    assert after.outputs["checks_run"] == 13.0
