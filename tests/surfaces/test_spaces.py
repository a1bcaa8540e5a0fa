"""Every surface takes the space (issue 39, point 2): what alice stores, bob never recalls, lists or counts.

Alice writes through every writer (`zero capture --space`, the hook, MCP, `Memory`, the OpenAI Agents
session, `zero convo store --space`, the LangGraph store) in space `alice`; every reader in space `bob`
finds none of it, on SQLite and PostgreSQL. That conversations keep to their space needs the space in
the experience and conversation tables (the `door` branch): those tests are marked until it is merged.
Alice finding her own through every surface, in her space, holds already.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.surfaces.conftest import READERS, WRITERS, Setting, found, write_all

ENGINES = pytest.mark.parametrize("setting", ["sqlite-env", "postgres-env"], indirect=True)


def alice_writes(setting: Setting) -> None:
    """Alice's turns through every writer, and her conversation entries through `zero convo`, the
    OpenAI Agents session and the LangGraph store."""
    from zerolang.agents.langgraph_store import ZeroStore

    write_all(setting, "alice")
    history = setting.folder / "history.json"
    history.write_text(json.dumps([{"role": "user", "content": "the vault code is 7788"}]), encoding="utf-8")
    setting.zero("convo", "store", "vault", str(history), "--space", "alice")
    with ZeroStore.open(space="alice") as store:
        store.put(("notes",), "n1", {"text": "alice private: the vault code is 7788"})


@pytest.mark.slow
@ENGINES
def test_alice_finds_what_she_stored_through_every_surface_in_her_space(setting: Setting) -> None:
    alice_writes(setting)
    assert found(setting, "alice") == [(reader, writer) for reader in READERS for writer in WRITERS]


@pytest.mark.slow
@ENGINES
def test_bob_never_recalls_lists_or_counts_what_alice_stored(setting: Setting) -> None:
    import zerolang.memory
    from zerolang.agents.langgraph_store import ZeroStore
    from zerolang.agents.openai_agents import ZeroSession
    from zerolang.explore.reads import Explorer

    alice_writes(setting)
    assert found(setting, "bob") == []
    # lists: conversations, sessions, the adapters' entries
    assert json.loads(setting.zero("convo", "restore", "vault", "--space", "bob")) == []
    assert setting.zero("convo", "search", "vault", "7788", "--space", "bob", "--json") == "[]\n"
    with ZeroSession.open("openai-velvetrune", space="bob") as session:
        assert asyncio.run(session.get_items()) == []
    with ZeroStore.open(space="bob") as store:
        assert store.search(("notes",), query="vault") == []
        assert store.list_namespaces() == []
    # counts: the experiences bob's memory holds, as the API and the explorer count them
    with zerolang.memory.open(space="bob") as memory:
        assert memory.experiences.counts()["turns"] == 0
        explorer = Explorer(memory)
        assert explorer.sessions(None).rows == ()
        experiences = explorer.overview().experiences
        assert experiences is None or not any(experiences.values())
