"""Conversation memory (seed 003): keys, restore, turn metadata, pruning, TTL, search, the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolang.convo.memory import ConversationMemory
from zerolang.convo.model import ChatMessage, prune
from zerolang.convo.store import EntryStore
from zerolang.storage.sqlite.convo import SqliteEntryStore
from zerolang.util.errors import ZeroError

SERVER = "host=127.0.0.1 port=5432 user=postgres"


@pytest.fixture(scope="module")
def pg_database() -> Iterator[str]:
    psycopg = pytest.importorskip("psycopg")
    name = f"zt_capture_convo_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{SERVER} dbname=postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield f"{SERVER} dbname={name}"
    finally:
        with psycopg.connect(f"{SERVER} dbname=postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[EntryStore]:
    if request.param == "sqlite":
        with SqliteEntryStore(":memory:") as sqlite:
            yield sqlite
        return
    from zerolang.storage.postgres.convo import PostgresEntryStore

    schema = f"c_{uuid.uuid4().hex[:12]}"
    with PostgresEntryStore(request.getfixturevalue("pg_database"), schema=schema) as postgres:
        yield postgres
        postgres._conn.execute(f"DROP SCHEMA {schema} CASCADE")


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def history(n: int) -> list[ChatMessage]:
    out = [ChatMessage("system", "You are terse.")]
    for i in range(n):
        out.append(ChatMessage("user", f"question {i} about apples"))
        out.append(ChatMessage("assistant", f"answer {i}"))
    return out


def test_store_and_restore_under_the_seeds_keys(store: EntryStore) -> None:
    clock = Clock()
    memory = ConversationMemory(store, "coder", clock=clock)
    assert memory.restore() == []
    first = memory.store_turn(history(1), input_tokens=10, output_tokens=4)
    assert (first.iteration, first.message_count, first.input_tokens, first.output_tokens) == (1, 3, 10, 4)
    second = memory.store_turn(history(2))  # counted: only the two new messages
    assert second.iteration == 2 and second.input_tokens > 0 and second.output_tokens > 0
    assert [m.content for m in second.messages] == ["question 1 about apples", "answer 1"]
    assert store.keys("agent:coder:", now=clock()) == [
        "agent:coder:conversation",
        "agent:coder:turn:1",
        "agent:coder:turn:2",
    ]
    assert memory.restore() == history(2)
    turn = store.get("agent:coder:turn:2", now=clock())
    assert turn is not None
    assert set(turn) == {
        "iteration",
        "message_count",
        "input_tokens",
        "output_tokens",
        "tool_calls",
        "timestamp",
        "messages",
    }


def test_pruning_keeps_system_messages_and_the_most_recent() -> None:
    messages = history(60)  # 121 messages
    kept = prune(messages)
    assert len(kept) == 100 and kept[0].role == "system" and kept[-1] == messages[-1]
    by_count = prune(messages, max_messages=5)
    assert [m.content for m in by_count] == [
        "You are terse.",
        "question 58 about apples",
        "answer 58",
        "question 59 about apples",
        "answer 59",
    ]
    by_tokens = prune(messages, max_messages=None, max_tokens=20, count=lambda text: 5)
    assert len(by_tokens) == 4 and by_tokens[0].role == "system"
    assert prune(messages, max_messages=None, max_tokens=None) == messages


@given(st.lists(st.sampled_from(["system", "user", "assistant", "tool"]), max_size=40), st.integers(1, 30))
def test_prune_properties(roles: list[str], limit: int) -> None:
    messages = [ChatMessage(role, f"m{i}") for i, role in enumerate(roles)]
    kept = prune(messages, max_messages=limit)
    systems = [m for m in messages if m.role == "system"]
    assert [m for m in kept if m.role == "system"] == systems
    assert len(kept) <= max(limit, len(systems))
    assert kept == [m for m in messages if m in kept]  # order kept
    others = [m for m in messages if m.role != "system"]
    kept_others = [m for m in kept if m.role != "system"]
    assert kept_others == others[len(others) - len(kept_others) :]  # the most recent ones


def test_ttl_expires_lazily_and_cleanup_removes(store: EntryStore) -> None:
    clock = Clock()
    memory = ConversationMemory(store, "bot", ttl=60, clock=clock)
    memory.store_turn(history(1))
    clock.now += 30
    assert memory.restore() != []
    clock.now += 31
    assert memory.restore() == []  # expired: deleted on read
    assert store.keys("agent:bot:", now=0) == ["agent:bot:turn:1"]
    assert memory.cleanup() == 1
    assert store.keys("agent:bot:", now=0) == []


def test_search_over_turns_and_agents_are_separate(store: EntryStore) -> None:
    memory = ConversationMemory(store, "a", clock=Clock())
    other = ConversationMemory(store, "b", clock=Clock())
    memory.store_turn(
        [ChatMessage("user", "the boiler is broken"), ChatMessage("assistant", "call a plumber")]
    )
    memory.store_turn(
        [
            ChatMessage("user", "the boiler is broken"),
            ChatMessage("assistant", "call a plumber"),
            ChatMessage("user", "what about pears?"),
        ]
    )
    other.store_turn([ChatMessage("user", "plumbers are expensive")])
    hits = memory.search("plumber")
    assert [hit.key for hit in hits] == ["agent:a:turn:1"]
    assert other.search("boiler") == []


def test_bad_agent_names_and_messages() -> None:
    with pytest.raises(ZeroError):
        ConversationMemory(SqliteEntryStore(":memory:"), "a:b")
    with pytest.raises(ZeroError, match="role must be one of"):
        ChatMessage.from_json({"role": "wizard", "content": "hi"})


def zero(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zerolang", *arguments], capture_output=True, text=True, check=False
    )


def test_zero_convo_end_to_end(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    path = tmp_path / "history.json"
    path.write_text(json.dumps([m.to_json() for m in history(2)]))
    stored = zero("convo", "store", "coder", str(path), "--db", db, "--json")
    assert stored.returncode == 0, stored.stderr
    assert json.loads(stored.stdout)["message_count"] == 5
    restored = zero("convo", "restore", "coder", "--max-messages", "3", "--db", db)
    assert [m["content"] for m in json.loads(restored.stdout)] == [
        "You are terse.",
        "question 1 about apples",
        "answer 1",
    ]
    found = zero("convo", "search", "coder", "apples", "--db", db)
    assert found.stdout.startswith("agent:coder:turn:1")
    listed = json.loads(zero("convo", "turns", "coder", "--db", db, "--json").stdout)
    assert [turn["iteration"] for turn in listed] == [1]
    assert zero("convo", "cleanup", "coder", "--db", db).stdout.strip() == "Removed 0 expired entries."
    path.write_text("[{")
    broken = zero("convo", "store", "coder", str(path), "--db", db)
    assert broken.returncode == 1 and f"{path}:1:" in broken.stderr and "Traceback" not in broken.stderr


def test_search_shows_the_message_that_matched(store: EntryStore) -> None:
    """The hit names the message holding most of the query's words, whichever its place and role."""
    memory = ConversationMemory(store, "a")
    memory.store_turn(
        [
            ChatMessage("system", "You are terse."),
            ChatMessage("user", "how do I fix the boiler?"),
            ChatMessage("assistant", "Bleed the radiators, then check the boiler pressure gauge."),
            ChatMessage("user", "thanks"),
        ]
    )
    (hit,) = memory.search("boiler pressure")
    assert hit.message == {"role": "assistant", "content": hit.turn["messages"][2]["content"]}
    assert memory.search("fix")[0].matched == 1
    assert memory.search("terse")[0].message["role"] == "system"  # type: ignore[index]


