"""`zero mcp --http`: the server in this process on a free port, driven over HTTP by the SDK's own
client (`mcp.client.streamable_http`) and, for what a client never sends, by plain HTTP requests.

Two spaces of one memory, each with its own tokens: whatever a token asks, it sees and changes its
own space alone; a read-only token changes nothing; a request without a live token gets 401 and a
`WWW-Authenticate: Bearer` challenge; a Host or Origin from elsewhere is refused.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("mcp")

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

import zerolang.memory
from zerolang.mcp.http import HttpApp, Spaces, security_for, serving
from zerolang.util.listening import listen

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@dataclass(frozen=True, slots=True)
class Served:
    url: str
    tokens: dict[str, str]  # "a", "b" (read-write), "a-read" (read-only on a)
    memory: zerolang.memory.Memory


Body = Callable[[Served], Awaitable[None]]


@pytest.fixture
def http(memory: zerolang.memory.Memory) -> Iterator[Callable[[Body], None]]:
    """Run `body(served)` against `zero mcp --http` over `memory` (its space is "a"'s home), with a
    second space "b" on the same store."""
    home = memory.space
    other = f"{home}-b"
    tokens = {
        "a": memory.create_token(home)[0],
        "b": memory.create_token(other)[0],
        "a-read": memory.create_token(home, read_only=True)[0],
    }
    spaces = Spaces(memory)

    def run(body: Body) -> None:
        async def main() -> None:
            app = HttpApp(spaces, security_for("127.0.0.1"))
            async with serving(app, listen("127.0.0.1", 0)) as url:
                await body(Served(url, tokens, memory))

        anyio.run(main)

    yield run
    spaces.close()


@asynccontextmanager
async def client(url: str, token: str) -> AsyncIterator[Any]:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as transport,
        Client(streamable_http_client(url, http_client=transport)) as connected,
    ):
        yield connected


async def call(session: Any, tool: str, arguments: dict[str, Any]) -> Any:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    return result.structured_content


async def refused(session: Any, tool: str, arguments: dict[str, Any]) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error
    (content,) = result.content
    assert "\n" not in content.text.strip(), content.text
    return str(content.text)


def everything(graph: dict[str, Any]) -> str:
    return json.dumps(graph, sort_keys=True)


def test_a_token_never_reaches_another_space(http: Callable[[Body], None]) -> None:
    async def body(served: Served) -> None:
        async with client(served.url, served.tokens["a"]) as a:
            await call(a, "store", {"tuples": [{"subject": "alice", "predicate": "likes", "object": "tea"}]})
            await call(
                a,
                "create_entities",
                {"entities": [{"name": "Secret A", "entityType": "plan", "observations": ["launch in May"]}]},
            )
            await call(
                a,
                "store",
                {"turn": {"session": "s-a", "user_said": "the vault code is 4711", "agent_said": "noted"}},
            )
            alice = await call(a, "get", {"ref": "alice"})
        async with client(served.url, served.tokens["b"]) as b:
            await call(b, "store", {"tuples": [{"subject": "bob", "predicate": "likes", "object": "coffee"}]})
            graph = await call(b, "read_graph", {})
            assert "Secret A" not in everything(graph) and "alice" not in everything(graph)
            assert (await call(b, "search_nodes", {"query": "Secret"}))["entities"] == []
            assert (await call(b, "open_nodes", {"names": ["Secret A"]}))["entities"] == []
            for ref in ("alice", alice["hash"], alice["hash"][:12]):
                assert "no concept or fact" in await refused(b, "get", {"ref": ref})
            recalled = await call(b, "recall", {"text": "what is the vault code? what does alice like?"})
            assert "4711" not in recalled["context"] and "tea" not in recalled["context"]
            rows = (await call(b, "query", {"text": "match (?x likes ?y)"}))["rows"]
            assert "alice" not in json.dumps(rows) and "bob" in json.dumps(rows)
            # b's forget of "Secret A" finds nothing to forget, and a still has it afterwards
            await b.call_tool("delete_entities", {"entityNames": ["Secret A"]})
            with pytest.raises(Exception, match="no concept 'alice'"):
                await b.read_resource("memory://concept/alice")
        async with client(served.url, served.tokens["a"]) as a:
            names = [entity["name"] for entity in (await call(a, "read_graph", {}))["entities"]]
            assert "Secret A" in names
            assert "4711" in (await call(a, "recall", {"text": "what is the vault code?"}))["context"]

    http(body)


def test_a_session_is_its_token_s_alone(http: Callable[[Body], None]) -> None:
    async def body(served: Served) -> None:
        async with httpx.AsyncClient() as raw:
            opened = await raw.post(
                served.url,
                json=INITIALIZE,
                headers={**ACCEPT, "Authorization": f"Bearer {served.tokens['a']}"},
            )
            assert opened.status_code == 200
            session = opened.headers["mcp-session-id"]
            listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
            for other in ("b", "a-read"):
                hijack = await raw.post(
                    served.url,
                    json=listing,
                    headers={
                        **ACCEPT,
                        "Authorization": f"Bearer {served.tokens[other]}",
                        "mcp-session-id": session,
                        "mcp-protocol-version": "2025-06-18",
                    },
                )
                assert hijack.status_code == 404, other

    http(body)


def test_a_read_only_token_changes_nothing(http: Callable[[Body], None]) -> None:
    writes = {
        "store": {"tuples": [{"subject": "eve", "predicate": "owns", "object": "keys"}]},
        "create_entities": {"entities": [{"name": "eve", "entityType": "person", "observations": []}]},
        "create_relations": {"relations": [{"from": "alice", "to": "tea", "relationType": "likes"}]},
        "add_observations": {"observations": [{"entityName": "alice", "contents": ["was here"]}]},
        "delete_entities": {"entityNames": ["alice"]},
        "delete_observations": {"deletions": [{"entityName": "alice", "observations": ["x"]}]},
        "delete_relations": {"relations": [{"from": "alice", "to": "tea", "relationType": "likes"}]},
    }

    async def body(served: Served) -> None:
        async with client(served.url, served.tokens["a"]) as a:
            await call(a, "store", {"tuples": [{"subject": "alice", "predicate": "likes", "object": "tea"}]})
            before = await call(a, "read_graph", {})
        async with client(served.url, served.tokens["a-read"]) as reader:
            tools = {tool.name: tool for tool in (await reader.list_tools()).tools}
            writing = {name for name, tool in tools.items() if not tool.annotations.read_only_hint}
            assert set(writes) <= writing
            for name in sorted(writing):
                text = await refused(reader, name, writes.get(name, {"kind": "concept", "target": "alice"}))
                assert text.startswith(f"{name}: refused: this token may only read space "), text
            assert await call(reader, "read_graph", {}) == before
            assert (await call(reader, "get", {"ref": "alice"}))["kind"] == "concept"
            assert "tea" in (await call(reader, "recall", {"text": "what does alice like?"}))["context"]

    http(body)


def test_no_live_token_is_401_with_a_bearer_challenge(http: Callable[[Body], None]) -> None:
    async def body(served: Served) -> None:
        memory = served.memory
        past = datetime.now(UTC) - timedelta(days=2)
        expired, _ = memory.create_token(memory.space, expires="1d", now=past)
        revoked, made = memory.create_token(memory.space)
        memory.revoke_token(made.id)
        cases = {
            "none": None,
            "not bearer": f"Basic {served.tokens['a']}",
            "unknown": "Bearer zmt_" + "x" * 43,
            "expired": f"Bearer {expired}",
            "revoked": f"Bearer {revoked}",
        }
        async with httpx.AsyncClient() as raw:
            for case, header in cases.items():
                headers = dict(ACCEPT) if header is None else {**ACCEPT, "Authorization": header}
                answer = await raw.post(served.url, json=INITIALIZE, headers=headers)
                assert answer.status_code == 401, case
                challenge = answer.headers["www-authenticate"]
                assert challenge.startswith('Bearer realm="zero-memory"'), case
                assert ('error="invalid_token"' in challenge) == (case in ("unknown", "expired", "revoked"))
                assert "mcp-session-id" not in answer.headers
        with pytest.raises(Exception):  # noqa: B017 - the SDK's client gives up, whatever it raises
            async with client(served.url, revoked) as session:
                await session.list_tools()

    http(body)


def test_revoking_a_token_ends_its_session(http: Callable[[Body], None]) -> None:
    async def body(served: Served) -> None:
        memory = served.memory
        token, made = memory.create_token(memory.space)
        async with httpx.AsyncClient() as raw:
            headers = {**ACCEPT, "Authorization": f"Bearer {token}"}
            opened = await raw.post(served.url, json=INITIALIZE, headers=headers)
            assert opened.status_code == 200
            memory.revoke_token(token)
            later = await raw.post(
                served.url,
                json={"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
                headers={**headers, "mcp-session-id": opened.headers["mcp-session-id"]},
            )
            assert later.status_code == 401
        assert memory.tokens()[-1].revoked_at is not None and memory.tokens()[-1].id == made.id

    http(body)


def test_host_and_origin_from_elsewhere_are_refused(http: Callable[[Body], None]) -> None:
    async def body(served: Served) -> None:
        token = {"Authorization": f"Bearer {served.tokens['a']}"}
        port = served.url.split(":")[2].split("/")[0]
        async with httpx.AsyncClient() as raw:
            rebound = await raw.post(
                served.url, json=INITIALIZE, headers={**ACCEPT, **token, "Host": "evil.example"}
            )
            assert rebound.status_code == 421
            foreign = await raw.post(
                served.url, json=INITIALIZE, headers={**ACCEPT, **token, "Origin": "http://evil.example"}
            )
            assert foreign.status_code == 403
            local = await raw.post(
                served.url,
                json=INITIALIZE,
                headers={
                    **ACCEPT,
                    **token,
                    "Origin": f"http://localhost:{port}",
                    "Host": f"localhost:{port}",
                },
            )
            assert local.status_code == 200
            elsewhere = await raw.post(served.url.replace("/mcp", "/other"), json=INITIALIZE, headers=ACCEPT)
            assert elsewhere.status_code == 404

    http(body)


def test_the_prompts_over_http(http: Callable[[Body], None]) -> None:
    async def body(served: Served) -> None:
        async with client(served.url, served.tokens["a-read"]) as session:
            names = [prompt.name for prompt in (await session.list_prompts()).prompts]
            assert names == ["recall_about", "remember_this", "changed_since"]
            recall = await session.get_prompt("recall_about", {"topic": "alice"})
            assert '`recall` with text "alice"' in recall.messages[0].content.text
            changed = await session.get_prompt("changed_since", {"since": "7d"})
            assert "match (?s ?p ?o) since 7d limit 100" in changed.messages[0].content.text
            with pytest.raises(Exception, match="a duration"):
                await session.get_prompt("changed_since", {"since": "last tuesday"})

    http(body)


def test_allowed_hosts_and_origins() -> None:
    from zerolang.mcp.http import allowed

    security = security_for("0.0.0.0", ["memory.example.com"])
    assert allowed("memory.example.com", security.allowed_hosts)
    assert allowed("127.0.0.1:8765", security.allowed_hosts)
    assert allowed("https://memory.example.com", security.allowed_origins)
    assert not allowed("0.0.0.0:8765", security.allowed_hosts)
    assert not allowed("memory.example.com.evil.net", security.allowed_hosts)
    assert not allowed("127.0.0.1:80x", security.allowed_hosts)
    assert not allowed("http://localhost.evil.net:80", security.allowed_origins)
    assert allowed("[::1]:9", security_for("::1").allowed_hosts)


SPACES = ("red", "green", "blue")
PROBES = ("read_graph", "search_nodes", "open_nodes", "recall", "query", "get")
WRITES = ("create_entities", "store_fact", "store_turn")


def mark(space: str) -> str:
    """What names a space's things (probes from other spaces ask for it)."""
    return f"zq{space}zq"


def payload(space: str) -> str:
    """What a space's things hold, and no request of another space ever names: seen elsewhere, a leak."""
    return f"pl{space}pl"


def arguments_of(operation: str, space: str, target: str, n: int) -> tuple[str, dict[str, Any]]:
    """The call `operation` made by a token of `space`: writes name `space`'s marker and hold its
    payload, probes ask for `target`'s things (another space's, or its own)."""
    own, other, held = mark(space), mark(target), payload(space)
    calls: dict[str, tuple[str, dict[str, Any]]] = {
        "create_entities": (
            "create_entities",
            {"entities": [{"name": f"{own}-e{n}", "entityType": "thing", "observations": [f"{held} seen"]}]},
        ),
        "store_fact": (
            "store",
            {"tuples": [{"subject": f"{own}-e{n}", "predicate": "holds", "object": held}]},
        ),
        "store_turn": ("store", {"turn": {"session": f"{own}-t", "user_said": f"{own}-e{n} holds {held}"}}),
        "read_graph": ("read_graph", {}),
        "search_nodes": ("search_nodes", {"query": other}),
        "open_nodes": ("open_nodes", {"names": [f"{other}-e{n}"]}),
        "recall": ("recall", {"text": f"what does {other}-e{n} hold?"}),
        "query": ("query", {"text": "match (?x holds ?y)"}),
        "get": ("get", {"ref": f"{other}-e{n}"}),
    }
    return calls[operation]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(SPACES),
            st.sampled_from(SPACES),
            st.sampled_from(WRITES + PROBES),
            st.integers(0, 2),
        ),
        min_size=4,
        max_size=10,
    )
)
def test_no_sequence_of_calls_reaches_another_space(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str, str, int]]
) -> None:
    folder = tmp_path_factory.mktemp("spaces")
    with zerolang.memory.open(folder / "m.db", space="red", experiences=folder / "e.db") as memory:
        tokens = {space: memory.create_token(space)[0] for space in SPACES}
        spaces = Spaces(memory)

        async def main() -> None:
            app = HttpApp(spaces, security_for("127.0.0.1"))
            async with serving(app, listen("127.0.0.1", 0)) as url, AsyncExitStackOf() as stack:
                sessions = {space: await stack.enter(client(url, tokens[space])) for space in SPACES}
                for space, target, operation, n in steps:
                    tool, arguments = arguments_of(operation, space, target, n)
                    result = await sessions[space].call_tool(tool, arguments)
                    said = json.dumps(result.structured_content) + " ".join(
                        getattr(part, "text", "") for part in result.content
                    )
                    for other in SPACES:
                        if other != space:
                            assert payload(other) not in said, (space, operation, other, said[:300])

        try:
            anyio.run(main)
        finally:
            spaces.close()


class AsyncExitStackOf:
    """An async exit stack whose `enter` returns what the context manager gives."""

    async def __aenter__(self) -> AsyncExitStackOf:
        from contextlib import AsyncExitStack

        self._stack = AsyncExitStack()
        await self._stack.__aenter__()
        return self

    async def enter(self, manager: Any) -> Any:
        return await self._stack.enter_async_context(manager)

    async def __aexit__(self, *exc: object) -> None:
        await self._stack.__aexit__(None, None, None)
