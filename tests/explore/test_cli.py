"""`zero explore` on the command line: its help, and one line (no traceback) for what stops it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.explore.stores import ROOT, Demo
from zerolang.cli.app import app
from zerolang.explore.serve import hosts_for, is_loopback

runner = CliRunner()


def test_help_names_every_option() -> None:
    result = runner.invoke(app, ["explore", "--help"])
    assert result.exit_code == 0
    for option in (
        "--db",
        "--space",
        "--experiences",
        "--root",
        "--policy",
        "--host",
        "--port",
        "--open",
        "--write",
    ):
        assert option in result.output


def one_line_error(arguments: list[str]) -> str:
    result = runner.invoke(app, ["explore", *arguments])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    return lines[0]


def test_a_port_out_of_range_is_one_line(demo: Demo) -> None:
    assert "--port 70000: a port is 0 to 65535" in one_line_error(["--db", str(demo.db), "--port", "70000"])


def test_an_unknown_host_is_one_line(demo: Demo) -> None:
    assert "--host 'no-such-host.invalid'" in one_line_error(
        ["--db", str(demo.db), "--host", "no-such-host.invalid"]
    )


def test_a_port_in_use_is_one_line(demo: Demo) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        message = one_line_error(["--db", str(demo.db), "--port", str(port)])
    assert f"cannot listen on 127.0.0.1:{port}" in message


def test_a_missing_store_is_one_line_and_nothing_is_created(tmp_path: Path) -> None:
    missing = tmp_path / "none" / "memory.db"
    assert "no memory database" in one_line_error(["--db", str(missing), "--port", "0"])
    assert not missing.parent.exists()


def test_a_bad_policy_is_one_line(demo: Demo, tmp_path: Path) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text("version = 1\n[scopes.x]\nuses = ['everything']\n")
    assert str(policy) in one_line_error(["--db", str(demo.db), "--policy", str(policy), "--port", "0"])


def test_loopback_and_the_hosts_it_answers() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    assert "evil.example" not in hosts_for("127.0.0.1") and "localhost" in hosts_for("127.0.0.1")
    assert hosts_for("0.0.0.0") == ["*"]


@contextmanager
def serving(store: Path, cwd: Path, *options: str) -> Iterator[subprocess.Popen[str]]:
    """`zero explore --db STORE --port 0 OPTIONS` in a process of its own, stopped on leaving."""
    process = subprocess.Popen(
        [sys.executable, "-m", "zerolang", "explore", "--db", str(store), "--port", "0", *options],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
    )
    try:
        assert process.stderr is not None
        yield process
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.slow
def test_another_interface_is_served_with_a_warning(demo: Demo, tmp_path: Path) -> None:
    with serving(demo.db, tmp_path, "--host", "0.0.0.0") as process:
        assert process.stderr is not None
        warning = process.stderr.readline()
        started = process.stderr.readline()
    assert warning.startswith("warning: listening on 0.0.0.0: anyone who reaches it can read this memory")
    assert "(read-only) at http://0.0.0.0:" in started


@pytest.mark.slow
def test_the_example_store_is_served(tmp_path: Path) -> None:
    """`zero explore --db examples/memory/demo.db` (a copy: opening never changes the example)."""
    store = tmp_path / "demo.db"
    store.write_bytes((ROOT / "examples" / "memory" / "demo.db").read_bytes())
    with serving(store, tmp_path) as process:
        assert process.stderr is not None
        started = process.stderr.readline()
        url = started.rsplit(" at ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=20) as response:
            page = response.read().decode()
        with urllib.request.urlopen(url + "search?q=alice", timeout=20) as response:
            found = response.read().decode()
    assert "(read-only) at http://127.0.0.1:" in started
    assert "space <b>default</b>" in page and "berlin" in found
