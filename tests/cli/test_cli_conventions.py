"""CLI conventions: `-` is stdin, folders are searched, NO_COLOR / FORCE_COLOR, completion, no folding in pipes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zerolang.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
HELLO = ROOT / "examples" / "hello.0"
runner = CliRunner()
ANSI = re.compile(r"\x1b\[")


def zero(*arguments: str, stdin: str | None = None, **environment: str) -> subprocess.CompletedProcess[str]:
    """`zero ...` in a real process whose output is a pipe, not a terminal."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS")}
    return subprocess.run(
        [sys.executable, "-m", "zerolang", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, **environment},
        check=False,
    )


# -- `-` reads stdin ------------------------------------------------------------------------


def test_run_reads_the_graph_from_stdin() -> None:
    result = runner.invoke(
        app, ["run", "-", "--json", "-i", "name=Ada"], input=HELLO.read_text(encoding="utf-8")
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["outputs"]["greeting"] == "Hello, Ada"


def test_run_names_stdin_in_errors() -> None:
    result = runner.invoke(
        app, ["run", "-"], input='Graph { name: "x", nodes: [ { id: "a" } ], outputs: [] }'
    )
    assert result.exit_code == 1
    assert "<stdin>:1:" in result.output and "no `type` field" in result.output


def test_check_reads_a_graph_or_a_compact_document_from_stdin(tmp_path: Path) -> None:
    ok = runner.invoke(app, ["check", "-"], input=HELLO.read_text(encoding="utf-8"))
    assert (ok.exit_code, ok.stdout) == (0, "<stdin>: ok (5 nodes)\n")
    database = str(tmp_path / "m.db")
    assert (
        runner.invoke(
            app, ["memory", "ingest", str(ROOT / "examples" / "memory_input.json"), "--db", database]
        ).exit_code
        == 0
    )
    document = runner.invoke(app, ["memory", "export", "--db", database]).stdout
    compact = runner.invoke(app, ["check", "-"], input=document)
    assert (compact.exit_code, compact.stdout) == (0, "<stdin>: ok (8 concepts, 9 relations)\n")
    assert runner.invoke(app, ["check", "-", str(HELLO)]).exit_code == 2  # `-` alone


def test_lint_reads_stdin_and_fix_writes_the_fixed_document_to_stdout() -> None:
    legacy = (ROOT / "examples" / "broken" / "legacy.0").read_text(encoding="utf-8")
    report = zero("lint", "-", stdin=legacy)
    assert report.returncode == 1
    assert "<stdin>:6:44: Z003 [*] unknown op `Eq`: did you mean `Equals`?" in report.stdout
    fixed = zero("lint", "--fix", "-", stdin=legacy)
    assert "op: Equals" in fixed.stdout and "Fixed <stdin>:" in fixed.stderr
    assert zero("lint", "-", stdin=HELLO.read_text(encoding="utf-8")).stdout == "All checks passed!\n"


# -- check: folders and --json --------------------------------------------------------------


def test_check_searches_folders(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.0").write_text(HELLO.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "b.0").write_text('Graph { name: "b", nodes: [], outputs: ["nope"] }', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a graph", encoding="utf-8")
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 1
    assert f"{tmp_path / 'sub' / 'a.0'}: ok (5 nodes)" in result.stdout
    assert "output `nope` names no node [Z007]" in result.output
    assert "1 of 2 files has problems" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = runner.invoke(app, ["check", str(empty)])
    assert nothing.exit_code == 1 and f"no .0 or .0c files under {empty}" in nothing.output


def test_check_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.0"
    bad.write_text(
        'Graph { name: "b", nodes: [ { id: "x", type: Operation, op: Eq } ], outputs: [] }', encoding="utf-8"
    )
    result = runner.invoke(app, ["check", "--json", str(HELLO), str(bad), str(tmp_path / "missing.0")])
    assert result.exit_code == 1
    reports = json.loads(result.stdout)
    assert reports[0] == {"path": str(HELLO), "ok": True, "summary": "5 nodes", "problems": []}
    assert reports[1]["ok"] is False and reports[1]["problems"] == [
        {
            "code": "Z003",
            "severity": "error",
            "message": "unknown op `Eq`: did you mean `Equals`?",
            "line": 1,
            "column": 61,
            "end_line": 1,
            "end_column": 63,
        }
    ]
    assert reports[2]["ok"] is False and reports[2]["problems"][0]["message"] == "no such file"


# -- colour and width ------------------------------------------------------------------------


def invoke(*arguments: str, **environment: str | None) -> Any:
    """`zero ...` in-process; its streams are not terminals, as in a pipe."""
    clean: dict[str, str | None] = {"NO_COLOR": None, "FORCE_COLOR": None, "COLUMNS": None}
    return runner.invoke(app, list(arguments), env={**clean, **environment})


def test_no_color_and_force_color() -> None:
    arguments = ("run", "examples/hello.0", "-i", "name=Ada")
    assert not ANSI.search(invoke(*arguments).stdout), "a pipe gets no colour"
    assert ANSI.search(invoke(*arguments, FORCE_COLOR="1").stdout), "FORCE_COLOR colours a pipe"
    assert not ANSI.search(invoke(*arguments, FORCE_COLOR="1", NO_COLOR="1").stdout), "NO_COLOR wins"
    error = ("run", "examples/broken/legacy.0")
    assert not ANSI.search(invoke(*error).stderr)
    assert ANSI.search(invoke(*error, FORCE_COLOR="1").stderr)
    lint = ("lint", "examples/broken/legacy.0")
    assert ANSI.search(invoke(*lint, FORCE_COLOR="1").stdout) and not ANSI.search(invoke(*lint).stdout)


@pytest.mark.parametrize("columns", ["20", "80"])
def test_values_are_never_cut_or_wrapped_in_a_pipe(columns: str, tmp_path: Path) -> None:
    long_text = "word " * 60
    graph = tmp_path / "long.0"
    graph.write_text(
        f'Graph {{ name: "l", nodes: [ {{ id: "t", type: Constant, value: "{long_text.strip()}" }},'
        ' { id: "h", type: Operation, op: Hash, inputs: ["t"] } ], outputs: ["t", "h"] }',
        encoding="utf-8",
    )
    result = invoke("run", str(graph), COLUMNS=columns)
    assert result.exit_code == 0
    expected = json.loads(invoke("run", str(graph), "--json").stdout)
    digest = expected["outputs"]["h"]
    assert re.search(rf"│ h +│ Hash +│ {digest} +│", result.stdout), result.stdout
    assert long_text.strip() in result.stdout
    assert f"hash       {expected['hash']}\n" in result.stdout


def test_a_real_pipe_is_not_folded_either() -> None:
    result = zero("run", "examples/hello.0", "-i", "name=Ada", COLUMNS="30")
    assert "7da4681c4837bb56185adc6967f0c6847c33148afb0ba4aefac709465da75f66" in result.stdout
    assert not ANSI.search(result.stdout)


# -- shell completion ------------------------------------------------------------------------


def test_completion_script_and_protocol() -> None:
    script = zero("completion", "bash")
    assert script.returncode == 0 and "_ZERO_COMPLETE=complete_bash" in script.stdout
    assert "complete -o default -F _zero_completion zero" in script.stdout
    assert "compdef _zero_completion zero" in zero("completion", "zsh").stdout
    offered = zero(_ZERO_COMPLETE="complete_bash", COMP_WORDS="zero li", COMP_CWORD="1")
    assert offered.stdout.split() == ["lint"]
    options = zero(_ZERO_COMPLETE="complete_bash", COMP_WORDS="zero lint --sel", COMP_CWORD="2")
    assert options.stdout.split() == ["--select"]
    assert zero("completion", "tcsh").returncode == 2


def test_completion_install_writes_the_startup_file(tmp_path: Path) -> None:
    result = zero("completion", "bash", "--install", HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "bash completion installed in" in result.stdout
    assert "zero" in (tmp_path / ".bashrc").read_text(encoding="utf-8")
