"""The hooks' warm server (`zerolang.cli.hook_server`) and the lean path that asks it (`hook_client`).

A server answers a recall with the bytes the hook prints in process (stdout and stderr), for its one
context only; it refuses captures and anything not its own, stops when its code changes, lives in a
folder only its user may enter, and exits when idle. The tests turn the server off for every other
`zero hook` (tests/conftest.py); here it runs with a socket folder of the test's own.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

import zerolang.memory
from tests.agents.transcripts import ClaudeTranscript, payload
from zerolang.cli import hook_client, hook_server

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="Unix sockets")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run() -> Iterator[Path]:
    """The base of the socket folder ($XDG_RUNTIME_DIR): short enough for a socket's path (pytest's
    own folders are too long)."""
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="zh", dir="/tmp"))
    yield base
    for lock in base.glob("zerolang-hook-*/*.lock"):  # a server the test's hooks started, left running
        pid = hook_server.serving(lock)
        if pid is not None:
            with suppress(OSError):
                os.kill(pid, signal.SIGTERM)
    shutil.rmtree(base, ignore_errors=True)


def environment(home: Path, run: Path, *, server: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ZERO_", "XDG_"))}
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_RUNTIME_DIR=str(run),
        ZERO_HOOK_SERVER="on" if server else "off",
        PYTHONPATH=str(ROOT),
    )
    return env


def hook(
    runtime: str, db: str, stdin: str, env: dict[str, str], cwd: Path, *options: str
) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "zerolang", "hook", runtime, "--db", db, *options],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=cwd,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def memory(tmp_path: Path) -> str:
    """A memory with facts and turns of other sessions."""
    db = str(tmp_path / "memory.db")
    with zerolang.memory.open(db) as held:
        held.declare_single_valued(["works_at"], now="2000-01-01")
        held.remember([("Carol Diaz", "works_at", "Initech")], event_time="2020-01-15T00:00:00Z")
        held.remember([("Carol Diaz", "works_at", "Acme Corp")], event_time="2024-02-01T00:00:00Z")
        held.remember([("billing service", "uses", "token cache")], event_time="2024-03-01T00:00:00Z")
        for n in range(12):
            held.capture(
                session=f"other-{n % 3}",
                user_said=f"Turn {n}: why does the billing login fail near the [bold]clock[/bold]\x1b[31m?",
                agent_said=f"The billing token expires before the clock syncs; fixed in turn {n}.",
                when=f"2024-05-0{1 + n % 9}T10:00:00Z",
            )
    return db


class Server:
    """A server started as a hook starts it, in `cwd` with `env`; stopped by its process id."""

    def __init__(self, db: str, env: dict[str, str], cwd: Path, *extra: str) -> None:
        self.env, self.cwd = env, cwd
        self.context = hook_client.context(db, None, env, str(cwd))
        self.name = hook_client.digest(self.context)
        folder = hook_client.socket_folder(env)
        assert folder is not None
        self.folder = Path(folder)
        path = hook_client.socket_path(folder, self.name)
        assert path is not None
        self.path = path
        arguments = [
            sys.executable,
            "-P",
            "-m",
            "zerolang.cli.hook_server",
            f"--name={self.name}",
            f"--db={db}",
        ]
        self.process = subprocess.Popen([*arguments, *extra], env=env, cwd=cwd)

    def wait(self) -> None:
        for _ in range(600):
            if Path(self.path).exists() or self.process.poll() is not None:
                break
            time.sleep(0.05)
        assert Path(self.path).exists(), "the server did not start"

    def ask(self, runtime: str, text: str, budget: int | None = None) -> dict[str, object] | None:
        request = {
            "context": self.context,
            "runtime": runtime,
            "budget": budget,
            "timeout": 10.0,
            "left": 9.5,
            "text": text,
        }
        return hook_client.ask(self.path, request, 30.0)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


@pytest.fixture
def server(tmp_path: Path, run: Path, memory: str) -> Iterator[Server]:
    project = tmp_path / "billing-service"
    project.mkdir()
    started = Server(memory, environment(tmp_path, run, server=True), project)
    started.wait()
    yield started
    started.stop()


def events(tmp_path: Path) -> list[tuple[str, str]]:
    transcript = ClaudeTranscript(tmp_path / "mine.jsonl", "44444444-aaaa-4bbb-8ccc-000000000004")
    transcript.turn("hello", "hi")
    prompt = payload("UserPromptSubmit", transcript, prompt="why does the billing login fail?")
    start = json.dumps(
        {
            "hook_event_name": "SessionStart",
            "session_id": "s",
            "source": "startup",
            "cwd": "/w/billing-service",
        }
    )
    return [
        ("claude-code", prompt),
        ("claude-code", payload("UserPromptSubmit", transcript, prompt="Where does Carol work?")),
        ("claude-code", payload("UserPromptSubmit", transcript, prompt="zebra quasar")),
        ("claude-code", start),
        ("pi", json.dumps({"event": "before_agent_start", "prompt": "billing token clock", "cwd": "/w"})),
        ("pi", json.dumps({"event": "before_agent_start", "cwd": "/w/billing-service"})),
    ]


@pytest.mark.slow
def test_the_server_answers_byte_for_byte_what_the_process_prints(
    tmp_path: Path, run: Path, memory: str, server: Server
) -> None:
    off = environment(tmp_path, run, server=False)
    for runtime, text in events(tmp_path):
        for budget in (None, 60):
            options = () if budget is None else ("--budget", str(budget))
            alone = hook(runtime, memory, text, off, server.cwd, *options)
            reply = server.ask(runtime, text, budget)
            assert reply is not None and reply["served"] is True, (runtime, text)
            assert (0, reply["stdout"], reply["stderr"]) == alone, (runtime, text, budget)
    assert any(server.ask(r, t)["stdout"] for r, t in events(tmp_path))  # type: ignore[index]
    # and the hook prints it: the lean path through the server, as the agent runs it
    on = environment(tmp_path, run, server=True)
    for runtime, text in events(tmp_path):
        assert hook(runtime, memory, text, on, server.cwd) == hook(runtime, memory, text, off, server.cwd)


@pytest.mark.slow
def test_the_server_refuses_what_is_not_its_own(tmp_path: Path, memory: str, server: Server) -> None:
    transcript = ClaudeTranscript(tmp_path / "mine.jsonl", "44444444-aaaa-4bbb-8ccc-000000000004")
    transcript.turn("hello", "hi")
    refused = {"served": False}
    assert server.ask("claude-code", payload("Stop", transcript)) == refused  # a capture: in process
    assert server.ask("pi", json.dumps({"event": "agent_end", "session_file": "x"})) == refused
    assert server.ask("claude-code", "{not json") == refused  # the process says what is wrong
    other = hook_client.context(str(tmp_path / "other.db"), None, server.env, str(server.cwd))
    request = {"context": other, "runtime": "claude-code", "budget": None, "timeout": 10.0, "left": 9.0}
    assert hook_client.ask(server.path, {**request, "text": "{}"}, 30.0) == refused
    prompt = payload("UserPromptSubmit", transcript, prompt="billing")
    assert server.ask("claude-code", prompt, budget=0) == refused
    assert server.ask("codex", prompt) == refused
    assert server.ask("claude-code", prompt)["served"] is True  # type: ignore[index]


@pytest.mark.slow
def test_a_server_stops_when_the_settings_change(tmp_path: Path, memory: str, server: Server) -> None:
    runtime, text = events(tmp_path)[0]
    assert server.ask(runtime, text)["served"] is True  # type: ignore[index]
    (server.cwd / "pyproject.toml").write_text('[tool.zero.memory]\nspace = "elsewhere"\n')
    assert server.ask(runtime, text) == {"served": False}  # what a fresh process would read differs
    assert server.process.wait(timeout=60) == 0
    assert not Path(server.path).exists()


@pytest.mark.slow
def test_a_hook_without_a_server_starts_one_and_prints_the_same(
    tmp_path: Path, run: Path, memory: str
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    on, off = environment(tmp_path, run, server=True), environment(tmp_path, run, server=False)
    runtime, text = events(tmp_path)[0]
    first = hook(runtime, memory, text, on, project)
    assert first == hook(runtime, memory, text, off, project) and first[1]
    name = hook_client.digest(hook_client.context(memory, None, on, str(project)))
    folder = run / f"zerolang-hook-{os.getuid()}"
    sock, lock = folder / f"{name}.sock", folder / f"{name}.lock"
    for _ in range(600):
        if sock.exists():
            break
        time.sleep(0.05)
    assert sock.exists() and oct(folder.stat().st_mode & 0o777) == "0o700"
    assert oct(sock.stat().st_mode & 0o777) == "0o600"
    pid = hook_server.serving(lock)
    assert pid is not None
    try:
        assert hook(runtime, memory, text, on, project) == first
    finally:
        os.kill(pid, signal.SIGTERM)  # the server this test's hook started
    for _ in range(600):
        if not sock.exists():
            break
        time.sleep(0.05)
    assert not sock.exists()


@pytest.mark.slow
def test_an_idle_server_exits_and_a_second_one_gives_way(tmp_path: Path, run: Path, memory: str) -> None:
    env = environment(tmp_path, run, server=True)
    first = Server(memory, env, tmp_path, "--idle=3")
    first.wait()
    second = Server(memory, env, tmp_path)
    assert second.process.wait(timeout=60) == 0  # the context has its server already
    assert hook_server.serving(first.folder / f"{first.name}.lock") == first.process.pid
    assert first.process.wait(timeout=60) == 0
    assert hook_server.serving(first.folder / f"{first.name}.lock") is None
    assert not Path(first.path).exists()


def test_a_server_that_does_not_answer_in_time_is_passed_by(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir(mode=0o700)
    path = str(folder / "x.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(1)
        accepted: list[socket.socket] = []
        thread = threading.Thread(target=lambda: accepted.append(listener.accept()[0]))
        thread.start()
        assert hook_client.ask(path, {"a": 1}, 0.3) is None  # accepted, never answered
        thread.join()
        accepted[0].close()
    assert hook_client.ask(str(folder / "none.sock"), {"a": 1}, 0.3) is None
    assert hook_client.ask(path, {"a": 1}, 0.0) is None


def test_the_socket_folder_is_this_users_alone(tmp_path: Path) -> None:
    folder = hook_client.socket_folder({"XDG_RUNTIME_DIR": str(tmp_path)})
    assert folder == str(tmp_path / f"zerolang-hook-{os.getuid()}")
    assert os.stat(folder).st_mode & 0o777 == 0o700
    os.chmod(folder, 0o755)  # opened to others: not used
    assert hook_client.socket_folder({"XDG_RUNTIME_DIR": str(tmp_path)}) is None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / "link").mkdir()
    (tmp_path / "link" / f"zerolang-hook-{os.getuid()}").symlink_to(elsewhere)  # a link: not used
    assert hook_client.socket_folder({"XDG_RUNTIME_DIR": str(tmp_path / "link")}) is None
    assert hook_client.socket_folder({"TMPDIR": str(tmp_path / "missing" / "deeper")}) is None
    assert hook_client.socket_path(str(tmp_path), "x" * 120) is None


def test_changed_code_is_seen(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("x = 1\n")
    known = {str(module): os.stat(module).st_mtime_ns}
    assert not hook_server.code_changed(known)
    os.utime(module, ns=(0, known[str(module)] + 1_000_000_000))
    assert hook_server.code_changed(known)
    module.unlink()
    assert hook_server.code_changed(known)


def test_the_server_reads_only_its_own_arguments() -> None:
    assert hook_server.read_arguments(["--name=abc", "--db=x.db"]) == ("abc", "x.db", None, hook_client.IDLE)
    assert hook_server.read_arguments(["--name=abc", "--idle=2", "--space=s"]) == ("abc", None, "s", 2.0)
    for wrong in ([], ["--db=x"], ["--name", "abc"], ["--name=a", "--name=b"], ["--name=a", "--idle=x"]):
        assert hook_server.read_arguments(wrong) is None, wrong
