"""The hook's lean path (`zerolang.cli.hook_client`): which command lines it reads, and what it imports
when a warm server answers (a set, never a time: the time is benches/bench_hooks.py's)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from zerolang.cli import hook_client
from zerolang.cli.hook_defaults import RECALLS, RUNTIMES
from zerolang.cli.typer_app import load_command

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import atexit, json, sys
out = sys.argv[1]
sys.argv = ["zero", *sys.argv[2:]]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from zerolang.cli.app import main
main()
"""

# What the lean path may load of zerolang when a server answers: the entry point and itself.
LEAN = {
    "zerolang",
    "zerolang.cli",
    "zerolang.cli.app",
    "zerolang.cli.hook_client",
    "zerolang.cli.hook_defaults",
}
# Nor any of these: the command line's framework, the stores, the tokenizer, the annotations' library.
HEAVY = {"typer", "click", "rich", "sqlite3", "tiktoken", "regex", "platformdirs", "typing", "dataclasses",
         "pathlib", "subprocess", "hashlib", "lark", "psycopg", "sqlalchemy"}  # fmt: skip


class FakeServer:
    """A listener that answers every request as a server that found nothing but `stdout` would."""

    def __init__(self, path: str, stdout: str) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(4)
        self.requests: list[dict[str, object]] = []
        self.reply = json.dumps({"served": True, "stdout": stdout, "stderr": ""}).encode()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        connection, _ = self.listener.accept()
        with connection:
            data = hook_client.read_all(connection)
            assert data is not None
            self.requests.append(json.loads(data))
            connection.sendall(self.reply)

    def close(self) -> None:
        self.thread.join(timeout=30)
        self.listener.close()


@pytest.fixture
def run_folder() -> Iterator[str]:
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="zh", dir="/tmp")  # short: a socket's path is
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
def test_a_served_hook_imports_only_the_lean_path(tmp_path: Path, run_folder: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ZERO_", "XDG_"))}
    env |= {"XDG_RUNTIME_DIR": run_folder, "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env |= {"ZERO_HOOK_SERVER": "on", "XDG_DATA_HOME": str(tmp_path / "data")}
    db = str(tmp_path / "memory.db")
    name = hook_client.digest(hook_client.context(db, None, env, str(tmp_path)))
    folder = hook_client.socket_folder(env)
    assert folder is not None
    path = hook_client.socket_path(folder, name)
    assert path is not None
    server = FakeServer(path, '{"hookSpecificOutput": "x"}\n')
    out = tmp_path / "modules.json"
    event = json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "s", "prompt": "billing"})
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), "hook", "claude-code", "--db", db, "--budget", "300"],
        input=event,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    server.close()
    assert (done.returncode, done.stdout, done.stderr) == (0, '{"hookSpecificOutput": "x"}\n', "")
    assert server.requests[0]["text"] == event and server.requests[0]["budget"] == 300
    modules = set(json.loads(out.read_text()))
    assert {name for name in modules if name.split(".")[0] == "zerolang"} == LEAN
    assert not modules & HEAVY, sorted(modules & HEAVY)
    assert not (tmp_path / "memory.db").exists()  # nothing opened


def test_the_lean_path_reads_only_plain_hook_command_lines() -> None:
    command = hook_client.read_command(["claude-code", "--db", "e.db", "--budget=5", "--timeout", "2.5"])
    assert command is not None
    assert (command.runtime, command.db, command.space, command.budget, command.timeout) == (
        "claude-code",
        "e.db",
        None,
        5,
        2.5,
    )
    command = hook_client.read_command(["pi", "--space", "s"])
    assert command is not None and (command.space, command.budget, command.timeout) == ("s", None, 10.0)
    for declined in (
        [],
        ["install", "claude-code"],
        ["codex"],
        ["claude-code", "--budget", "0"],
        ["claude-code", "--budget", "x"],
        ["claude-code", "--timeout", "0.01"],
        ["claude-code", "--timeout", "inf"],
        ["claude-code", "--timeout", "nan"],
        ["claude-code", "--event", "e.json"],
        ["claude-code", "--help"],
        ["claude-code", "pi"],
        ["claude-code", "--db"],
        ["claude-code", "--db", "-x"],
        ["claude-code", "--db", "a", "--db", "b"],
        ["claude-code", "--db", "\udcff"],
    ):
        assert hook_client.read_command(declined) is None, declined


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_lean_path_reads_the_options_typer_declares(runtime: str) -> None:
    hook = load_command("hook")
    command = hook.commands[runtime]  # type: ignore[attr-defined]
    declared = {flag for option in command.params for flag in getattr(option, "opts", [])}
    assert set(hook_client.OPTIONS) <= declared
    assert declared - set(hook_client.OPTIONS) == {"--event"}  # a recorded event: typer reads it


def test_the_server_can_be_turned_off() -> None:
    assert hook_client.server_enabled({})
    assert hook_client.server_enabled({"ZERO_HOOK_SERVER": "on"})
    for off in ("off", "0", "no", "FALSE", " Off "):
        assert not hook_client.server_enabled({"ZERO_HOOK_SERVER": off})


def test_the_events_a_server_answers_are_the_recalls() -> None:
    from zerolang.agents import claude_code

    assert RECALLS["claude-code"] == ("hook_event_name", claude_code.RECALLING)
    assert hook_client.recall_event("claude-code", '{"hook_event_name": "UserPromptSubmit"}')
    assert hook_client.recall_event("pi", '{"event": "before_agent_start", "prompt": "x"}')
    for runtime, text in (
        ("claude-code", '{"hook_event_name": "Stop"}'),
        ("pi", '{"event": "agent_end"}'),
        ("claude-code", "{not json"),
        ("pi", "[1]"),
        ("claude-code", '{"event": "UserPromptSubmit"}'),
    ):
        assert not hook_client.recall_event(runtime, text), text


def test_a_server_is_named_by_what_it_serves_alone() -> None:
    """The variables an agent sets per session or per call do not start another server; the memory,
    the folder and the variables that resolve the memory (or the code) do."""
    base = {"HOME": "/home/me", "PATH": "/bin", "ZERO_MEMORY_DB": "m.db"}

    def name(db: str | None = "m.db", cwd: str = "/w", **variables: str) -> str:
        return hook_client.digest(hook_client.context(db, None, {**base, **variables}, cwd))

    same = name()
    assert (
        name(CLAUDE_SESSION_ID="abc", PWD="/x", SHLVL="3", CLAUDE_PROJECT_DIR="/w", PATH="/usr/bin") == same
    )
    for other in (
        name(db="n.db"),
        name(cwd="/v"),
        name(ZERO_MEMORY_DB="n.db"),
        name(ZERO_MEMORY_SPACE="s"),
        name(XDG_DATA_HOME="/d"),
        name(PYTHONPATH="/p"),
        name(PGHOST="db"),
        name(HOME="/home/you"),
    ):
        assert other != same
