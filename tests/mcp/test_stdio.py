"""`zero mcp` as a client starts it: a subprocess speaking MCP over stdin and stdout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

import zerolang.memory

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        "PYTHONPATH": str(ROOT),
        "ZERO_EXPERIENCE_DB": str(tmp_path / "experiences.db"),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }


def test_zero_mcp_over_stdio(tmp_path: Path) -> None:
    db = tmp_path / "agent.db"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "zerolang", "mcp", "--db", str(db), "--space", "team"],
        env=_env(tmp_path),
        cwd=str(tmp_path),
    )

    async def main() -> None:
        async with Client(params) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {"store", "query", "read_graph", "create_entities"} <= names
            result = await client.call_tool(
                "create_entities",
                {
                    "entities": [
                        {"name": "zerolang", "entityType": "project", "observations": ["written in Python"]}
                    ]
                },
            )
            assert not result.is_error
            assert result.structured_content == {
                "entities": [
                    {"name": "zerolang", "entityType": "project", "observations": ["written in Python"]}
                ]
            }
            stored = await client.call_tool(
                "store", {"tuples": [{"subject": "zerolang", "predicate": "ships", "object": "zero mcp"}]}
            )
            assert stored.structured_content is not None and stored.structured_content["new_facts"] == 1

    anyio.run(main)
    with zerolang.memory.open(db, space="team", create=False) as memory:  # it wrote that database, that space
        view = memory.get("zerolang")
        assert view is not None
        assert {f.fact.predicate for f in view.facts} == {"entity_type", "has_observation", "ships"}


def test_zero_mcp_refuses_a_half_configured_archive(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "zerolang", "mcp", "--db", str(tmp_path / "m.db"), "--as", "dm:alice"],
        capture_output=True,
        text=True,
        env={**os.environ, **_env(tmp_path)},
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert run.returncode == 1
    assert "--as needs a consent policy" in run.stderr
    assert "Traceback" not in run.stderr
    bad = tmp_path / "policy.toml"
    bad.write_text("version = 7\n", encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "zerolang",
            "mcp",
            "--db",
            str(tmp_path / "m.db"),
            "--policy",
            str(bad),
            "--as",
            "x",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, **_env(tmp_path)},
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert run.returncode == 1 and "policy.toml" in run.stderr and "Traceback" not in run.stderr


def _rpc(ident: int, method: str, params: dict[str, object]) -> str:
    import json

    return json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n"


def test_the_pipe_transport_frames_big_and_non_ascii_messages(tmp_path: Path) -> None:
    """Raw JSON-RPC lines over pipes (the loop-watched transport): a result far bigger than a pipe's
    buffer and text outside ASCII arrive whole, one message a line, and the server exits at EOF."""
    import json

    big = "ü€𝄞 " * 60_000  # ~0.6 MB as UTF-8
    lines = [
        _rpc(
            1,
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n",
        _rpc(
            2,
            "tools/call",
            {
                "name": "create_entities",
                "arguments": {"entities": [{"name": "Zoë", "entityType": "ü", "observations": [big]}]},
            },
        ),
        _rpc(3, "tools/call", {"name": "read_graph", "arguments": {}}),
    ]
    server = subprocess.Popen(
        [sys.executable, "-m", "zerolang", "mcp", "--db", str(tmp_path / "m.db")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **_env(tmp_path)},
    )
    assert server.stdin is not None and server.stdout is not None
    replies: dict[int, dict[str, object]] = {}
    for line in lines:  # one at a time: a request still running at EOF gets no answer (as in the SDK)
        server.stdin.write(line.encode())
        server.stdin.flush()
        if '"id"' in line:
            message = json.loads(server.stdout.readline())
            replies[message["id"]] = message
    server.stdin.close()
    assert server.wait(timeout=120) == 0, server.stderr.read().decode() if server.stderr else ""
    assert server.stdout.read() == b""
    assert set(replies) == {1, 2, 3}
    graph = replies[3]["result"]["structuredContent"]  # type: ignore[index]
    assert graph["entities"] == [{"name": "Zoë", "entityType": "ü", "observations": [big]}]


def test_only_pipes_and_sockets_are_watched(tmp_path: Path) -> None:
    from zerolang.mcp.stdio import watchable

    script = "from zerolang.mcp.stdio import watchable; import sys; sys.stderr.write(str(watchable()))"
    regular = tmp_path / "in.txt"
    regular.write_text("")
    with regular.open("rb") as stdin:
        from_file = subprocess.run(
            [sys.executable, "-c", script],
            stdin=stdin,
            capture_output=True,
            env={**os.environ, **_env(tmp_path)},
        )
    piped = subprocess.run(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        capture_output=True,
        env={**os.environ, **_env(tmp_path)},
    )
    assert from_file.stderr == b"False"
    assert piped.stderr == b"True"
    assert callable(watchable)
