"""The `forget` tool, adversarially: once a concept is forgotten through MCP, no tool returns it.

Stores facts, a conversation turn and knowledge-graph entities that name a secret, forgets it
with the `forget` tool, then asks every reading tool (get, search, recall, query, read_graph,
search_nodes, open_nodes) in every way we can think of; storing the same things again keeps it
forgotten; a purge erases the captured turn for good. Both backends (the `memory` fixture).
"""

from __future__ import annotations

import json
from typing import Any

import zerolang.memory
from tests.mcp.conftest import Session
from tests.mcp.test_tools import call, fails

SECRET = "Zorblax Quuxly"
WORDS = ("zorblax", "quuxly")

TUPLES = [
    {"subject": SECRET, "predicate": "lives_in", "object": "Lyon"},
    {"subject": SECRET, "predicate": "works_on", "object": "compilers", "confidence": 0.8},
    {"subject": "agent", "predicate": "needs", "object": "memory"},
]
TURN = {
    "session": "chat-9",
    "user_said": "Zorblax Quuxly moved to Lyon and works on compilers.",
    "agent_said": "Noted: Zorblax Quuxly, Lyon, compilers.",
    "user": "Dana",
}
OTHER_TURN = {"session": "chat-9", "user_said": "Which port does PostgreSQL use?", "agent_said": "5432."}
ENTITIES = [{"name": SECRET, "entityType": "person", "observations": ["writes compilers in Lyon"]}]


def leaks(document: Any) -> list[str]:
    text = json.dumps(document).lower()
    return [word for word in WORDS if word in text]


async def everything(client: Any, secret_hash: str) -> list[Any]:
    """What every reading tool returns for every way of asking about the secret (errors as text)."""
    seen: list[Any] = []

    async def ask(name: str, arguments: dict[str, Any]) -> None:
        result = await client.call_tool(name, arguments)
        if not result.is_error:
            seen.append(result.structured_content)
            return
        text = str(result.content[0].text)
        for value in arguments.values():  # an error may repeat the caller's own words
            text = text.replace(repr(value), "<asked>").replace(str(value), "<asked>")
        seen.append(text)

    for key in (SECRET, SECRET.lower(), secret_hash, secret_hash[:10], "lyon", "compilers"):
        await ask("get", {"hash": key})
    for text in (SECRET, "Zorblax", "Lyon compilers", "who moved to Lyon"):
        await ask("recall", {"text": text, "limit": 50})
        await ask("search", {"text": text})
        await ask("search_nodes", {"query": text})
    for text in (
        "match (?x ?p ?y)",
        "match (?x lives_in ?y)",
        'recall "lyon" depth 3 limit 50',
        'recall "compilers" depth 3 limit 50',
        'recall "agent" depth 3 limit 50',
    ):
        await ask("query", {"text": text})
    await ask("read_graph", {})
    await ask("open_nodes", {"names": [SECRET, SECRET.lower(), "Lyon"]})
    return seen


def test_forget_through_mcp_hides_the_concept_from_every_tool(
    session: Session, memory: zerolang.memory.Memory
) -> None:
    async def body(client: Any) -> None:
        await call(client, "store", {"tuples": TUPLES, "source": "chat", "scope": "people", "turn": TURN})
        await call(client, "store", {"turn": OTHER_TURN})
        await call(client, "create_entities", {"entities": ENTITIES})
        secret_hash = (await call(client, "get", {"hash": SECRET}))["hash"]
        before = await everything(client, secret_hash)
        assert set(leaks(before)) == set(WORDS)

        report = await call(client, "forget", {"kind": "concept", "target": SECRET})
        assert report["kind"] == "concept" and report["removed"]["facts"] >= 2
        after = await everything(client, secret_hash)
        assert leaks(after) == [], [item for item in after if leaks(item)]
        # the rest is still there
        assert (await call(client, "get", {"hash": "agent"}))["facts"]
        lines = (await call(client, "recall", {"text": "PostgreSQL port"}))["lines"]
        assert any("PostgreSQL" in line["text"] for line in lines if line["kind"] == "turn")
        await fails(client, "get", {"hash": SECRET})
        await fails(client, "get", {"hash": secret_hash})

        # storing the same facts, turn and entity again keeps the concept forgotten
        await call(client, "store", {"tuples": TUPLES, "source": "chat", "scope": "people", "turn": TURN})
        await client.call_tool("create_entities", {"entities": ENTITIES})
        again = await everything(client, secret_hash)
        assert leaks(again) == [], [item for item in again if leaks(item)]

    session(body)
    assert memory.store.find_concept(SECRET) is None


