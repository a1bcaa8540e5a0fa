"""MCP tests: a memory with an archive and a policy, a server over it, and the SDK's client."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

import zerolang.memory
from tests.backends import scratch
from zerolang.mcp.server import ArchiveAccess, build_server

POLICY = """\
version = 1

[scopes.personal]
uses = ["summary", "full"]
channels = ["dm:*"]

[scopes.team]
uses = ["summary"]

[channels."dm:alice"]
reads = ["dm:alice", "slack:*"]
clearance = 5
"""


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with scratch() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[zerolang.memory.Memory]:
    """The server's memory on each backend (on PostgreSQL, a space of this test's own)."""
    if request.param == "postgres":
        location: str | Path = request.getfixturevalue("postgres_url")
        space = f"agent-{secrets.token_hex(6)}"
    else:
        location, space = tmp_path / "m.db", "agent"
    with zerolang.memory.open(
        location, space=space, experiences=tmp_path / "experiences.db", archive=tmp_path / "archive"
    ) as opened:
        yield opened


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    path = tmp_path / "policy.toml"
    path.write_text(POLICY, encoding="utf-8")
    return path


Session = Callable[[Callable[[Any], Awaitable[None]]], None]


@pytest.fixture
def session(memory: zerolang.memory.Memory, policy_file: Path) -> Session:
    """Run `body(client)` against a server over `memory` that speaks as dm:alice."""
    from mcp import Client

    server = build_server(memory, ArchiveAccess(str(policy_file), "dm:alice"))

    def run(body: Callable[[Any], Awaitable[None]]) -> None:
        async def main() -> None:
            async with Client(server) as client:
                await body(client)

        anyio.run(main)

    return run
