"""`zero mcp --print-config CLIENT [--url URL]`: what each MCP client reads to start `zero mcp` (stdio)
or to reach a `zero mcp --http` endpoint.

| client         | file it goes in                                             | top-level key  |
|----------------|-------------------------------------------------------------|----------------|
| claude-desktop | `claude_desktop_config.json`                                | `mcpServers`   |
| claude-code    | `.mcp.json` in a project (or `claude mcp add-json`)         | `mcpServers`   |
| cursor         | `.cursor/mcp.json` in a project or `~/.cursor/mcp.json`     | `mcpServers`   |
| vscode         | `.vscode/mcp.json` in a workspace                           | `servers`      |
| codex          | `~/.codex/config.toml` (TOML)                               | `mcp_servers`  |

Over stdio the command is an absolute path (`zerolang.agents.command`); where the memory lives
travels in the environment the server reads (`ZERO_MEMORY_DB`, `ZERO_MEMORY_SPACE`,
`ZERO_EXPERIENCE_DB`, `ZERO_ARCHIVE`), relative paths made absolute, and the consent policy as
`--policy`/`--as`.

Over HTTP (`HttpSpec`) each client sends `Authorization: Bearer TOKEN`, the token read from an
environment variable where the client can (`${VAR}` in Claude Code, `${env:VAR}` in Cursor and VS
Code, `bearer_token_env_var` in Codex); VS Code without one asks for it (an `inputs` password).
Claude Desktop's file starts only local programs: it reaches the endpoint through the `mcp-remote`
bridge (npx), whose header carries the token from its `env`, which the user fills in (Claude
Desktop does not read a shell's environment).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from zerolang.agents.command import absolute_store
from zerolang.util.errors import ZeroError

CLIENTS = ("claude-desktop", "claude-code", "cursor", "vscode", "codex")
SERVER_NAME = "zero-memory"
TOKEN_ENV = "ZERO_MEMORY_TOKEN"
"""The environment variable a client reads the bearer token from, unless `--token-env` names another."""
BRIDGE = ("npx", "-y", "mcp-remote")
"""Claude Desktop's way to an HTTP endpoint: the `mcp-remote` bridge (a local program it can start)."""
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


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


def _known(client: str) -> None:
    if client not in CLIENTS:
        raise ZeroError(f"--print-config {client!r}: expected one of {', '.join(CLIENTS)}")


def client_config(client: str, spec: ServerSpec) -> dict[str, object]:
    """The configuration `client` reads, with one server: ours."""
    _known(client)
    server: dict[str, object] = {}
    if client in {"claude-code", "vscode"}:
        server["type"] = "stdio"
    server["command"] = spec.program[0]
    server["args"] = spec.args()
    environment: Mapping[str, str] = spec.env()
    if environment:
        server["env"] = dict(environment)
    return {_key(client): {SERVER_NAME: server}}


def _key(client: str) -> str:
    return {"vscode": "servers", "codex": "mcp_servers"}.get(client, "mcpServers")


def client_config_text(client: str, spec: ServerSpec) -> str:
    return _text(client, client_config(client, spec))


@dataclass(frozen=True, slots=True)
class HttpSpec:
    """An HTTP endpoint of `zero mcp --http` and the variable a client reads its token from (None:
    the default, `TOKEN_ENV`, where the client reads one; VS Code then asks)."""

    url: str
    token_env: str | None = None

    @classmethod
    def checked(cls, url: str, token_env: str | None) -> HttpSpec:
        """The spec, or a ZeroError naming what is wrong with the URL or the variable's name."""
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ZeroError(f"--url {url!r}: an http:// or https:// URL of a zero mcp --http endpoint")
        if token_env is not None and not _VARIABLE.fullmatch(token_env):
            raise ZeroError(f"--token-env {token_env!r}: an environment variable's name (A-Z, 0-9, _)")
        return cls(url.strip(), token_env)

    @property
    def variable(self) -> str:
        return self.token_env or TOKEN_ENV


def http_config(client: str, spec: HttpSpec) -> dict[str, object]:
    """The configuration `client` reads to reach the endpoint, with one server: ours."""
    _known(client)
    server: dict[str, object]
    document: dict[str, object] = {}
    if client == "claude-code":
        bearer = f"Bearer ${{{spec.variable}}}"
        server = {"type": "http", "url": spec.url, "headers": {"Authorization": bearer}}
    elif client == "cursor":
        server = {"url": spec.url, "headers": {"Authorization": f"Bearer ${{env:{spec.variable}}}"}}
    elif client == "vscode":
        if spec.token_env is None:
            prompt = f"{SERVER_NAME}-token"
            bearer = f"Bearer ${{input:{prompt}}}"
            description = "The bearer token of zero mcp token create"
            document["inputs"] = [
                {"type": "promptString", "id": prompt, "description": description, "password": True}
            ]
        else:
            bearer = f"Bearer ${{env:{spec.token_env}}}"
        server = {"type": "http", "url": spec.url, "headers": {"Authorization": bearer}}
    elif client == "codex":
        server = {"url": spec.url, "bearer_token_env_var": spec.variable}
    else:  # claude-desktop: through the bridge, the header from its environment (no spaces in args)
        bridge = [*BRIDGE[1:], spec.url, "--header", "Authorization:${AUTH_HEADER}"]
        if urlsplit(spec.url).scheme == "http" and not _local(spec.url):
            bridge.append("--allow-http")
        environment = {"AUTH_HEADER": f"Bearer <the token in ${spec.variable}>"}
        server = {"command": BRIDGE[0], "args": bridge, "env": environment}
    return {_key(client): {SERVER_NAME: server}, **document}


def _local(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host in ("localhost", "::1") or host.startswith("127.")


def http_config_text(client: str, spec: HttpSpec) -> str:
    return _text(client, http_config(client, spec))


def _text(client: str, document: Mapping[str, object]) -> str:
    """The document as the client's file holds it: JSON, or TOML for Codex."""
    if client == "codex":
        return toml_text(document)
    from zerolang.util.escapes import json_text

    return json_text(document) + "\n"


def toml_text(document: Mapping[str, object]) -> str:
    """`document` (tables of strings, booleans, numbers and lists of strings) as TOML: each table of
    tables a `[dotted.name]` header, strings in JSON's escapes (which TOML's basic strings share)."""
    lines: list[str] = []

    def value(item: object) -> str:
        if isinstance(item, bool):
            return "true" if item else "false"
        if isinstance(item, int | float):
            return str(item)
        if isinstance(item, list | tuple):
            return "[" + ", ".join(value(part) for part in item) + "]"
        return json.dumps(str(item), ensure_ascii=False)

    def key(name: str) -> str:
        return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name, ensure_ascii=False)

    def table(path: list[str], body: Mapping[str, object]) -> None:
        plain = {k: v for k, v in body.items() if not isinstance(v, Mapping)}
        nested = {k: v for k, v in body.items() if isinstance(v, Mapping)}
        if path and (plain or not nested):
            lines.append(("\n" if lines else "") + "[" + ".".join(key(p) for p in path) + "]")
        lines.extend(f"{key(k)} = {value(v)}" for k, v in plain.items())
        for name, inner in nested.items():
            table([*path, name], inner)

    table([], document)
    return "\n".join(lines) + "\n"
