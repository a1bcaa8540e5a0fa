"""`zero mcp --print-config CLIENT`: the JSON each client expects, with an absolute command and the env."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from zerolang.agents.clients import CLIENTS, ServerSpec, client_config


def zero(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zerolang", "mcp", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("client", CLIENTS)
def test_each_client_gets_its_shape(client: str, tmp_path: Path) -> None:
    result = zero(tmp_path, "--print-config", client, "--db", "memory.db", "--space", "alice")
    assert result.returncode == 0, result.stderr
    document = tomllib.loads(result.stdout) if client == "codex" else json.loads(result.stdout)
    key = {"vscode": "servers", "codex": "mcp_servers"}.get(client, "mcpServers")
    assert list(document) == [key]
    server = document[key]["zero-memory"]
    assert Path(server["command"]).is_absolute()
    assert server["args"][-1] == "mcp"
    assert server["env"] == {"ZERO_MEMORY_DB": str(tmp_path / "memory.db"), "ZERO_MEMORY_SPACE": "alice"}
    assert ("type" in server) == (client in {"claude-code", "vscode"})


def test_the_policy_travels_as_arguments_and_urls_as_given(tmp_path: Path) -> None:
    spec = ServerSpec(["/z/zero"], db="postgresql://me@db/mem", policy="policy.json", channel="work")
    server = client_config("cursor", spec)["mcpServers"]["zero-memory"]  # type: ignore[index]
    assert server["args"] == ["mcp", "--policy", str(Path("policy.json").resolve()), "--as", "work"]
    assert server["env"] == {"ZERO_MEMORY_DB": "postgresql://me@db/mem"}
    bare = client_config("claude-desktop", ServerSpec(["/usr/bin/python3", "-m", "zerolang"]))
    assert bare == {
        "mcpServers": {"zero-memory": {"command": "/usr/bin/python3", "args": ["-m", "zerolang", "mcp"]}}
    }


def test_unknown_client_and_a_lone_policy(tmp_path: Path) -> None:
    unknown = zero(tmp_path, "--print-config", "emacs")
    assert unknown.returncode == 1 and "claude-desktop, claude-code, cursor, vscode, codex" in unknown.stderr
    lone = zero(tmp_path, "--print-config", "cursor", "--policy", "p.json")
    assert lone.returncode == 1 and "--as" in lone.stderr
