"""A LangGraph graph with 0-memory as its long-term store (`ZeroStore`), offline.

    python examples/agents/langgraph_store.py /tmp/experiences.db

One node stores what a user asks it to remember, in the namespace (user, "memories"), and
recalls what the store finds for anything else, whatever the thread.
"""

from __future__ import annotations

import sys
from typing import Any, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from zerolang.agents.langgraph_store import ZeroStore


class State(TypedDict):
    user: str
    said: str
    recalled: list[str]


def memory(state: State, runtime: Runtime[Any]) -> dict[str, Any]:
    store = runtime.store
    assert store is not None
    namespace = (state["user"], "memories")
    if state["said"].startswith("remember:"):
        fact = state["said"].removeprefix("remember:").strip()
        store.put(namespace, f"m{len(store.search(namespace, limit=100))}", {"text": fact})
        return {"recalled": []}
    return {"recalled": [hit.value["text"] for hit in store.search(namespace, query=state["said"])]}


def main(db: str) -> None:
    builder = StateGraph(State)
    builder.add_node("memory", memory)
    builder.add_edge(START, "memory")
    builder.add_edge("memory", END)
    with ZeroStore.open(db) as store:
        app = builder.compile(checkpointer=InMemorySaver(), store=store)
        turns = [
            ("thread-1", "remember: my favourite book is The Brothers Karamazov"),
            ("thread-1", "remember: Melissa is my sister"),
            ("thread-2", "Which book do I like?"),
        ]
        for thread, said in turns:
            result = app.invoke(
                {"user": "alice", "said": said, "recalled": []}, {"configurable": {"thread_id": thread}}
            )
            print(f"{thread} > {said}")
            for text in result["recalled"]:
                print(f"{thread} < {text}")
        store.delete(("alice", "memories"), "m0")
        result = app.invoke(
            {"user": "alice", "said": "Which book do I like?", "recalled": []},
            {"configurable": {"thread_id": "thread-3"}},
        )
        print(f"after the delete, thread-3 recalls {len(result['recalled'])} items")
        print("namespaces:", store.list_namespaces())


if __name__ == "__main__":
    main(sys.argv[1])
