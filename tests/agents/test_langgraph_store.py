"""`ZeroStore` under a real LangGraph graph (StateGraph compiled with the store), no model.

Each test runs on a SQLite file and on a PostgreSQL database (`experience_db`): memory written in
one thread is read in another, search takes a query and filters, and a deleted item never comes
back (not in a get, a search, a listing, nor after the store is opened again).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypedDict

import pytest

pytest.importorskip("langgraph")

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from zerolang.agents.langgraph_store import ZeroStore


class State(TypedDict):
    user: str
    said: str
    recalled: list[str]


def remember_and_recall(state: State, runtime: Runtime[Any]) -> dict[str, Any]:
    """A node as LangGraph's docs write one: it stores what starts with `remember:` in the user's
    namespace and recalls what the store finds for the message."""
    store = runtime.store
    assert store is not None
    namespace = (state["user"], "memories")
    said = state["said"]
    if said.startswith("remember:"):
        fact = said.removeprefix("remember:").strip()
        kind = "book" if "book" in fact else "person"
        store.put(namespace, f"m{len(store.search(namespace, limit=100))}", {"text": fact, "kind": kind})
        return {"recalled": []}
    return {"recalled": [hit.value["text"] for hit in store.search(namespace, query=said, limit=5)]}


def graph(store: ZeroStore) -> Any:
    builder = StateGraph(State)
    builder.add_node("memory", remember_and_recall)
    builder.add_edge(START, "memory")
    builder.add_edge("memory", END)
    return builder.compile(checkpointer=InMemorySaver(), store=store)


@pytest.fixture
def store(experience_db: str) -> Iterator[ZeroStore]:
    with ZeroStore.open(experience_db) as opened:
        yield opened


def run(app: Any, thread: str, user: str, said: str) -> list[str]:
    config = {"configurable": {"thread_id": thread}}
    result = app.invoke({"user": user, "said": said, "recalled": []}, config)
    return list(result["recalled"])


def test_memory_written_in_one_thread_is_recalled_in_another(store: ZeroStore) -> None:
    app = graph(store)
    run(app, "thread-1", "alice", "remember: my favourite book is The Brothers Karamazov")
    run(app, "thread-1", "alice", "remember: Melissa is my sister")
    run(app, "thread-2", "bob", "remember: my favourite book is Moby Dick")
    assert run(app, "thread-3", "alice", "Which book do I like?") == [
        "my favourite book is The Brothers Karamazov"
    ]
    assert run(app, "thread-4", "alice", "Who is Melissa?") == ["Melissa is my sister"]
    assert run(app, "thread-5", "bob", "Which book do I like?") == ["my favourite book is Moby Dick"]
    assert store.list_namespaces() == [("alice", "memories"), ("bob", "memories")]
    assert store.list_namespaces(prefix=("alice",)) == [("alice", "memories")]
    assert store.list_namespaces(suffix=("memories",), max_depth=1) == [("alice",), ("bob",)]
    assert store.list_namespaces(prefix=("*", "memories")) == [("alice", "memories"), ("bob", "memories")]


def test_search_with_a_query_and_filters(store: ZeroStore) -> None:
    space = ("alice", "library")
    store.put(space, "k1", {"title": "The Brothers Karamazov", "pages": 796, "shelf": {"room": "study"}})
    store.put(space, "k2", {"title": "Crime and Punishment", "pages": 545, "shelf": {"room": "hall"}})
    store.put(space, "k3", {"title": "The Philokalia", "pages": 1500, "shelf": {"room": "study"}})
    store.put(("alice", "library", "loaned"), "k4", {"title": "The Idiot", "pages": 652})
    store.put(("bob", "library"), "k5", {"title": "The Brothers Karamazov", "pages": 796})

    def keys(**options: Any) -> list[str]:
        return [item.key for item in store.search(("alice", "library"), **options)]

    assert sorted(keys()) == ["k1", "k2", "k3", "k4"]  # the namespace and those under it
    assert keys(query="Karamazov brothers") == ["k1"]
    assert sorted(keys(filter={"pages": {"$gt": 700}})) == ["k1", "k3"]
    assert keys(query="the", filter={"shelf": {"room": "study"}, "pages": {"$lt": 1000}}) == ["k1"]
    assert sorted(keys(filter={"title": {"$ne": "The Idiot"}})) == ["k1", "k2", "k3"]
    assert len(keys(limit=2)) == 2 and len(keys(limit=2, offset=3)) == 1
    item = store.get(space, "k2")
    assert item is not None and item.value["pages"] == 545
    store.put(space, "k2", {"title": "Crime and Punishment", "pages": 551}, index=False)
    updated = store.get(space, "k2")
    assert updated is not None and updated.created_at == item.created_at and updated.value["pages"] == 551
    assert keys(query="Punishment") == []  # index=False: kept, not searched


def test_a_deleted_item_never_comes_back(store: ZeroStore, experience_db: str) -> None:
    app = graph(store)
    run(app, "thread-1", "alice", "remember: my favourite book is The Brothers Karamazov")
    run(app, "thread-1", "alice", "remember: Melissa is my sister")
    store.delete(("alice", "memories"), "m0")
    assert store.get(("alice", "memories"), "m0") is None
    assert run(app, "thread-2", "alice", "Which book do I like?") == []
    assert [item.key for item in store.search(("alice",))] == ["m1"]
    store.delete(("alice", "memories"), "m1")
    assert store.list_namespaces() == []
    with ZeroStore.open(experience_db) as again:  # nor from another connection
        assert again.get(("alice", "memories"), "m0") is None
        assert again.search(("alice",), query="Karamazov") == []
    # and no row, full-text index included, still holds the text
    if "://" not in experience_db:
        import sqlite3

        with sqlite3.connect(experience_db) as connection:
            tables = [
                name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            for table in tables:
                for row in connection.execute(f'SELECT * FROM "{table}"'):
                    assert "Karamazov" not in repr(row), table
                    # the index keeps its terms folded and stemmed, in segment blobs (issue 40, point 3)
                    for cell in row:
                        held = cell if isinstance(cell, bytes) else str(cell).encode()
                        assert b"karamazov" not in held.lower(), table


def test_ttl_in_minutes_expires_and_reads_refresh_it(experience_db: str) -> None:
    now = [1_700_000_000.0]
    with ZeroStore.open(experience_db, clock=lambda: now[0]) as store:
        store.put(("alice", "notes"), "n", {"text": "short lived"}, ttl=1)
        now[0] += 50
        assert store.get(("alice", "notes"), "n") is not None  # refreshed: 60 s from now
        now[0] += 50
        assert store.get(("alice", "notes"), "n", refresh_ttl=False) is not None
        now[0] += 11
        assert store.get(("alice", "notes"), "n") is None
        assert store.search(("alice",)) == []


def test_what_the_memory_purged_is_not_stored(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory's purges reach a conversations database they never reached when it is opened to
    write (as `zero convo store` does): an item mentioning a purged label is not kept."""
    import zerolang.memory

    memory_at = str(tmp_path / "memory.db")
    with zerolang.memory.open(memory_at, experiences=":memory:", archive=tmp_path / "a") as memory:
        memory.remember([("Zorblax Quuxly", "reads", "Dostoevsky")])
        memory.forget("concept", "Zorblax Quuxly", purge=True)
    with ZeroStore.open(memory_at, experiences=str(tmp_path / "later.db")) as store:
        store.put(("u", "memories"), "m0", {"text": "Zorblax Quuxly lent me a book"})
        store.put(("u", "memories"), "m1", {"text": "the weather was fine"})
        kept = [item.value["text"] for item in store.search(("u", "memories"), limit=10)]
    assert kept == ["the weather was fine"]
    assert b"zorblax" not in (tmp_path / "later.db").read_bytes().lower()