def test_zero_convo_search_prints_the_matching_message_escaped(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    long = "padding words " * 30 + "the secret handshake is \x1b[31mred\x1b[0m\nand blue " + "tail " * 40
    path = tmp_path / "history.json"
    path.write_text(
        json.dumps(
            [
                {"role": "user", "content": "what is the handshake?"},
                {"role": "assistant", "content": "nothing about it here"},
                {"role": "user", "content": long},
            ]
        )
    )
    assert zero("convo", "store", "coder", str(path), "--db", db).returncode == 0
    found = zero("convo", "search", "coder", "secret handshake", "--db", db)
    assert found.returncode == 0, found.stderr
    (line,) = found.stdout.splitlines()
    assert line.startswith("agent:coder:turn:1  ")
    assert "  user: …" in line and "the secret handshake is \\x1b[31mred\\x1b[0m and blue" in line
    assert "\x1b" not in found.stdout and line.endswith("…")
    as_json = json.loads(zero("convo", "search", "coder", "secret handshake", "--db", db, "--json").stdout)
    assert as_json[0]["matched"] == 2


@pytest.mark.parametrize("ttl", ["0", "-1", "0.0", "nan", "inf", "-inf"])
def test_a_ttl_that_is_not_above_zero_is_refused_in_one_line(tmp_path: Path, ttl: str) -> None:
    """`--ttl 0` would store entries already expired: refused before anything is opened."""
    path = tmp_path / "history.json"
    path.write_text(json.dumps([{"role": "user", "content": "hello"}]))
    db = tmp_path / "c.db"
    refused = zero("convo", "store", "coder", str(path), "--db", str(db), f"--ttl={ttl}")
    assert refused.returncode == 1, refused.stdout
    assert refused.stderr.startswith("error: --ttl: ") and refused.stderr.count("\n") == 1
    assert not db.exists()
    with pytest.raises(ZeroError, match="ttl"):
        ConversationMemory(SqliteEntryStore(":memory:"), "coder", ttl=float(ttl))


def test_a_ttl_above_zero_is_taken(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    path.write_text(json.dumps([{"role": "user", "content": "hello"}]))
    stored = zero("convo", "store", "coder", str(path), "--db", str(tmp_path / "c.db"), "--ttl", "3600")
    assert stored.returncode == 0, stored.stderr
