"""Every tool of `zero mcp`, through the official SDK's in-process client, with real assertions."""

from __future__ import annotations

from typing import Any

import zerolang.memory
from tests.mcp.conftest import Session

OURS = {"get", "search", "store", "recall", "query"}
GRAPH = {
    "create_entities",
    "create_relations",
    "add_observations",
    "delete_entities",
    "delete_observations",
    "delete_relations",
    "read_graph",
    "search_nodes",
    "open_nodes",
}


async def call(client: Any, name: str, arguments: dict[str, Any] | None = None) -> Any:
    result = await client.call_tool(name, arguments or {})
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def fails(client: Any, name: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(name, arguments)
    assert result.is_error
    assert result.structured_content is None
    return str(result.content[0].text)


def test_the_tools_are_listed_with_typed_outputs(session: Session) -> None:
    async def body(client: Any) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) >= OURS | GRAPH
        for tool in listed.values():
            assert tool.output_schema is not None and tool.output_schema["type"] == "object", tool.name
            assert tool.description
        relation = listed["create_relations"].input_schema["$defs"]["Relation"]
        assert relation["required"] == ["from", "to", "relationType"]
        assert listed["delete_entities"].input_schema["required"] == ["entityNames"]
        assert listed["read_graph"].output_schema["required"] == ["entities", "relations"]
        assert listed["delete_entities"].annotations.destructive_hint is True
        assert listed["read_graph"].annotations.read_only_hint is True

    session(body)


def test_store_tuples_then_get_and_query(session: Session, memory: zerolang.memory.Memory) -> None:
    async def body(client: Any) -> None:
        stored = await call(
            client,
            "store",
            {
                "tuples": [
                    {"subject": "agent", "predicate": "needs", "object": "long-term memory"},
                    {"subject": "agent", "predicate": "uses", "object": "SQLite", "confidence": 0.8},
                ],
                "source": "chat",
                "scope": "project",
            },
        )
        assert stored == {
            "new_concepts": 3,
            "new_facts": 2,
            "new_episodes": 2,
            "duplicates": 0,
            "turns": 0,
            "experiences": 0,
        }
        concept = await call(client, "get", {"hash": "agent"})
        assert concept["kind"] == "concept" and concept["concept"]["label"] == "agent"
        assert sorted((f["predicate"], f["object"]) for f in concept["facts"]) == [
            ("needs", "long-term memory"),
            ("uses", "sqlite"),
        ]
        by_prefix = await call(client, "get", {"hash": concept["hash"][:10]})
        assert by_prefix["concept"]["label"] == "agent"
        fact_hash = concept["facts"][0]["fact_hash"]
        fact = await call(client, "get", {"hash": fact_hash})
        assert fact["kind"] == "fact" and fact["fact"]["subject"] == "agent"

        rows = await call(client, "query", {"text": "match (?x uses ?y)"})
        assert rows["kind"] == "match"
        assert [row["bindings"] for row in rows["rows"]] == [{"x": "agent", "y": "sqlite"}]
        recalled = await call(client, "query", {"text": 'recall "agent" depth 1'})
        assert {row["concept"] for row in recalled["rows"]} == {"long-term memory", "sqlite"}

        assert "expected" in await fails(client, "query", {"text": "match ("})
        assert "confidence" in await fails(
            client, "store", {"tuples": [{"subject": "a", "predicate": "b", "object": "c", "confidence": 2}]}
        )
        assert "nothing to store" in await fails(client, "store", {})
        assert "no concept or fact" not in await fails(client, "get", {"hash": "no-such-thing"})

    session(body)
    view = memory.get("agent")  # the tools wrote the memory the server was given, in its space
    assert view is not None and len(view.facts) == 2
    assert memory.store.in_space("elsewhere").get_concept_by_label("agent") is None


