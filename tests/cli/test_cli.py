"""End to end through typer's test runner: every command, its output and its exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zerolang import __version__
from zerolang.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
HELLO = str(ROOT / "examples" / "hello.0")
runner = CliRunner()

SIGNING_GRAPH = """Graph {
    name: "signing",
    nodes: [
        { id: "message", type: External, uri: "input://message" },
        { id: "signature", type: Operation, op: Sign, inputs: ["message"] },
        { id: "valid", type: Operation, op: Verify, inputs: ["message", "signature"] },
    ],
    outputs: ["signature", "valid"],
}
"""

STATE_GRAPH = """Graph {
    name: "counter",
    nodes: [
        { id: "session", type: Constant, value: "s1" },
        { id: "before", type: Operation, op: LoadState, inputs: ["session"] },
        { id: "value", type: External, uri: "input://value" },
        { id: "saved", type: Operation, op: SaveState, inputs: ["session", "value"] },
    ],
    outputs: ["before", "saved"],
}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"zero {__version__}"


def test_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("run", "check", "keygen"):
        assert command in result.stdout


def test_run_prints_a_table() -> None:
    result = runner.invoke(app, ["run", HELLO, "--input", "name=Ada", "--trace"])
    assert result.exit_code == 0, result.output
    assert "Hello, Ada" in result.stdout and "HELLO, ADA" in result.stdout
    assert "confidence 1.0" in result.stdout
    assert "name → salutation → greeting → shout → fingerprint" in result.stdout


