"""MCP argument errors are one plain sentence naming the argument; the graph tools show current facts."""

from __future__ import annotations

from typing import Any

import pytest

import zerolang.memory
from tests.mcp.conftest import Session
from zerolang.knowledge import temporal
from zerolang.mcp.arguments import argument_error, argument_path
from zerolang.util.times import utc_now

BAD_CALLS = [
    ("recall", {"text": 5}, 'recall: the argument "text" must be a string.'),
    ("recall", {}, 'recall: the argument "text" is required.'),
    ("recall", {"text": "x", "limit": "many"}, 'recall: the argument "limit" must be a whole number.'),
    ("store", {"tuples": "x"}, 'store: the argument "tuples" must be a list.'),
    ("open_nodes", {"names": [1]}, 'open_nodes: the argument "names[0]" must be a string.'),
    (
        "create_entities",
        {"entities": [{"name": "a", "observations": []}]},
        'create_entities: the argument "entities[0].entityType" is required.',
    ),
]


def test_a_bad_argument_is_one_plain_sentence(session: Session) -> None:
    async def body(client: Any) -> None:
        for tool, arguments, expected in BAD_CALLS:
            result = await client.call_tool(tool, arguments)
            assert result.is_error
            text = result.content[0].text
            assert text == expected
            assert "pydantic" not in text and "http" not in text and "\n" not in text

    session(body)


def test_the_sentence_counts_the_other_problems() -> None:
    errors = [{"type": "missing", "loc": ("a",)}, {"type": "string_type", "loc": ("b", 2, "c")}]
    assert argument_error("t", errors) == 't: the argument "a" is required (and 1 more problem).'
    assert argument_path(("b", 2, "c")) == "b[2].c"


def test_deleted_observations_are_not_current(session: Session, memory: zerolang.memory.Memory) -> None:
    async def body(client: Any) -> None:
        entity = {"name": "Bob", "entityType": "person", "observations": ["likes tea", "likes jazz"]}
        await client.call_tool("create_entities", {"entities": [entity]})
        deletion = {"entityName": "Bob", "observations": ["likes tea"]}
        await client.call_tool("delete_observations", {"deletions": [deletion]})
        rows = (await client.call_tool("query", {"text": "match (bob ?p ?o)"})).structured_content["rows"]
        assert sorted(row["facts"][0] for row in rows) == [
            "bob entity_type person",
            "bob has_observation likes jazz",
        ]
        await client.call_tool(
            "add_observations", {"observations": [{"entityName": "Bob", "contents": ["likes tea"]}]}
        )
        graph = (await client.call_tool("read_graph", {})).structured_content
        assert graph["entities"][0]["observations"] == ["likes jazz", "likes tea"]  # stated again: current

    session(body)
    bob = memory.get("bob")
    assert bob is not None
    history = [f for f in bob.facts if f.object == "likes tea"]
    assert len(history) == 1 and not history[0].retired  # reasserted, one fact with its history


def test_a_retraction_elsewhere_reaches_the_graph_tools(
    session: Session, memory: zerolang.memory.Memory
) -> None:
    async def create(client: Any) -> None:
        entity = {"name": "Ann", "entityType": "person", "observations": ["plays chess"]}
        await client.call_tool("create_entities", {"entities": [entity]})
        await client.call_tool(
            "create_entities", {"entities": [{"name": "Zed", "entityType": "org", "observations": []}]}
        )
        relation = {"from": "Ann", "to": "Zed", "relationType": "works at"}
        await client.call_tool("create_relations", {"relations": [relation]})

    session(create)
    ann = memory.get("ann")
    assert ann is not None
    for view in ann.facts:
        if view.fact.predicate in ("has_observation", "works_at"):
            temporal.retract(memory.store.backend, view.fact, at=utc_now())

    async def read(client: Any) -> None:
        graph = (await client.call_tool("read_graph", {})).structured_content
        assert graph["entities"][0] == {"name": "Ann", "entityType": "person", "observations": []}
        assert graph["relations"] == []

    session(read)


@pytest.mark.parametrize("tool", ["delete_entities"])
def test_a_deleted_entity_takes_its_facts_out_of_current_answers(
    tool: str, session: Session, memory: zerolang.memory.Memory
) -> None:
    async def body(client: Any) -> None:
        entity = {"name": "Eve", "entityType": "person", "observations": ["hums"]}
        await client.call_tool("create_entities", {"entities": [entity]})
        await client.call_tool(tool, {"entityNames": ["Eve"]})
        rows = (await client.call_tool("query", {"text": "match (eve ?p ?o)"})).structured_content["rows"]
        assert rows == []

    session(body)