def test_store_a_turn_then_recall(session: Session) -> None:
    async def body(client: Any) -> None:
        stored = await call(
            client,
            "store",
            {
                "turn": {
                    "session": "chat-7",
                    "user_said": "Which port does PostgreSQL listen on here?",
                    "agent_said": "It listens on 5432 on localhost.",
                    "user": "David",
                }
            },
        )
        assert stored["turns"] == 1 and stored["experiences"] == 2 and stored["new_facts"] == 0
        found = await call(client, "recall", {"text": "PostgreSQL port", "limit": 5, "explain": True})
        turns = [line for line in found["lines"] if line["kind"] == "turn"]
        # the answer to the matching question ranks first, the question next: who, when, what
        assert [line["text"] for line in turns[:2]] == [
            "assistant: It listens on 5432 on localhost.",
            "David: Which port does PostgreSQL listen on here?",
        ]
        assert turns[0]["why"].startswith("answers") or "answers" in turns[0]["why"]
        assert found["context"].startswith("conversations:\n") and "ids" not in turns[0]
        assert "empty" in await fails(client, "recall", {"text": "   "})

    session(body)


def test_search_releases_summaries_and_get_enforces_the_policy(
    session: Session, memory: zerolang.memory.Memory
) -> None:
    mine = memory.archive_document(
        [{"role": "user", "content": "my bank PIN is 4321"}],
        channel="dm:alice",
        consent_scope="personal",
        summary="Alice talked about her bank card.",
        privacy=3,
    )
    secret = memory.archive_document(
        [{"role": "user", "content": "the launch date is March 3"}],
        channel="dm:alice",
        consent_scope="personal",
        summary="Launch date discussed in private.",
        privacy=9,
    )
    team = memory.archive_document(
        [{"role": "user", "content": "standup notes: ship it"}],
        channel="slack:team",
        consent_scope="team",
        summary="Team standup notes.",
    )
    other = memory.archive_document(
        [{"role": "user", "content": "bob's card number"}],
        channel="dm:bob",
        consent_scope="personal",
        summary="Bob talked about his bank card.",
    )

    async def body(client: Any) -> None:
        found = (await call(client, "search", {"text": "bank card"}))["summaries"]
        assert [s["hash"] for s in found] == [mine.record.hash]
        assert "4321" not in str(found)
        everything = (await call(client, "search", {}))["summaries"]
        assert {s["hash"] for s in everything} == {mine.record.hash, team.record.hash}
        only_slack = (await call(client, "search", {"channels": ["slack:team"]}))["summaries"]
        assert [s["hash"] for s in only_slack] == [team.record.hash]

        document = await call(client, "get", {"hash": mine.record.hash})
        assert document["kind"] == "document"
        assert document["document"]["messages"][0]["content"] == "my bank PIN is 4321"
        # a document the policy does not release is told as a hash never archived: alike, no scope named
        absent = (await fails(client, "get", {"hash": "0" * 64})).replace("0" * 64, "HASH")
        assert "hash.unknown" in absent
        for refused in (team, secret, other):
            told = await fails(client, "get", {"hash": refused.record.hash})
            assert told.replace(refused.record.hash, "HASH") == absent
            assert "personal" not in told and "team" not in told
        assert "hash.format" in await fails(client, "get", {"hash": "../../etc/passwd"})

    session(body)


def test_without_a_policy_the_archive_tools_refuse(memory: zerolang.memory.Memory) -> None:
    import anyio
    from mcp import Client

    from zerolang.mcp.server import build_server

    async def main() -> None:
        async with Client(build_server(memory)) as client:
            assert "--policy and --as" in await fails(client, "search", {"text": "x"})
            assert "no concept or fact" in await fails(client, "get", {"hash": "a" * 64})

    anyio.run(main)


