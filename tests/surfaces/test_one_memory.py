"""One setting, one memory: what any surface writes, every other surface reads (issue 39, point 1).

Only `$ZERO_MEMORY_DB`, or `--db` (and `db`) the same everywhere, names the memory (`conftest.setting`,
on SQLite and PostgreSQL). Each writer
(`zero capture`, the Claude Code hook, MCP's `store`, `Memory.capture`, the OpenAI Agents session)
stores a turn about a word of its own; each reader (`zero recall`, the hook's prompt context, MCP's
`recall`, `Memory.recall`, the explorer) then finds every writer's word.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.surfaces.conftest import READERS, WRITERS, Setting, found, write_all


@pytest.mark.slow
def test_what_any_surface_writes_every_surface_reads(setting: Setting) -> None:
    write_all(setting)
    assert found(setting) == [(reader, writer) for reader in READERS for writer in WRITERS]


@pytest.mark.slow
def test_a_conversation_stored_by_one_surface_is_restored_by_the_others(setting: Setting) -> None:
    """`zero convo store`, the OpenAI Agents session and the LangGraph store keep conversation
    entries in the same place for the same setting."""
    from zerolang.agents.langgraph_store import ZeroStore
    from zerolang.agents.openai_agents import ZeroSession

    history = setting.folder / "history.json"
    history.write_text(
        json.dumps(
            [{"role": "user", "content": "plan the lumenfrost trip"}, {"role": "assistant", "content": "ok"}]
        ),
        encoding="utf-8",
    )
    setting.zero("convo", "store", "trip", str(history))
    with ZeroSession.open("trip", setting.db) as session:
        items = asyncio.run(session.get_items())
        assert [item["content"] for item in items] == ["plan the lumenfrost trip", "ok"]
        asyncio.run(session.add_items([{"role": "user", "content": "and the glimmerveil hut?"}]))
    restored = json.loads(setting.zero("convo", "restore", "trip"))
    assert [message["content"] for message in restored][-1] == "and the glimmerveil hut?"
    with ZeroStore.open(setting.db) as store:
        store.put(("notes",), "n1", {"text": "the saffronquill list"})
    with ZeroStore.open(setting.db) as again:
        found = again.search(("notes",), query="saffronquill")
    assert [item.value["text"] for item in found] == ["the saffronquill list"]