def test_run_json_is_exactly_one_object() -> None:
    result = runner.invoke(app, ["run", HELLO, "--input", "name=Ada", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert set(document) == {"outputs", "trace", "confidence", "hash"}
    assert document["outputs"]["greeting"] == "Hello, Ada"
    assert len(document["outputs"]["fingerprint"]) == 64
    assert len(document["hash"]) == 64 and int(document["hash"], 16) >= 0
    assert isinstance(document["confidence"], float)


def test_typed_input_and_inputs_file(tmp_path: Path) -> None:
    graph = write(
        tmp_path,
        "typed.0",
        'Graph { name: "t", nodes: [ { id: "n", type: External, uri: "input://n" },'
        ' { id: "s", type: External, uri: "input://s" } ], outputs: ["n", "s"] }',
    )
    inputs = write(tmp_path, "inputs.json", json.dumps({"n": 1, "s": "from file"}))
    result = runner.invoke(
        app, ["run", graph, "--inputs", inputs, "--input", 'n:=[1, {"a": true}]', "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["outputs"] == {"n": [1, {"a": True}], "s": "from file"}
    text = runner.invoke(app, ["run", graph, "--input", "n=42", "--json"])
    assert json.loads(text.stdout)["outputs"]["n"] == "42"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--input", "name"],
            "invalid --input 'name': write NAME=TEXT for a string or NAME:=JSON for a typed value",
        ),
        (["--input", "name:={"], "invalid --input 'name:={': the value after := is not JSON"),
        (["--inputs", "/nonexistent.json"], "/nonexistent.json: no such file"),
    ],
)
def test_bad_inputs_exit_1_with_one_message(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, ["run", HELLO, *arguments])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_missing_file_exits_1() -> None:
    result = runner.invoke(app, ["run", "/nonexistent/graph.0"])
    assert result.exit_code == 1
    assert result.output.strip() == "error: /nonexistent/graph.0: no such file"


def test_syntax_error_exits_1_with_location(tmp_path: Path) -> None:
    graph = write(tmp_path, "bad.0", 'Graph {\n  name: "x"\n  nodes: [],\n}\n')
    result = runner.invoke(app, ["run", graph])
    assert result.exit_code == 1
    assert f"{graph}:3:3: expected `,` or `}}` after the `name` field, found `nodes`" in result.output
    assert "  nodes: []," in result.output and "^" in result.output


def test_invalid_graph_exits_1_listing_problems(tmp_path: Path) -> None:
    graph = write(
        tmp_path, "agg.0", 'Graph { name: "x", nodes: [ { id: "m", type: Aggregate } ], outputs: ["m"] }'
    )
    result = runner.invoke(app, ["run", graph])
    assert result.exit_code == 1
    assert "use `Operation` with `op: MergeMap` [Z001]" in result.output


def test_runtime_error_exits_1_at_the_node(tmp_path: Path) -> None:
    graph = write(
        tmp_path,
        "div.0",
        'Graph { name: "x", nodes: [\n { id: "a", type: Constant, value: 1 },\n'
        ' { id: "d", type: Operation, op: Divide, inputs: ["a", "zero"] },\n'
        ' { id: "zero", type: Constant, value: 0 } ], outputs: ["d"] }',
    )
    result = runner.invoke(app, ["run", graph])
    assert result.exit_code == 1
    assert f"{graph}:3:2:" in result.output and "division by zero" in result.output


def test_step_limit(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", HELLO, "--max-steps", "2"])
    assert result.exit_code == 1
    assert "step limit" in result.output


def test_usage_errors_exit_2() -> None:
    assert runner.invoke(app, ["run"]).exit_code == 2
    assert runner.invoke(app, ["run", HELLO, "--bogus"]).exit_code == 2
    assert runner.invoke(app, ["run", HELLO, "--max-steps", "0"]).exit_code == 2
    assert runner.invoke(app, ["nonsense"]).exit_code == 2


def test_check_ok_and_problems(tmp_path: Path) -> None:
    ok = runner.invoke(app, ["check", HELLO])
    assert ok.exit_code == 0 and ok.stdout.strip() == f"{HELLO}: ok (5 nodes)"
    bad = write(
        tmp_path, "bad.0", 'Graph { name: "x", nodes: [ { id: "a", type: Operation, op: Eq } ], outputs: [] }'
    )
    result = runner.invoke(app, ["check", HELLO, bad])
    assert result.exit_code == 1
    assert "unknown op `Eq`: did you mean `Equals`? [Z003]" in result.output
    assert "1 of 2 files has problems" in result.output


def test_sign_and_verify_without_and_with_a_key(tmp_path: Path) -> None:
    graph = write(tmp_path, "sign.0", SIGNING_GRAPH)
    digest = json.loads(runner.invoke(app, ["run", graph, "-i", "message=hi", "--json"]).stdout)
    assert digest["outputs"]["valid"] is True
    assert digest["outputs"]["signature"].endswith("0" * 64)
    key = tmp_path / "key.pem"
    made = runner.invoke(app, ["keygen", str(key)])
    assert made.exit_code == 0 and "public key" in made.stdout
    assert runner.invoke(app, ["keygen", str(key)]).exit_code == 1
    signed = runner.invoke(app, ["run", graph, "-i", "message=hi", "--key", str(key), "--json"])
    assert signed.exit_code == 0, signed.output
    document = json.loads(signed.stdout)
    assert document["outputs"]["valid"] is True
    assert not document["outputs"]["signature"].endswith("0" * 64)
    bad_key = write(tmp_path, "bad.pem", "not a key")
    assert runner.invoke(app, ["run", graph, "--key", bad_key]).exit_code == 1


def test_state_persists_with_state_file(tmp_path: Path) -> None:
    graph = write(tmp_path, "state.0", STATE_GRAPH)
    state = str(tmp_path / "state.db")
    first = json.loads(
        runner.invoke(app, ["run", graph, "-i", "value:=41", "--state", state, "--json"]).stdout
    )
    assert first["outputs"]["before"] == {"session_id": "s1", "trust_score": 0.5, "message_count": 0}
    second = json.loads(
        runner.invoke(app, ["run", graph, "-i", "value:=42", "--state", state, "--json"]).stdout
    )
    assert second["outputs"]["before"] == 41
    fresh = json.loads(runner.invoke(app, ["run", graph, "-i", "value:=42", "--json"]).stdout)
    assert fresh["outputs"]["before"]["session_id"] == "s1"


def test_console_script_never_shows_a_traceback(tmp_path: Path) -> None:
    graph = write(tmp_path, "bad.0", "Graph { name: 'x' }")
    completed = subprocess.run(
        [sys.executable, "-m", "zerolang", "run", graph], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 1
    assert completed.stderr.startswith(f"error: {graph}:1:15: strings use double quotes")
    assert "Traceback" not in completed.stderr


def test_check_reads_0c_documents(tmp_path: Path) -> None:
    database = str(tmp_path / "memory.db")
    example = str(ROOT / "examples" / "memory_input.json")
    assert runner.invoke(app, ["memory", "ingest", example, "--db", database]).exit_code == 0
    document = tmp_path / "memory.0c"
    assert runner.invoke(app, ["memory", "export", "--db", database, "-o", str(document)]).exit_code == 0
    ok = runner.invoke(app, ["check", str(document)])
    assert ok.exit_code == 0 and ok.stdout.strip() == f"{document}: ok (8 concepts, 9 relations)"
    appended = write(tmp_path, "appended.0c", document.read_text(encoding="utf-8") + "1 needs99 95\n")
    result = runner.invoke(app, ["check", appended])
    assert result.exit_code == 1 and "lines were added after the `0M:end` line" in result.output
    # Edited on purpose: the end line deleted and the header back to 1.0, then what it says is checked.
    lines = document.read_text(encoding="utf-8").splitlines()
    assert lines[-1].startswith("0M:end ")
    edited = "\n".join(lines[:-1]).replace("0M:1.1", "0M:1.0", 1) + "\n1 needs99 95\n"
    broken = write(tmp_path, "broken.0c", edited)
    result = runner.invoke(app, ["check", broken])
    assert result.exit_code == 1 and "there is no concept 99" in result.output
