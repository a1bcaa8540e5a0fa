"""The knowledge-graph calls `Direct` answers from their line get the answers the SDK gives.

Each sequence of lines is served twice over the stdio framing (`stdio._frame`), each time by a
server over a fresh memory: once with the server's `direct` table, once without (every line to
the SDK). The client waits for each answer before it sends the next line, as the SDK's does, so
`Direct` learns the envelope from the first call and answers the rest. Both runs must answer every
line alike (the same JSON), and the direct run must have answered some itself.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zerolang.memory
from zerolang.mcp.direct import Direct, fits, shaped
from zerolang.mcp.schema import Entity, Relation
from zerolang.mcp.server import build_server
from zerolang.mcp.stdio import _frame

VERSION = "io.modelcontextprotocol/protocolVersion"
ENVELOPE = {
    VERSION: "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "mcp", "version": "0.1.0"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


class Wire:
    """The client's side of the pipes: sends each line once the previous request was answered."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.out: list[str] = []
        self._answered = anyio.Event()

    async def __aiter__(self) -> Any:
        for line in self.lines:
            self._answered = anyio.Event()
            yield line
            if _expects_answer(line):
                with anyio.fail_after(60):
                    await self._answered.wait()

    async def write(self, text: str) -> None:
        self.out.append(text)
        self._answered.set()

    async def flush(self) -> None:
        return None


def _expects_answer(line: str) -> bool:
    try:
        message = json.loads(line)
    except ValueError:
        return line.strip() != ""
    if not isinstance(message, dict):
        return True
    if isinstance(message.get("id"), bool):
        return False  # the SDK reads it as a notification: no answer
    return "id" in message and not ("method" not in message and message.get("id") is not None)


class Counting(Direct):
    """`Direct`, counting the lines it answers."""

    answered = 0

    def answer(self, line: str) -> str | None:
        reply = super().answer(line)
        self.answered += reply is not None
        return reply


def serve(lines: list[str], *, direct: bool) -> tuple[list[Any], int]:
    """The answers (parsed) to `lines`, and how many `Direct` gave, from a fresh memory."""
    with tempfile.TemporaryDirectory() as folder:
        place = Path(folder)
        with zerolang.memory.open(place / "m.db", experiences=place / "e.db") as memory:
            server = build_server(memory)
            table: Direct | None = getattr(server, "direct", None)
            assert table is not None
            counting = Counting(table.tools, table.text, table.refusal)
            wire = Wire(lines)
            lowlevel = server._lowlevel_server
            anyio.run(_frame, lowlevel, wire, wire, counting if direct else None)
    return [json.loads(text) for text in wire.out], counting.answered


def request(ident: Any, method: str, params: dict[str, Any]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})


def call(ident: Any, name: str, arguments: Any, meta: Any = ENVELOPE, **more: Any) -> str:
    return request(ident, "tools/call", {"name": name, "arguments": arguments, "_meta": meta, **more})


def session(calls: list[str]) -> list[str]:
    return [request(0, "server/discover", {"_meta": ENVELOPE}), *calls]


def same_answers(lines: list[str]) -> int:
    via_sdk, none = serve(lines, direct=False)
    via_direct, answered = serve(lines, direct=True)
    assert none == 0
    assert via_direct == via_sdk
    return answered


def entity(name: str, *observations: str) -> dict[str, Any]:
    return {"name": name, "entityType": "thing", "observations": list(observations)}


def test_each_tool_and_each_refusal_answers_as_the_sdk_does() -> None:
    relation = {"from": "a", "to": "b", "relationType": "knows"}
    lines = session(
        [
            call(1, "create_entities", {"entities": [entity("a", "x")]}),
            call(2, "create_entities", {"entities": [entity("b", "y", "z"), entity("a", "again")]}),
            call(3, "create_relations", {"relations": [relation]}),
            call(4, "create_relations", {"relations": [{**relation, "to": "nobody"}]}),
            call(5, "add_observations", {"observations": [{"entityName": "a", "contents": ["w", "x"]}]}),
            call(6, "add_observations", {"observations": [{"entityName": "ghost", "contents": ["w"]}]}),
            call("seven", "search_nodes", {"query": "Y"}),
            call(8, "search_nodes", {"query": "q" * 2049}),
            call(9, "open_nodes", {"names": ["a", "ghost"]}),
            call(10, "read_graph", {}),
            call(11, "delete_observations", {"deletions": [{"entityName": "b", "observations": ["y", "v"]}]}),
            call(12, "delete_relations", {"relations": [relation, relation]}),
            call(13, "delete_entities", {"entityNames": ["a", "ghost"]}),
            call(14, "read_graph", {}),
        ]
    )
    assert same_answers(lines) == 13  # all but the first call, which teaches the envelope


