"""One store for every surface: what the CLI, the Python API and `zero mcp` write, each of the others
reads (memory facts, captured experiences, archived documents and their index), on SQLite and
PostgreSQL, every surface finding the stores from the same settings (here the environment only)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

import zerolang.memory
from tests.backends import scratch
from zerolang.archive.policy import Caller

ROOT = Path(__file__).resolve().parents[2]
POLICY = """\
version = 1

[scopes.personal]
uses = ["summary", "full"]
channels = ["dm:*"]

[channels."dm:alice"]
reads = ["dm:alice"]
clearance = 10
"""


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with scratch() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def env(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The settings every surface gets: the memory store, its space and the archive folder; the
    experiences are left to the default (beside the memory)."""
    memory = (
        request.getfixturevalue("postgres_url") if request.param == "postgres" else str(tmp_path / "a.db")
    )
    settings = {
        "ZERO_MEMORY_DB": memory,
        "ZERO_MEMORY_SPACE": f"agent-{secrets.token_hex(4)}",
        "ZERO_ARCHIVE": str(tmp_path / "archive"),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    monkeypatch.delenv("ZERO_EXPERIENCE_DB", raising=False)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.toml").write_text(POLICY, encoding="utf-8")
    return settings


def zero(*arguments: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "zerolang", *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def transcript(path: Path, token: str) -> Path:
    lines = [
        {"type": "session", "version": 3, "id": f"s-{token}", "timestamp": "2026-02-08T02:00:00.000Z"},
        {
            "type": "message",
            "id": "m1",
            "parentId": None,
            "timestamp": "2026-02-08T02:00:01.000Z",
            "message": {"role": "user", "content": f"Remember the word {token} for me."},
        },
        {
            "type": "message",
            "id": "m2",
            "parentId": "m1",
            "timestamp": "2026-02-08T02:00:05.000Z",
            "message": {
                "role": "assistant",
                "content": [{"type": "text", "text": f"I will remember {token}."}],
            },
        },
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def document(path: Path, token: str) -> Path:
    path.write_text(
        json.dumps(
            {
                "created_at": "2026-11-20T09:30:00Z",
                "source": {"channel": "dm:alice", "session": f"s-{token}"},
                "messages": [{"role": "user", "content": f"Note about {token}."}],
                "consent_scope": "personal",
            }
        ),
        encoding="utf-8",
    )
    return path


def mcp(calls: list[tuple[str, dict[str, Any]]], tmp_path: Path) -> list[Any]:
    """Start `zero mcp` as a client does (settings from the environment) and make these calls."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "zerolang", "mcp", "--policy", str(tmp_path / "policy.toml"), "--as", "dm:alice"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=str(tmp_path),
    )
    results: list[Any] = []

    async def main() -> None:
        async with Client(params) as client:
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                assert not result.is_error, result.content
                results.append(result.structured_content)

    anyio.run(main)
    return results


def test_what_each_surface_writes_every_other_reads(env: dict[str, str], tmp_path: Path) -> None:
    cli, api, server = (f"tok{secrets.token_hex(3)}{name}" for name in ("cli", "api", "mcp"))

    # ---- writes: the CLI, the Python API, the MCP server, each from the environment alone ----
    (tmp_path / "facts.json").write_text(
        json.dumps(
            {
                "tuples": [{"subject": cli, "predicate": "written_by", "object": "cli"}],
                "context": {"event_time": "2026-02-18T00:00:00Z", "source": "cli", "scope": "test"},
            }
        ),
        encoding="utf-8",
    )
    zero("memory", "ingest", str(tmp_path / "facts.json"))
    zero("capture", str(transcript(tmp_path / "t.jsonl", cli)))
    put = zero("archive", "put", str(document(tmp_path / "doc.json", cli)))
    cli_doc = put.split()[1]

    with zerolang.memory.open() as memory:
        memory.remember([(api, "written_by", "api")])
        memory.capture(session=f"s-{api}", user_said=f"Remember the word {api} for me.")
        api_doc = memory.archive_document(
            [{"role": "user", "content": f"Note about {api}."}], channel="dm:alice", consent_scope="personal"
        ).record.hash

    stored, by_mcp = mcp(
        [
            ("store", {"tuples": [{"subject": server, "predicate": "written_by", "object": "mcp"}]}),
            (
                "store",
                {"turn": {"session": f"s-{server}", "user_said": f"Remember the word {server} for me."}},
            ),
        ],
        tmp_path,
    )
    assert stored["new_facts"] == 1 and by_mcp["experiences"] >= 1

    # ---- reads: every surface sees every surface's facts, experiences and documents ----
    for token in (cli, api, server):
        assert token in zero("memory", "get", token)
        assert token in zero("recall", token)
    for token in (cli, api):
        assert token in zero("archive", "search", token, "--as", "dm:alice", "--policy", "policy.toml")

    with zerolang.memory.open() as memory:
        for token in (cli, api, server):
            assert memory.get(token) is not None
            assert any(token in hit.experience.what for hit in memory.recall_turns(token))
        gate = memory.gate(tmp_path / "policy.toml")
        for token, digest in ((cli, cli_doc), (api, api_doc)):
            assert [hit.hash for hit in gate.search(Caller("dm:alice"), token)] == [digest]

    calls: list[tuple[str, dict[str, Any]]] = []
    for token in (cli, api, server):
        calls += [("get", {"hash": token}), ("recall", {"text": token})]
    calls += [("search", {"text": cli}), ("search", {"text": api}), ("get", {"hash": cli_doc})]
    results = mcp(calls, tmp_path)
    for number, token in enumerate((cli, api, server)):
        concept, recalled = results[2 * number], results[2 * number + 1]
        assert concept["kind"] == "concept"
        assert token in recalled["context"]
    assert [hit["hash"] for hit in results[6]["summaries"]] == [cli_doc]
    assert [hit["hash"] for hit in results[7]["summaries"]] == [api_doc]
    assert results[8]["kind"] == "document"