def test_the_reference_knowledge_graph_tools(session: Session, memory: zerolang.memory.Memory) -> None:
    async def body(client: Any) -> None:
        created = await call(
            client,
            "create_entities",
            {
                "entities": [
                    {"name": "John_Smith", "entityType": "person", "observations": ["Speaks fluent Spanish"]},
                    {"name": "Anthropic", "entityType": "organization", "observations": []},
                    {"name": "John_Smith", "entityType": "robot", "observations": []},
                ]
            },
        )
        assert [e["name"] for e in created["entities"]] == ["John_Smith", "Anthropic"]
        again = await call(
            client,
            "create_entities",
            {"entities": [{"name": "Anthropic", "entityType": "x", "observations": []}]},
        )
        assert again == {"entities": []}

        relations = await call(
            client,
            "create_relations",
            {"relations": [{"from": "John_Smith", "to": "Anthropic", "relationType": "works_at"}] * 2},
        )
        assert relations == {
            "relations": [{"from": "John_Smith", "to": "Anthropic", "relationType": "works_at"}]
        }
        assert "Entity with name Nobody not found" in await fails(
            client,
            "create_relations",
            {"relations": [{"from": "Nobody", "to": "Anthropic", "relationType": "x"}]},
        )

        added = await call(
            client,
            "add_observations",
            {
                "observations": [
                    {"entityName": "John_Smith", "contents": ["Speaks fluent Spanish", "Graduated in 2019"]},
                    {"entityName": "Anthropic", "contents": ["Based in SF"]},
                ]
            },
        )
        assert added == {
            "results": [
                {"entityName": "John_Smith", "addedObservations": ["Graduated in 2019"]},
                {"entityName": "Anthropic", "addedObservations": ["Based in SF"]},
            ]
        }
        assert "Entity with name Ghost not found" in await fails(
            client, "add_observations", {"observations": [{"entityName": "Ghost", "contents": ["boo"]}]}
        )

        graph = await call(client, "read_graph")
        assert graph == {
            "entities": [
                {
                    "name": "John_Smith",
                    "entityType": "person",
                    "observations": ["Speaks fluent Spanish", "Graduated in 2019"],
                },
                {"name": "Anthropic", "entityType": "organization", "observations": ["Based in SF"]},
            ],
            "relations": [{"from": "John_Smith", "to": "Anthropic", "relationType": "works_at"}],
        }
        found = await call(client, "search_nodes", {"query": "spanish"})
        assert [e["name"] for e in found["entities"]] == ["John_Smith"]
        assert found["relations"] == graph["relations"]  # one end among the hits is enough
        # a query no entity holds whole is read as words (their forms too: "graduate", "graduated")
        asked = await call(client, "search_nodes", {"query": "Who did graduate, and where?"})
        assert [e["name"] for e in asked["entities"]] == ["John_Smith"]
        asked = await call(client, "search_nodes", {"query": "where is anthropic based?"})
        assert [e["name"] for e in asked["entities"]] == ["Anthropic"]
        assert await call(client, "search_nodes", {"query": "nothing like it"}) == {
            "entities": [],
            "relations": [],
        }
        opened = await call(client, "open_nodes", {"names": ["Anthropic", "Missing"]})
        assert [e["name"] for e in opened["entities"]] == ["Anthropic"]
        assert len(opened["relations"]) == 1

        # the graph's content is ordinary memory: the DSL reaches it
        rows = await call(client, "query", {"text": "match (?who works_at ?where)"})
        assert [row["bindings"] for row in rows["rows"]] == [{"who": "john-smith", "where": "anthropic"}]

        deleted = await call(
            client,
            "delete_observations",
            {
                "deletions": [
                    {"entityName": "John_Smith", "observations": ["Graduated in 2019", "never said"]}
                ]
            },
        )
        assert deleted == {"success": True, "message": "Deleted 1 of 2 observations."}
        relation = {"from": "John_Smith", "to": "Anthropic", "relationType": "works_at"}
        assert await call(client, "delete_relations", {"relations": [relation]}) == {
            "success": True,
            "message": "Relations deleted successfully",
        }
        assert (await call(client, "read_graph"))["relations"] == []
        await call(client, "create_relations", {"relations": [relation]})  # back after its retraction
        assert (await call(client, "read_graph"))["relations"] == [relation]

        gone = await call(client, "delete_entities", {"entityNames": ["Anthropic", "Nobody"]})
        assert gone == {"success": True, "message": "Deleted 1 of 2 entities. Not found: Nobody"}
        final = await call(client, "read_graph")
        assert final == {
            "entities": [
                {"name": "John_Smith", "entityType": "person", "observations": ["Speaks fluent Spanish"]}
            ],
            "relations": [],  # a deleted entity takes its relations with it
        }
        recreated = await call(
            client,
            "create_entities",
            {"entities": [{"name": "Anthropic", "entityType": "lab", "observations": []}]},
        )
        assert recreated["entities"][0]["entityType"] == "lab"

    session(body)
    # Deletions retire what they delete, as `zero memory retract` does: kept for history, not current.
    john = memory.get("John_Smith")
    assert john is not None
    observed = {(f.object, f.retired) for f in john.facts if f.fact.predicate == "has_observation"}
    assert observed == {("speaks fluent spanish", False), ("graduated in 2019", True)}
    assert not [f for f in john.facts if f.fact.predicate.startswith("retracted")]
    anthropic = memory.get("anthropic")
    assert anthropic is not None
    kinds = {(f.fact.predicate, f.object, f.retired) for f in anthropic.facts if f.subject == "anthropic"}
    assert ("entity_type", "organization", True) in kinds  # the deleted entity's type: retired
    assert ("has_observation", "based in sf", True) in kinds
    assert ("entity_type", "lab", False) in kinds  # the entity created again is current
    rows = memory.query("match (john-smith ?p ?o)").rows
    assert "graduated in 2019" not in {row["bindings"]["o"] for row in rows}


