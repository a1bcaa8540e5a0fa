"""`zero mcp` keeps answering (issue 28): a long `query` runs off the request loop while other calls
are answered, a refused call is one line for the agent (no traceback on stderr), and a line that is
not a JSON-RPC message gets a JSON-RPC error response. All over real pipes."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import psycopg
import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

from tests.mcp.test_stdio import _env, _rpc
from tests.storage.contract.test_postgres import as_role
from zerolang.mcp.stdio import malformed

# `zero mcp`, with every `Memory.query` waiting until a file exists: a query that takes as long
# as the test says, without depending on the machine's speed.
SLOW = """
import sys, time
from pathlib import Path
from zerolang.memory.api import Memory
gate = Path(sys.argv[1])
original = Memory.query
def slow(self, text, *args, **kwargs):
    gate.with_suffix(".started").touch()
    while not gate.exists():
        time.sleep(0.01)
    return original(self, text, *args, **kwargs)
Memory.query = slow
sys.argv = ["zero", "mcp", *sys.argv[2:]]
from zerolang.cli.app import main
main()
"""

INIT: dict[str, object] = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"},
}


def test_a_slow_query_does_not_hold_up_other_calls(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", SLOW, str(gate), "--db", str(tmp_path / "m.db")],
        env=_env(tmp_path),
        cwd=str(tmp_path),
    )

    async def main() -> None:
        with anyio.fail_after(300):  # a guard against a hang, not a measure
            await session()

    async def session() -> None:
        async with Client(params) as client:
            stored = await client.call_tool(
                "store", {"tuples": [{"subject": "ann", "predicate": "likes", "object": "tea"}]}
            )
            assert not stored.is_error
            answers: dict[str, object] = {}

            async def slow_query() -> None:
                answers["query"] = await client.call_tool("query", {"text": "match (ann likes ?x)"})

            async with anyio.create_task_group() as group:
                group.start_soon(slow_query)
                while not gate.with_suffix(".started").exists():  # the query is running
                    await anyio.sleep(0.01)
                # answered while the query waits: were it on the loop, this would never return
                got = await client.call_tool("get", {"hash": "ann"})
                assert not got.is_error and got.structured_content["kind"] == "concept"
                more = await client.call_tool(
                    "store", {"tuples": [{"subject": "bob", "predicate": "likes", "object": "jam"}]}
                )
                assert not more.is_error
                assert "query" not in answers
                gate.touch()
            result = answers["query"]
            assert not result.is_error, result  # type: ignore[attr-defined]
            rows = result.structured_content["rows"]  # type: ignore[attr-defined]
            assert "tea" in json.dumps(rows)
            # the reader sees what the loop's memory wrote meanwhile
            after = await client.call_tool("query", {"text": "match (bob likes ?x)"})
            assert "jam" in json.dumps(after.structured_content["rows"])

    anyio.run(main)


@pytest.fixture
def role(postgres_url: str) -> Iterator[str]:
    name = f"zt_mcp_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{name}" LOGIN')
    yield name
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'DROP OWNED BY "{name}"')
        admin.execute(f'DROP ROLE "{name}"')


def test_a_store_the_role_may_not_write_is_one_line(tmp_path: Path, postgres_url: str, role: str) -> None:
    """A role granted space `own` serving space `other`: `store` is refused in one line the agent can
    act on, and the server's stderr has no traceback; the server goes on answering."""
    own, other = f"own-{secrets.token_hex(3)}", f"other-{secrets.token_hex(3)}"
    granted = subprocess.run(
        [sys.executable, "-m", "zerolang", "memory", "grant", role, "--db", postgres_url, "--space", own],
        capture_output=True,
        text=True,
        env={**os.environ, **_env(tmp_path)},
    )
    assert granted.returncode == 0, granted.stderr
    server = subprocess.Popen(
        [sys.executable, "-m", "zerolang", "mcp", "--db", as_role(postgres_url, role), "--space", other],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **_env(tmp_path)},
    )
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    calls = [
        _rpc(1, "initialize", INIT),
        _rpc(
            2,
            "tools/call",
            {
                "name": "store",
                "arguments": {"tuples": [{"subject": "ann", "predicate": "likes", "object": "tea"}]},
            },
        ),
        _rpc(3, "tools/call", {"name": "query", "arguments": {"text": "match (?x likes ?y)"}}),
    ]
    replies = []
    for line in calls:
        server.stdin.write(line.encode())
        server.stdin.flush()
        replies.append(json.loads(server.stdout.readline()))
    server.stdin.close()
    assert server.wait(timeout=120) == 0
    stderr = server.stderr.read().decode()
    assert "Traceback" not in stderr, stderr
    refused = replies[1]["result"]
    assert refused["isError"] is True
    text = refused["content"][0]["text"]
    assert "\n" not in text and text.startswith("store: "), text
    assert "Error executing tool" not in text and "permission" in text.lower(), text
    assert replies[2]["result"].get("isError") is not True


