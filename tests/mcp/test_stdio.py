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