def test_forget_with_purge_through_mcp_erases_the_captured_turn(
    session: Session, memory: zerolang.memory.Memory
) -> None:
    async def body(client: Any) -> None:
        await call(client, "store", {"tuples": TUPLES, "turn": TURN})
        await call(client, "store", {"turn": OTHER_TURN})
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert listed["forget"].annotations.destructive_hint is True
        report = await call(client, "forget", {"kind": "concept", "target": SECRET, "purge": True})
        assert report["purged"] is True
        assert leaks(await everything(client, "0" * 64)) == []
        assert "no concept" in await fails(client, "forget", {"kind": "concept", "target": SECRET})
        assert "cannot forget" in await fails(client, "forget", {"kind": "planet", "target": "x"})

    session(body)
    texts = [e.what for e in memory.experiences.experiences_of_turns(_turns(memory))]
    assert texts and not any("Zorblax" in text for text in texts)  # erased, not only hidden
    assert memory.experiences.counts()["experiences"] == 2  # the other turn stays


def _turns(memory: zerolang.memory.Memory) -> list[str]:
    return [hit.experience.turn for hit in memory.recall_turns("PostgreSQL port", limit=50)]


def test_a_label_only_a_turn_holds_is_purged_by_label_through_mcp(
    session: Session, memory: zerolang.memory.Memory
) -> None:
    """No fact names it, a captured turn does: the `forget` tool purges it by its label (issue 40)."""

    async def body(client: Any) -> None:
        await call(client, "store", {"turn": TURN})
        await call(client, "store", {"tuples": [TUPLES[2]], "turn": OTHER_TURN})
        await fails(client, "get", {"hash": SECRET})  # no concept of it
        report = await call(client, "forget", {"kind": "concept", "target": SECRET, "purge": True})
        assert report["purged"] is True and report["removed"]["facts"] == 0
        assert leaks(await everything(client, "0" * 64)) == []
        refused = await fails(client, "forget", {"kind": "concept", "target": "Nobody Known"})
        assert "nothing in its" in refused and "mentions it" in refused

    session(body)
    texts = [e.what for e in memory.experiences.experiences_of_turns(_turns(memory))]
    assert texts and not any("Zorblax" in text for text in texts)  # erased, not only hidden


def test_a_purge_through_mcp_takes_only_what_involves_the_label(
    session: Session, memory: zerolang.memory.Memory
) -> None:
    """Issue 40: one `create_entities` call made Zelda, Mo and Acme; purging Zelda took Mo and Acme
    too (they shared the operation's record). Now the record is redacted and they stay; the preview
    said so first and changed nothing."""
    people = [
        {"name": "Zelda Quux", "entityType": "person", "observations": ["spy"]},
        {"name": "Mo", "entityType": "person", "observations": ["likes chess"]},
        {"name": "Acme", "entityType": "company", "observations": []},
    ]
    relations = [
        {"from": "Mo", "to": "Acme", "relationType": "works_at"},
        {"from": "Zelda Quux", "to": "Mo", "relationType": "knows"},
    ]

    async def body(client: Any) -> None:
        await call(client, "create_entities", {"entities": people})
        await call(client, "create_relations", {"relations": relations})
        before = await call(client, "read_graph", {})
        target = {"kind": "concept", "target": "Zelda Quux", "purge": True}
        preview = await call(client, "forget", {**target, "dry_run": True})
        assert preview["dry_run"] is True and preview["labels"] == [
            "spy",
            "zelda quux",
        ]  # her observation too
        assert await call(client, "read_graph", {}) == before
        report = await call(client, "forget", target)
        assert (report["removed"], report["redacted"]) == (preview["removed"], preview["redacted"])
        graph = await call(client, "read_graph", {})
        assert [e["name"] for e in graph["entities"]] == ["Mo", "Acme"]
        assert graph["relations"] == [{"from": "Mo", "to": "Acme", "relationType": "works_at"}]
        assert [e["observations"] for e in graph["entities"]] == [["likes chess"], []]
        assert "zelda" not in json.dumps(graph).lower() and "quux" not in json.dumps(graph).lower()

    session(body)
    from zerolang.knowledge.check import find_problems

    assert find_problems(memory.store.backend) == []
