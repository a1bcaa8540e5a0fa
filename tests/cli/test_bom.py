"""Issue 41.4: a file Notepad saved (a UTF-8 byte order mark first) is read like any other, and
`zero fmt` (and `zero lint --fix`) keep the mark, as they keep CRLF line ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.syntax.parser import parse

runner = CliRunner()
BOM = b"\xef\xbb\xbf"
GRAPH = 'Graph { name: "b", nodes: [ { id: "a", type: Constant, value: 1 } ], outputs: ["a"] }\n'
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bom_file(tmp_path: Path) -> Path:
    path = tmp_path / "notepad.0"
    path.write_bytes(BOM + GRAPH.encode())
    return path


def test_check_run_lint_and_viz_read_a_bom_file(bom_file: Path) -> None:
    assert runner.invoke(app, ["check", str(bom_file)]).exit_code == 0
    ran = runner.invoke(app, ["run", str(bom_file), "--json"])
    assert ran.exit_code == 0 and json.loads(ran.stdout)["outputs"] == {"a": 1}
    assert runner.invoke(app, ["lint", str(bom_file)]).exit_code == 0
    assert runner.invoke(app, ["viz", str(bom_file)]).exit_code == 0
    assert "\\ufeff" not in runner.invoke(app, ["check", str(bom_file)]).output


def test_stdin_with_a_bom(bom_file: Path) -> None:
    result = runner.invoke(app, ["check", "-"], input=bom_file.read_bytes())
    assert result.exit_code == 0, result.output


def test_fmt_keeps_the_bom(bom_file: Path) -> None:
    assert runner.invoke(app, ["fmt", str(bom_file)]).exit_code == 0
    data = bom_file.read_bytes()
    assert data.startswith(BOM) and not data.startswith(BOM * 2)
    assert b"Graph {\n" in data
    assert runner.invoke(app, ["fmt", "--check", str(bom_file)]).exit_code == 0  # formatted, BOM and all


def test_lint_fix_keeps_the_bom(tmp_path: Path) -> None:
    path = tmp_path / "eq.0"
    path.write_bytes(
        BOM
        + GRAPH.replace(
            "value: 1 }", 'value: 1 }, { id: "x", type: Operation, op: Eq, inputs: ["a", "a"] }'
        ).encode()
    )
    runner.invoke(app, ["lint", "--fix", str(path)])
    assert path.read_bytes().startswith(BOM) and b"Equals" in path.read_bytes()


def test_a_problem_on_the_first_line_shows_no_bom(tmp_path: Path) -> None:
    path = tmp_path / "broken.0"
    path.write_bytes(BOM + GRAPH.replace('outputs: ["a"]', 'outputs: ["b"]').encode())
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1 and "[Z007]" in result.output
    lines = result.output.splitlines()
    shown = next(line for line in lines if line.startswith("1 | "))
    carets = lines[lines.index(shown) + 1]
    assert "\ufeff" not in shown and "\\ufeff" not in shown
    assert shown[carets.index("^") : carets.index("^") + 3] == '"b"'


def test_a_compact_document_with_a_bom(tmp_path: Path) -> None:
    sample = ROOT / "tests" / "tools" / "highlight" / "samples" / "memory_l2.0c"
    path = tmp_path / "notepad.0c"
    path.write_bytes(BOM + sample.read_bytes())
    assert runner.invoke(app, ["check", str(path)]).exit_code == 0
    assert runner.invoke(app, ["lint", str(path)]).exit_code == 0


def test_the_parser_keeps_every_place_of_the_text() -> None:
    graph = parse("\ufeff" + GRAPH)
    assert graph == parse(GRAPH)
    assert graph.nodes[0].span.start == parse(GRAPH).nodes[0].span.start + 1
