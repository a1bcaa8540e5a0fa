"""Issue 41.3 through the CLI: error excerpts cut to a terminal line and carets in terminal cells;
`zero run`'s table cuts long values (and says so), `--json` gives them whole."""

from __future__ import annotations

import json
from pathlib import Path

from rich.cells import cell_len
from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.util.limits import EXCERPT_WIDTH, MAX_SHOWN_VALUE

runner = CliRunner()
BIG = "x" * 5_000_000


def test_an_error_in_a_5_mb_line_prints_one_cut_line(tmp_path: Path) -> None:
    path = tmp_path / "big.0"
    path.write_text(
        f'Graph {{ name: "g", nodes: [ {{ id: "a", type: Constant, value: "{BIG}" }},'
        ' { id: "b", type: Operation, op: Nope, inputs: ["a"] } ], outputs: ["b"] }\n',
        encoding="utf-8",
    )
    for command in ("check", "lint"):
        result = runner.invoke(app, [command, str(path)])
        assert result.exit_code == 1
        assert len(result.output) < 2_000, len(result.output)
        source_line = next(line for line in result.output.splitlines() if line.startswith("1 | "))
        assert source_line.startswith("1 | …") and "op: Nope" in source_line
        assert cell_len(source_line) <= EXCERPT_WIDTH + 6
        carets = result.output.splitlines()[result.output.splitlines().index(source_line) + 1]
        start = carets.index("^")
        assert source_line[start : start + 4] == "Nope"


def test_a_syntax_error_in_a_5_mb_line_is_cut_too(tmp_path: Path) -> None:
    path = tmp_path / "big.0"
    path.write_text(
        f'Graph {{ name: "g", nodes: [ {{ value: "{BIG}" }} {{ id: "b" }} ] }}\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1 and len(result.output) < 2_000
    assert "…" in result.output


def test_the_caret_sits_under_the_error_after_cjk_text(tmp_path: Path) -> None:
    path = tmp_path / "cjk.0"
    path.write_text(
        'Graph { name: "日本語のグラフ", nodes: [ { id: "a", type: Operation, op: Eq, inputs: [] } ], outputs: ["a"] }\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["check", str(path)])
    lines = result.output.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("1 | "))
    shown, carets = lines[index], lines[index + 1]
    column = carets.index("^")
    assert cell_len(shown[: shown.index("op: Eq") + 4]) == column
    assert carets.count("^") == 2


def test_a_5_mb_value_is_cut_in_the_table_and_whole_in_json(tmp_path: Path) -> None:
    path = tmp_path / "value.0"
    path.write_text(
        f'Graph {{ name: "g", nodes: [ {{ id: "{"long_id_" * 200}", type: Constant, value: "{BIG}" }},'
        ' { id: "short", type: Constant, value: "fits" } ],'
        f' outputs: ["{"long_id_" * 200}", "short"] }}\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["run", str(path)])
    assert result.exit_code == 0
    assert len(result.stdout) < 20 * MAX_SHOWN_VALUE  # a few rows of borders, not 60 MB
    assert "x" * MAX_SHOWN_VALUE + "..." in result.stdout and "x" * (MAX_SHOWN_VALUE + 1) not in result.stdout
    assert "│ fits" in result.stdout
    assert "2 long values cut" in result.stderr and "--json" in result.stderr
    whole = json.loads(runner.invoke(app, ["run", str(path), "--json"]).stdout)
    assert whole["outputs"]["long_id_" * 200] == BIG


def test_a_5_mb_name_in_a_message_is_cut_too(tmp_path: Path) -> None:
    path = tmp_path / "name.0"
    path.write_text(
        f'Graph {{ name: "g", nodes: [ {{ id: "b", type: Operation, op: Identity, inputs: ["{BIG}"] }} ],'
        ' outputs: ["b"] }\n',
        encoding="utf-8",
    )
    for command in ("check", "lint", "run"):
        result = runner.invoke(app, [command, str(path)])
        assert result.exit_code == 1
        assert len(result.output) < 3_000, (command, len(result.output))
        assert "(5,000,000 characters)" in result.output
    whole = json.loads(runner.invoke(app, ["check", str(path), "--json"]).output)
    assert BIG in whole[0]["problems"][0]["message"]  # tools get the message whole