def test_the_graph_survives_a_restart(tmp_path: Any) -> None:
    """A second server over the same database sees the same graph (the log is in the store)."""
    import anyio
    from mcp import Client

    from zerolang.mcp.server import build_server

    db = tmp_path / "kg.db"

    async def write() -> None:
        with zerolang.memory.open(db) as memory:
            async with Client(build_server(memory)) as client:
                await call(
                    client,
                    "create_entities",
                    {"entities": [{"name": "A", "entityType": "t", "observations": ["o"]}]},
                )
                await call(
                    client, "delete_observations", {"deletions": [{"entityName": "A", "observations": ["o"]}]}
                )

    async def read() -> None:
        with zerolang.memory.open(db, space="other") as memory:
            async with Client(build_server(memory)) as client:
                assert await call(client, "read_graph") == {"entities": [], "relations": []}
        with zerolang.memory.open(db) as memory:
            async with Client(build_server(memory)) as client:
                assert await call(client, "read_graph") == {
                    "entities": [{"name": "A", "entityType": "t", "observations": []}],
                    "relations": [],
                }

    anyio.run(write)
    anyio.run(read)


def test_forget_is_served_only_where_the_build_has_it(
    memory: zerolang.memory.Memory, tmp_path: Any, monkeypatch: Any
) -> None:
    """Without `zerolang.knowledge.forget` there is no `forget` tool; with a module of that shape, it delegates."""
    import sys

    import anyio
    from mcp import Client

    from zerolang.mcp import server as mcp_server
    from zerolang.memory import api as handle

    (tmp_path / "forget_stand_in.py").write_text(
        "from dataclasses import dataclass\n"
        "@dataclass\n"
        "class Selector:\n    kind: str\n    target: str\n"
        "class Report:\n"
        "    def __init__(self, selector, purge): self.selector, self.purge = selector, purge\n"
        "    def to_json(self): return {'kind': self.selector.kind, 'target': self.selector.target}\n"
        "def forget(store, selector, *, at, purge=False, **options):\n    return Report(selector, purge)\n",
        encoding="utf-8",
    )

    async def tools() -> set[str]:
        async with Client(mcp_server.build_server(memory)) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            if "forget" in names:
                done = await call(client, "forget", {"kind": "concept", "target": "agent"})
                assert "concept" in str(done) and "agent" in str(done)
            return names

    monkeypatch.setattr(mcp_server, "FORGET_MODULE", "no_such_forget_module_here")
    assert "forget" not in anyio.run(tools)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(mcp_server, "FORGET_MODULE", "forget_stand_in")
    monkeypatch.setattr(handle, "FORGET_MODULE", "forget_stand_in")
    assert "forget" in anyio.run(tools)
    sys.modules.pop("forget_stand_in", None)


def test_two_servers_on_one_memory_see_each_others_changes(memory: zerolang.memory.Memory) -> None:
    from zerolang.mcp.graph import KnowledgeGraph

    first, second = KnowledgeGraph(memory), KnowledgeGraph(memory)
    assert first.read_graph() == {"entities": [], "relations": []}
    first.create_entities([{"name": "A", "entityType": "t", "observations": ["x"]}])
    assert [e["name"] for e in second.read_graph()["entities"]] == ["A"]
    second.delete_observations([{"entityName": "A", "observations": ["x"]}])
    assert first.read_graph()["entities"] == [{"name": "A", "entityType": "t", "observations": []}]
    memory.remember([("unrelated", "is", "fact")])  # any other write: the next read replays the log
    assert first.add_observations([{"entityName": "A", "contents": ["y"]}]) == [
        {"entityName": "A", "addedObservations": ["y"]}
    ]
    assert second.open_nodes(["A"])["entities"][0]["observations"] == ["y"]
    assert KnowledgeGraph(memory).read_graph() == first.read_graph() == second.read_graph()
