"""`zero mcp --print-config CLIENT --url URL [--token-env VAR]`: each client's configuration for an
HTTP endpoint, checked against the shape its documentation gives (written here as JSON Schema):

- Claude Code, `.mcp.json`: `mcpServers.NAME` = {"type": "http", "url", "headers"}; `${VAR}` in a
  header value is read from the environment;
- Cursor, `mcp.json`: `mcpServers.NAME` = {"url", "headers"} (a server with a url is a remote one);
  `${env:VAR}` in a value;
- VS Code, `.vscode/mcp.json`: `servers.NAME` = {"type": "http", "url", "headers"}, and `inputs`
  ({"type": "promptString", "id", "description", "password"}) that `${input:ID}` asks for;
- Codex CLI, `~/.codex/config.toml`: `[mcp_servers.NAME]` with `url` and `bearer_token_env_var` (the
  variable's name; Codex refuses a token written in the file);
- Claude Desktop, `claude_desktop_config.json`: local programs only (`command`, `args`, `env`), so
  the `mcp-remote` bridge (`npx -y mcp-remote URL --header Authorization:${AUTH_HEADER}`, the header
  value from its env, without spaces in an argument).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from zerolang.agents.clients import CLIENTS, HttpSpec, http_config

URL = "https://memory.example.com/mcp"

STRING = {"type": "string"}
HEADERS = {"type": "object", "additionalProperties": STRING, "required": ["Authorization"]}


def servers(key: str, server: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": [key],
        "properties": {
            key: {
                "type": "object",
                "minProperties": 1,
                "additionalProperties": False,
                "patternProperties": {"^[a-zA-Z][a-zA-Z0-9_-]*$": server},
            },
            **more,
        },
        "additionalProperties": False,
    }


def remote(*, typed: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {"url": {"type": "string", "pattern": "^https?://"}, "headers": HEADERS}
    if typed:
        properties["type"] = {"enum": ["http"]}
    return {
        "type": "object",
        "required": ["type", "url"] if typed else ["url"],
        "properties": properties,
        "additionalProperties": False,
    }


PROMPT = {
    "type": "object",
    "required": ["type", "id", "password"],
    "properties": {
        "type": {"enum": ["promptString"]},
        "id": STRING,
        "description": STRING,
        "password": {"type": "boolean"},
    },
}
LOCAL = {
    "type": "object",
    "required": ["command"],
    "properties": {
        "command": STRING,
        "args": {"type": "array", "items": {"type": "string", "pattern": "^[^ ]*$"}},
        "env": {"type": "object", "additionalProperties": STRING},
    },
    "additionalProperties": False,
}
CODEX = {
    "type": "object",
    "required": ["url"],
    "properties": {
        "url": {"type": "string", "pattern": "^https?://"},
        "bearer_token_env_var": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
    },
    "not": {"required": ["bearer_token"]},
    "additionalProperties": False,
}
SCHEMAS = {
    "claude-code": servers("mcpServers", remote(typed=True)),
    "cursor": servers("mcpServers", remote(typed=False)),
    "vscode": servers("servers", remote(typed=True), inputs={"type": "array", "items": PROMPT}),
    "codex": servers("mcp_servers", CODEX),
    "claude-desktop": servers("mcpServers", LOCAL),
}


def printed(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zerolang", "mcp", "--print-config", *arguments],
        capture_output=True,
        text=True,
        check=False,
    )


def read(client: str, text: str) -> dict[str, Any]:
    return tomllib.loads(text) if client == "codex" else json.loads(text)  # type: ignore[no-any-return]


@pytest.mark.parametrize("client", CLIENTS)
def test_each_client_gets_the_shape_its_docs_give(client: str) -> None:
    result = printed(client, "--url", URL)
    assert result.returncode == 0, result.stderr
    document = read(client, result.stdout)
    jsonschema.validate(document, SCHEMAS[client])
    assert URL in json.dumps(document)


@pytest.mark.parametrize("client", CLIENTS)
def test_the_token_comes_from_the_named_variable(client: str) -> None:
    document = http_config(client, HttpSpec(URL, "TEAM_TOKEN"))
    jsonschema.validate(document, SCHEMAS[client])
    server = next(iter(next(iter(document.values())).values()))  # type: ignore[attr-defined]
    expected = {
        "claude-code": {"Authorization": "Bearer ${TEAM_TOKEN}"},
        "cursor": {"Authorization": "Bearer ${env:TEAM_TOKEN}"},
        "vscode": {"Authorization": "Bearer ${env:TEAM_TOKEN}"},
    }
    if client in expected:
        assert server["headers"] == expected[client]
    elif client == "codex":
        assert server["bearer_token_env_var"] == "TEAM_TOKEN"
    else:
        assert server["args"] == ["-y", "mcp-remote", URL, "--header", "Authorization:${AUTH_HEADER}"]
        assert "TEAM_TOKEN" in server["env"]["AUTH_HEADER"]


def test_vscode_asks_for_the_token_unless_a_variable_is_named() -> None:
    document = http_config("vscode", HttpSpec(URL))
    (prompt,) = document["inputs"]  # type: ignore[misc]
    server = document["servers"]["zero-memory"]  # type: ignore[index]
    assert server["headers"]["Authorization"] == f"Bearer ${{input:{prompt['id']}}}"
    assert prompt["password"] is True
    assert "inputs" not in http_config("vscode", HttpSpec(URL, "T"))


def test_claude_desktop_allows_plain_http_only_where_the_bridge_needs_telling() -> None:
    local = http_config("claude-desktop", HttpSpec("http://127.0.0.1:8765/mcp"))
    remote_http = http_config("claude-desktop", HttpSpec("http://10.0.0.5:8765/mcp"))
    assert "--allow-http" not in local["mcpServers"]["zero-memory"]["args"]  # type: ignore[index]
    assert remote_http["mcpServers"]["zero-memory"]["args"][-1] == "--allow-http"  # type: ignore[index]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["cursor", "--url", "ftp://x/mcp"], "--url 'ftp://x/mcp': an http:// or https:// URL"),
        (["cursor", "--url", URL, "--token-env", "1 bad"], "--token-env '1 bad': an environment variable"),
        (["emacs", "--url", URL], "expected one of claude-desktop, claude-code, cursor, vscode, codex"),
    ],
)
def test_bad_input_is_one_line(arguments: list[str], message: str) -> None:
    result = printed(*arguments)
    assert result.returncode == 1 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_codex_stdio_configuration_is_toml(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "zerolang",
            "mcp",
            "--print-config",
            "codex",
            "--db",
            "m.db",
            "--space",
            "a b",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    server = tomllib.loads(result.stdout)["mcp_servers"]["zero-memory"]
    assert server["args"] == ["mcp"] and Path(server["command"]).is_absolute()
    assert server["env"] == {"ZERO_MEMORY_DB": str(tmp_path / "m.db"), "ZERO_MEMORY_SPACE": "a b"}