def test_malformed_lines_get_json_rpc_errors(tmp_path: Path) -> None:
    lines = [
        (_rpc(1, "initialize", INIT), 1),
        (json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n", None),
        (
            '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get", "arguments": {"hash": "\\ud800"}}}\n',
            2,
        ),
        ("{not json\n", None),
        (b'{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"x": "\xff"}}\n', 3),
        ('{"jsonrpc": "2.0", "id": 4, "method": 5}\n', 4),
        ("[1, 2]\n", None),
        ("[" * 5000 + "\n", None),  # deeper than any decoder recurses: answered, and serving goes on
        ('{"a": ' * 3000 + "1" + "}" * 3000 + "\n", None),
        (_rpc(5, "tools/call", {"name": "query", "arguments": {"text": "match (?x likes ?y)"}}), 5),
    ]
    server = subprocess.Popen(
        [sys.executable, "-m", "zerolang", "mcp", "--db", str(tmp_path / "m.db")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **_env(tmp_path)},
    )
    assert server.stdin is not None and server.stdout is not None
    replies = []
    for line, _ in lines:
        server.stdin.write(line if isinstance(line, bytes) else str(line).encode())
        server.stdin.flush()
        if "notifications/" not in (line if isinstance(line, str) else ""):
            replies.append(json.loads(server.stdout.readline()))
    server.stdin.close()
    assert server.wait(timeout=120) == 0
    assert b"Traceback" not in (server.stderr.read() if server.stderr else b"")
    ids = [reply.get("id") for reply in replies]
    assert ids == [1, 2, None, 3, 4, None, None, None, 5]
    codes = [reply.get("error", {}).get("code") for reply in replies]
    assert codes == [None, -32700, -32700, None, -32600, -32600, -32700, -32700, None]
    assert all("message" in reply["error"] for reply in replies if "error" in reply)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("", None),
        ("   ", None),
        ("{", (None, -32700)),
        ('"text"', (None, -32600)),
        ('{"jsonrpc": "2.0", "method": "x", "params": 1}', None),  # a notification: never answered
        ('{"jsonrpc": "2.0", "id": 9, "result": "\\udc00"}', None),  # a response: not answered
        ('{"jsonrpc": "2.0", "id": "a", "method": "m", "params": {"k": ["\\udc00"]}}', ("a", -32700)),
        ('{"jsonrpc": "2.0", "id": true, "method": 1}', (None, -32600)),
        ("[" * 5000, (None, -32700)),
        (
            '{"jsonrpc": "2.0", "id": 7, "method": "m", "params": ' + "[" * 200 + "]" * 200 + "}",
            (None, -32700),
        ),
    ],
)
def test_which_lines_are_answered(line: str, expected: tuple[object, int] | None) -> None:
    reply = malformed(line)
    if expected is None:
        assert reply is None
    else:
        message = json.loads(reply or "null")
        assert (message["id"], message["error"]["code"]) == expected and message["jsonrpc"] == "2.0"
