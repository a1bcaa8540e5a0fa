"""`zero mcp --http`: the memory over MCP's Streamable HTTP transport, each bearer token to its one space.

Every request to the endpoint (`/mcp` by default) goes through, in order:

1. **Host and Origin** (the MCP spec's DNS-rebinding defence): the `Host` header must name this
   machine's loopback, the address listened on, or a name allowed with `--allow-host`, else 421;
   an `Origin`, where a browser sent one, must be one of those over http or https, else 403.
2. **The bearer token** (`Authorization: Bearer zmt_...`, made with `zero mcp token create`): none, or
   one that is unknown, expired or revoked, is answered 401 with a `WWW-Authenticate: Bearer` header
   (RFC 6750) and nothing else happens. Tokens are checked against the store at each request, so a
   revocation holds from the next request on.
3. **The token's server**: one SDK server (`build_server`) per space and mode (read-write, read-only),
   made when a token first reaches it, over the memory seen from that space (`Memory.in_space`, on
   the home memory's connection) with its own reader threads. A request only ever reaches the
   server of its token's space, so a token never sees or writes another space: its session ids are
   unknown to every other server (and the SDK binds a session to the token that opened it), and a
   read-only token's server refuses every tool that writes, in one line.

The SDK's session manager (`StreamableHTTPSessionManager`) does the rest: sessions, SSE streams, the
protocol revisions it serves, and the same Host/Origin checks again. The server runs on the event
loop's thread, where the memory was opened (a SQLite connection belongs to its thread).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.abc import TaskGroup, TaskStatus
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.authentication import AuthCredentials
from starlette.datastructures import Headers

from zerolang.mcp.access import ArchiveAccess
from zerolang.mcp.readers import Readers
from zerolang.mcp.server import build_server
from zerolang.memory.api import Memory
from zerolang.util.errors import ZeroError
from zerolang.util.listening import Listening, is_unspecified

REALM = "zero-memory"
DEFAULT_PATH = "/mcp"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
READERS_PER_SPACE = 1  # reader threads (each with its own connection) per space a token reached

Scope = dict[str, Any]
Receive = Any
Send = Any


def security_for(host: str, allowed: Iterable[str] = ()) -> TransportSecuritySettings:
    """The Host and Origin values a request may carry: this machine's loopback names, the address
    listened on (unless every interface), and `allowed` (names a reverse proxy forwards), each with
    or without a port; origins are those names over http and https."""
    names = list(LOOPBACK_NAMES)
    if not is_unspecified(host):
        names.append(f"[{host}]" if ":" in host and not host.startswith("[") else host)
    names.extend(name.strip().lower() for name in allowed if name.strip())
    unique = list(dict.fromkeys(names))
    hosts = [form for name in unique for form in (name, f"{name}:*")]
    origins = [f"{scheme}://{form}" for scheme in ("http", "https") for form in hosts]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


def allowed(value: str, patterns: Iterable[str]) -> bool:
    """Whether a Host or Origin `value` is one of `patterns` (`name`, or `name:*`: any port)."""
    value = value.lower()
    for pattern in patterns:
        if value == pattern or (pattern.endswith(":*") and value.startswith(pattern[:-1])):
            port = value[len(pattern) - 1 :] if pattern.endswith(":*") else ""
            if not pattern.endswith(":*") or port.isdigit():
                return True
    return False


@dataclass(slots=True)
class Spaces:
    """The memory of each space a token reached, its readers, and its two servers (read-write and
    read-only), each made when first asked for; `close` closes what was made (not `home`)."""

    home: Memory
    access: ArchiveAccess | None = None
    readers: bool = True
    _memories: dict[str, Memory] = field(default_factory=dict)
    _readers: dict[str, Readers] = field(default_factory=dict)
    _servers: dict[tuple[str, bool], MCPServer] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # the conversations' tables made once, before requests for many spaces open them at once
        # (two connections creating the same PostgreSQL table together collide in its catalog)
        _ = self.home.experiences
        self.home.store.backend.serving()  # the connection every space's writes share: a server's

    def memory(self, space: str) -> Memory:
        if space not in self._memories:
            self._memories[space] = self.home if space == self.home.space else self.home.in_space(space)
        return self._memories[space]

    def server(self, space: str, read_only: bool) -> MCPServer:
        key = (space, read_only)
        if key not in self._servers:
            memory = self.memory(space)
            if self.readers and space not in self._readers:
                self._readers[space] = Readers(memory, workers=READERS_PER_SPACE)
            self._servers[key] = build_server(
                memory, self.access, self._readers.get(space), read_only=read_only
            )
        return self._servers[key]

    def close(self) -> None:
        for readers in self._readers.values():
            readers.close()
        for memory in self._memories.values():
            if memory is not self.home:
                memory.close()
        self._readers.clear()
        self._memories.clear()
        self._servers.clear()


@dataclass(slots=True)
class HttpApp:
    """The ASGI application `zero mcp --http` serves (see the module)."""

    spaces: Spaces
    security: TransportSecuritySettings
    path: str = DEFAULT_PATH
    json_response: bool = True  # a call's answer as one JSON body, not an event stream (no tool streams)
    _managers: dict[tuple[str, bool], StreamableHTTPSessionManager] = field(default_factory=dict)
    _group: TaskGroup | None = None
    _lock: anyio.Lock = field(default_factory=anyio.Lock)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if scope["path"] not in (self.path, self.path.rstrip("/") + "/"):
            await _plain(send, 404, "Not found: the MCP endpoint is " + self.path)
            return
        headers = Headers(scope=scope)
        host, origin = headers.get("host"), headers.get("origin")
        if host is None or not allowed(host, self.security.allowed_hosts):
            await _plain(send, 421, "Invalid Host header: this server answers only the names it serves")
            return
        if origin is not None and not allowed(origin, self.security.allowed_origins):
            await _plain(send, 403, "Invalid Origin header: requests from this origin are refused")
            return
        secret = _bearer(headers.get("authorization"))
        if secret is None:
            await _unauthorized(send, None)
            return
        try:
            grant = self.spaces.home.token_grant(secret)
        except ZeroError as error:
            await _plain(send, 503, f"the memory could not check the token: {error.message}")
            return
        if grant is None:
            await _unauthorized(send, "the token is unknown, expired or revoked")
            return
        manager = await self._manager(grant.space, grant.read_only)
        granted = ["read"] if grant.read_only else ["read", "write"]
        who = AccessToken(token=grant.token, client_id=f"zero-token:{grant.token}", scopes=granted)
        await manager.handle_request(
            {**scope, "user": AuthenticatedUser(who), "auth": AuthCredentials(granted)}, receive, send
        )

    async def _manager(self, space: str, read_only: bool) -> StreamableHTTPSessionManager:
        """The session manager of the server for `space` and mode, started when first asked for."""
        key = (space, read_only)
        async with self._lock:
            if key not in self._managers:
                if self._group is None:
                    raise RuntimeError("the HTTP app serves only inside its lifespan")
                server = self.spaces.server(space, read_only)
                manager = StreamableHTTPSessionManager(
                    app=server._lowlevel_server,
                    json_response=self.json_response,
                    security_settings=self.security,
                )
                await self._group.start(_run, manager)
                self._managers[key] = manager
        return self._managers[key]

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        started = await receive()
        assert started["type"] == "lifespan.startup"
        async with anyio.create_task_group() as group:
            self._group = group
            await send({"type": "lifespan.startup.complete"})
            while (await receive())["type"] != "lifespan.shutdown":
                pass
            group.cancel_scope.cancel()
        self._group = None
        self._managers.clear()
        await send({"type": "lifespan.shutdown.complete"})


async def _run(manager: StreamableHTTPSessionManager, *, task_status: TaskStatus[None]) -> None:
    async with manager.run():
        task_status.started()
        await anyio.sleep_forever()


def _bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


async def _unauthorized(send: Send, problem: str | None) -> None:
    """401 with the `WWW-Authenticate` challenge of RFC 6750: the realm, and the error where a token
    was given (none where there was no token)."""
    challenge = f'Bearer realm="{REALM}"'
    if problem is not None:
        challenge += f', error="invalid_token", error_description="{problem}"'
    body = {"error": "invalid_token" if problem else "unauthorized"}
    body["error_description"] = problem or "a bearer token is required: zero mcp token create --space SPACE"
    text = json.dumps(body).encode()
    await _respond(send, 401, text, "application/json", [(b"www-authenticate", challenge)])


async def _plain(send: Send, status: int, text: str) -> None:
    await _respond(send, status, (text + "\n").encode(), "text/plain; charset=utf-8", [])


async def _respond(send: Send, status: int, body: bytes, kind: str, extra: list[tuple[bytes, str]]) -> None:
    headers = [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode())]
    headers.extend((name, value.encode("latin-1")) for name, value in extra)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def run_http(app: HttpApp, listening: Listening) -> None:
    """Serve `app` on the bound socket until interrupted (Ctrl-C)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    uvicorn.Server(config).run(sockets=[listening.socket])


@asynccontextmanager
async def serving(app: HttpApp, listening: Listening) -> AsyncIterator[str]:
    """Serve `app` on the bound socket on this event loop while the block runs; the endpoint's URL."""
    import uvicorn

    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    async with anyio.create_task_group() as group:
        group.start_soon(server.serve, [listening.socket])
        with anyio.fail_after(30):
            while not server.started:
                await anyio.sleep(0.01)
        try:
            yield listening.url.rstrip("/") + app.path
        finally:
            server.should_exit = True
