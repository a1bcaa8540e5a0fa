"""`zero mcp --print-config CLIENT`: the JSON each MCP client expects to start `zero mcp`.

| client         | file it goes in                                             | top-level key |
|----------------|-------------------------------------------------------------|---------------|
| claude-desktop | `claude_desktop_config.json`                                | `mcpServers`  |
| claude-code    | `.mcp.json` in a project (or `claude mcp add-json`)         | `mcpServers`  |
| cursor         | `.cursor/mcp.json` in a project or `~/.cursor/mcp.json`     | `mcpServers`  |
| vscode         | `.vscode/mcp.json` in a workspace                           | `servers`     |

The command is an absolute path (`zerolang.agents.command`); where the memory lives travels in
the environment the server reads (`ZERO_MEMORY_DB`, `ZERO_MEMORY_SPACE`, `ZERO_EXPERIENCE_DB`,
`ZERO_ARCHIVE`), relative paths made absolute, and the consent policy as `--policy`/`--as`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from zerolang.agents.command import absolute_store
from zerolang.util.errors import ZeroError

CLIENTS = ("claude-desktop", "claude-code", "cursor", "vscode")
SERVER_NAME = "zero-memory"


@dataclass(frozen=True, slots=True)
class ServerSpec:
    """How to start the server: the program's words, and what it serves."""

    program: Sequence[str]
    db: str | None = None
    space: str | None = None
    experiences: str | None = None
    archive: str | None = None
    policy: str | None = None
    channel: str | None = None
    extra_args: Sequence[str] = field(default_factory=tuple)

    def args(self) -> list[str]:
        words = [*self.program[1:], "mcp"]
        if self.policy is not None:
            words += ["--policy", absolute_store(self.policy)]
        if self.channel is not None:
            words += ["--as", self.channel]
        return [*words, *self.extra_args]

    def env(self) -> dict[str, str]:
        pairs = (
            ("ZERO_MEMORY_DB", self.db),
            ("ZERO_MEMORY_SPACE", self.space),
            ("ZERO_EXPERIENCE_DB", self.experiences),
            ("ZERO_ARCHIVE", self.archive),
        )
        return {
            name: value if name == "ZERO_MEMORY_SPACE" else absolute_store(value)
            for name, value in pairs
            if value is not None
        }


def client_config(client: str, spec: ServerSpec) -> dict[str, object]:
    """The configuration `client` reads, with one server: ours."""
    if client not in CLIENTS:
        raise ZeroError(f"--print-config {client!r}: expected one of {', '.join(CLIENTS)}")
    server: dict[str, object] = {}
    if client in {"claude-code", "vscode"}:
        server["type"] = "stdio"
    server["command"] = spec.program[0]
    server["args"] = spec.args()
    environment: Mapping[str, str] = spec.env()
    if environment:
        server["env"] = dict(environment)
    key = "servers" if client == "vscode" else "mcpServers"
    return {key: {SERVER_NAME: server}}


def client_config_text(client: str, spec: ServerSpec) -> str:
    from zerolang.util.escapes import json_text

    return json_text(client_config(client, spec)) + "\n"
