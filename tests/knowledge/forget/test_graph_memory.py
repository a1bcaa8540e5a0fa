"""Memory inside graphs: the Memory* ops under `zero run --db`, and the MemoryRuntime protocol."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from zerolang import storage
from zerolang.knowledge.compiler import compile_record
from zerolang.knowledge.runtime import CommandRuntime, InterpreterRuntime, MemoryRuntime, check_record_graph
from zerolang.knowledge.types import CompilerInput, ContextMeta, SemanticTuple
from zerolang.runtime.builtins import OPERATIONS
from zerolang.util.errors import ZeroError

ROOT = Path(__file__).resolve().parents[3]
GRAPH = ROOT / "examples" / "memory" / "memory_graph.0"
FAKE = [sys.executable, str(ROOT / "examples" / "memory" / "fake_runtime.py")]


def test_the_memory_ops_are_builtins_with_docs() -> None:
    for name in ("MemoryStore", "MemoryRecall", "MemoryQuery"):
        op = OPERATIONS[name]
        assert op.group == "memory" and op.doc


def run_graph(db: Path, *extra: str) -> bytes:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "zerolang",
            "run",
            str(GRAPH),
            "--db",
            str(db),
            "--now",
            "2026-03-01T00:00:00Z",
            "--json",
            *extra,
        ],
        capture_output=True,
        check=True,
        timeout=300,
    )
    return done.stdout


def test_a_graph_that_stores_then_recalls_runs_deterministically(tmp_path: Path) -> None:
    first, second = run_graph(tmp_path / "a.db"), run_graph(tmp_path / "b.db")
    assert first == second
    document = json.loads(first)
    assert document["outputs"]["stored_work"]["new"] is True
    assert [row["concept"] for row in document["outputs"]["around_ada"]] == [
        "analytical engines ltd",
        "charles",
    ]
    assert document["outputs"]["employer"][0]["bindings"] == {"where": "analytical engines ltd"}
    again = json.loads(run_graph(tmp_path / "a.db"))
    assert again["outputs"]["stored_work"]["new"] is False  # stored once
    with storage.open_store(tmp_path / "a.db") as store:
        assert store.counts().facts == 2 and store.check().ok
    spaced = json.loads(run_graph(tmp_path / "a.db", "--space", "other"))
    assert spaced["outputs"]["stored_work"]["new"] is True  # another space, another memory


def test_without_a_memory_the_ops_fail_clearly(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    result = CliRunner().invoke(app, ["run", str(GRAPH)])
    assert result.exit_code == 1
    assert "MemoryStore needs a memory store: run the graph with `zero run FILE --db PATH" in result.output
    assert "Traceback" not in result.output


def test_the_interpreter_is_a_memory_runtime(tmp_path: Path) -> None:
    with storage.open_store(tmp_path / "m.db") as store:
        runtime: MemoryRuntime = InterpreterRuntime(memory=store, clock=lambda: 1_772_323_200.0)
        outputs = runtime.execute_graph(GRAPH.read_text(), {})
        assert outputs["employer"][0]["bindings"] == {"where": "analytical engines ltd"}  # type: ignore[index]
        assert runtime.hash(b"abc") == hashlib.sha256(b"abc").hexdigest()
        runtime.save_state("k", {"n": 1})
        assert runtime.load_state("k") == {"n": 1} and runtime.load_state("missing") is None
        record = compile_record(
            CompilerInput((SemanticTuple("a", "b", "c", 0.5),), ContextMeta("2026-01-01T00:00:00Z", "s", "x"))
        )
        assert check_record_graph(runtime, record) == []


def test_an_external_runtime_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_RUNTIME_STATE", str(tmp_path / "state.json"))
    runtime: MemoryRuntime = CommandRuntime(FAKE)
    assert runtime.hash(b"abc") == hashlib.sha256(b"abc").hexdigest()
    assert runtime.execute_graph("Graph {\n}\n", {"x": [1, "two"]}) == {"lines": 2, "echo": {"x": [1, "two"]}}
    runtime.save_state("session", {"count": 3})
    assert runtime.load_state("session") == {"count": 3}
    with pytest.raises(ZeroError, match="the graph asked to fail"):
        runtime.execute_graph("FAIL", {})
    with pytest.raises(ZeroError, match="exited with 3: fake runtime: crashed on purpose"):
        runtime.execute_graph("CRASH", {})
    with pytest.raises(ZeroError, match="no such command"):
        CommandRuntime(["/nonexistent/runtime"]).hash(b"")
    with pytest.raises(ZeroError, match="not JSON"):
        CommandRuntime([sys.executable, "-c", "print('hello')"]).hash(b"")

    from typer.testing import CliRunner

    from zerolang.cli.app import app

    command = " ".join(FAKE)
    result = CliRunner().invoke(
        app, ["run", str(ROOT / "examples" / "hello.0"), "--runtime", command, "--input", "name=Ada"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["outputs"]["echo"] == {"name": "Ada"}