def test_what_direct_leaves_to_the_sdk_is_answered_by_it() -> None:
    lines = session(
        [
            call(1, "create_entities", {"entities": [entity("a")]}),
            call(2, "create_entities", {"entities": [{"name": 3, "entityType": "t", "observations": []}]}),
            call(3, "create_entities", {"entities": json.dumps([entity("json in a string")])}),
            call(4, "create_entities", {"entities": [{**entity("extra"), "more": 1}]}),
            call(5, "open_nodes", {}),
            call(6, "open_nodes", {"names": ["a"], "unexpected": True}),
            call(7, "read_graph", {}, meta={**ENVELOPE, VERSION: "1999-01-01"}),
            call(8, "read_graph", {}, meta={**ENVELOPE, "progressToken": 1}),
            call(True, "read_graph", {}),
            call(9, "search_nodes", {"query": "\ud83d\ude00"}),
            call(10, "store", {"tuples": [{"subject": "a", "predicate": "is", "object": "b"}]}),
            call(11, "no_such_tool", {}),
            request(12, "tools/list", {"_meta": ENVELOPE}),
            "not json",
            call(13, "read_graph", {}),
        ]
    )
    assert same_answers(lines) == 1  # only the last call is plain and known


def test_a_connection_opened_with_the_handshake_is_left_to_the_sdk() -> None:
    initialize = request(
        0,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}},
    )
    lines = [
        initialize,
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        call(1, "read_graph", {}, meta={}),
        call(2, "read_graph", {}),  # an envelope on a legacy connection: refused, so never learned
        call(3, "read_graph", {}),
    ]
    assert same_answers(lines) == 0


NAMES = st.sampled_from(["a", "b", "c", "Ω", ""])
TEXT = st.one_of(NAMES, st.text(max_size=4))
JUNK = st.one_of(st.integers(), st.none(), st.booleans(), st.lists(st.integers(), max_size=2))
ENTITY = st.fixed_dictionaries(
    {
        "name": NAMES,
        "entityType": st.sampled_from(["thing", "person"]),
        "observations": st.lists(TEXT, max_size=3),
    }
)
RELATION = st.fixed_dictionaries(
    {"from": NAMES, "to": NAMES, "relationType": st.sampled_from(["knows", "likes"])}
)
ARGUMENTS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "create_entities": st.fixed_dictionaries({"entities": st.lists(ENTITY, max_size=3)}),
    "create_relations": st.fixed_dictionaries({"relations": st.lists(RELATION, max_size=2)}),
    "add_observations": st.fixed_dictionaries(
        {
            "observations": st.lists(
                st.fixed_dictionaries({"entityName": NAMES, "contents": st.lists(TEXT, max_size=2)}),
                max_size=2,
            )
        }
    ),
    "delete_entities": st.fixed_dictionaries({"entityNames": st.lists(NAMES, max_size=2)}),
    "delete_observations": st.fixed_dictionaries(
        {
            "deletions": st.lists(
                st.fixed_dictionaries({"entityName": NAMES, "observations": st.lists(TEXT, max_size=2)}),
                max_size=2,
            )
        }
    ),
    "delete_relations": st.fixed_dictionaries({"relations": st.lists(RELATION, max_size=2)}),
    "read_graph": st.just({}),
    "search_nodes": st.fixed_dictionaries({"query": TEXT}),
    "open_nodes": st.fixed_dictionaries({"names": st.lists(NAMES, max_size=3)}),
}


def _spoiled(arguments: dict[str, Any], junk: Any, where: int) -> dict[str, Any]:
    """`arguments` with one value replaced by junk (or one more key), as a careless client sends."""
    if not arguments or where == 0:
        return {**arguments, "extra": junk}
    key = sorted(arguments)[where % len(arguments)]
    value = arguments[key]
    if isinstance(value, list) and value and isinstance(value[0], dict):
        first = dict(value[0])
        first[sorted(first)[where % len(first)]] = junk
        return {**arguments, key: [first, *value[1:]]}
    return {**arguments, key: junk}


@st.composite
def calls(draw: st.DrawFn) -> list[str]:
    lines = [call(1, "create_entities", {"entities": [entity("a", "x")]})]
    for ident in range(2, draw(st.integers(3, 12))):
        name = draw(st.sampled_from(sorted(ARGUMENTS)))
        arguments = draw(ARGUMENTS[name])
        if draw(st.integers(0, 5)) == 0:
            arguments = _spoiled(arguments, draw(JUNK), draw(st.integers(0, 3)))
        lines.append(call(ident, name, arguments))
    return lines


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_any_sequence_of_calls_is_answered_as_the_sdk_does(lines: list[str]) -> None:
    same_answers(session(lines))


def test_fits_takes_only_what_pydantic_keeps_as_it_is() -> None:
    assert fits([{"name": "a", "entityType": "t", "observations": ["o"]}], list[Entity])
    assert not fits([{"name": "a", "entityType": "t"}], list[Entity])  # a key missing
    assert not fits([{"name": "a", "entityType": "t", "observations": [], "x": 1}], list[Entity])
    assert not fits([{"name": "a", "entityType": "t", "observations": "o"}], list[Entity])
    assert not fits('[{"name": "a"}]', list[Entity])  # the SDK would parse the string: left to it
    turned = {"observations": [], "entityType": "t", "name": "a"}
    assert list(shaped(turned, Entity)) == ["name", "entityType", "observations"]  # as pydantic orders it
    assert fits({"from": "a", "to": "b", "relationType": "r"}, Relation)
    assert not fits({"from": "a", "to": 1, "relationType": "r"}, Relation)
    assert fits(True, bool) and not fits(1, bool) and not fits(1.5, int)
