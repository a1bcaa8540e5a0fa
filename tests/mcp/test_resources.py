"""MCP resources: `memory://concept/LABEL` and `archive://sha256/HASH`, under the tools' consent policy."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import anyio
import pytest

import zerolang.memory
from tests.mcp.conftest import Session


async def read(client: Any, uri: str) -> Any:
    result = await client.read_resource(uri)
    return json.loads(result.contents[0].text)


async def refused(client: Any, uri: str) -> str:
    from mcp import MCPError

    with pytest.raises(MCPError) as caught:
        await client.read_resource(uri)
    return str(caught.value)


def test_templates_are_listed(session: Session) -> None:
    async def body(client: Any) -> None:
        templates = (await client.list_resource_templates()).resource_templates
        assert {t.uri_template for t in templates} == {"memory://concept/{label}", "archive://sha256/{hash}"}

    session(body)


def test_a_concept_by_label_and_by_hash(session: Session, memory: zerolang.memory.Memory) -> None:
    memory.remember([("zero lang", "is a", "graph language"), ("zero lang", "written in", "python")])
    view = memory.get("zero lang")
    assert view is not None

    async def body(client: Any) -> None:
        by_label = await read(client, f"memory://concept/{quote('zero lang')}")
        assert by_label["concept"]["label"] == "zero lang"
        assert {f["object"] for f in by_label["facts"]} == {"graph language", "python"}
        by_hash = await read(client, f"memory://concept/{view.concept.hash}")
        assert by_hash == by_label
        assert "no concept 'nowhere'" in await refused(client, "memory://concept/nowhere")

    session(body)


def test_documents_only_as_the_policy_releases_them(session: Session, memory: zerolang.memory.Memory) -> None:
    mine = memory.archive_document(
        [{"role": "user", "content": "my bank PIN is 4321"}],
        channel="dm:alice",
        consent_scope="personal",
        summary="Alice talked about her bank card.",
    )
    team = memory.archive_document(
        [{"role": "user", "content": "standup notes: ship it"}],
        channel="slack:team",
        consent_scope="team",
        summary="Team standup notes.",
    )

    async def body(client: Any) -> None:
        document = await read(client, f"archive://sha256/{mine.record.hash}")
        assert document["messages"][0]["content"] == "my bank PIN is 4321"
        absent = (await refused(client, f"archive://sha256/{'0' * 64}")).replace("0" * 64, "HASH")
        told = await refused(client, f"archive://sha256/{team.record.hash}")  # summary-only scope
        assert told.replace(team.record.hash, "HASH") == absent and "ship it" not in told
        assert "hash.format" in await refused(client, "archive://sha256/nothex")

    session(body)


def test_without_a_policy_documents_are_refused(memory: zerolang.memory.Memory) -> None:
    from mcp import Client

    from zerolang.mcp.server import build_server

    mine = memory.archive_document(
        [{"role": "user", "content": "private"}], channel="dm:alice", consent_scope="personal", summary="x"
    )

    async def main() -> None:
        async with Client(build_server(memory)) as client:
            told = await refused(client, f"archive://sha256/{mine.record.hash}")
            assert "--policy and --as" in told and "private" not in told

    anyio.run(main)
