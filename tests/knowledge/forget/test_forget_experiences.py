"""Forget reaches captured experiences and conversation turns: recall, `zero recall`, `zero convo`.

The adversarial part of issue 12 point 1 for conversation search: after a forget, no path
over the experience database shows the forgotten label or its aliases; `--purge` leaves no
byte of them in the file; `restore` brings the experiences back. Both backends.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import zerolang.memory
from zerolang import storage
from zerolang.cli.app import app
from zerolang.convo.memory import ConversationMemory
from zerolang.convo.model import ChatMessage
from zerolang.experience.budget import render
from zerolang.experience.capture import TurnRecorder
from zerolang.experience.forgotten import Forgotten, apply_forget, erase, scrub, term_keys
from zerolang.experience.recall import recall

from .conftest import inputs

SECRET = "Zorblax Quuxly"
ALIAS = "Zorby"
WORDS = ("zorblax", "quuxly", "zorby")

TURNS = (
    ("Zorblax Quuxly moved to Lyon last spring", "Noted: Zorblax Quuxly lives in Lyon now"),
    ("Does Zorby still like green tea?", "Yes, Zorby drinks green tea every morning"),
    ("Which port does PostgreSQL listen on here?", "It listens on 5432 on localhost"),
    ("Lyon has a lovely old town", "The old town of Lyon is a world heritage site"),
)
HISTORY = [
    {"role": "system", "content": "You are a helpful agent."},
    {"role": "user", "content": "Tell me about Zorblax Quuxly."},
    {"role": "assistant", "content": "Zorblax Quuxly is an engineer in Lyon."},
    {"role": "user", "content": "And what about PostgreSQL tuning?"},
    {"role": "assistant", "content": "Raise shared_buffers and work_mem carefully."},
]
QUERIES = ("Zorblax", "Zorby green tea", "Quuxly Lyon", "Lyon old town", "PostgreSQL port", "who moved")


def leaks(text: str) -> list[str]:
    low = text.lower()
    return [word for word in WORDS if word in low]


def capture(store: Any) -> None:
    recorder = TurnRecorder(store, session="chat-1", user="Dana", agent="assistant")
    for index, (said, answer) in enumerate(TURNS):
        recorder.record(user_said=said, agent_said=answer, when=f"2026-02-1{index}T10:00:00Z")


def conversation(entries: Any) -> ConversationMemory:
    memory = ConversationMemory(entries, "coder", clock=lambda: 1_000_000.0)
    history = [ChatMessage.from_json(m) for m in HISTORY]
    memory.store_turn(history[:3], iteration=1)
    memory.store_turn(history, iteration=2)
    return memory


def every_experience_path(store: Any, convo: ConversationMemory | None = None) -> str:
    """Everything recall, the budgeted `zero recall` output and conversation memory could show."""
    seen: list[str] = []
    for query in QUERIES:
        hits = recall(store, query, limit=50)
        seen.append(repr(hits))
        seen.append(render(store, "q", hits, budget=None).text)  # (the output repeats the query)
        seen.append(render(store, "x", hits, budget=None, as_json=True).text)
        if convo is not None:
            seen.append(repr(convo.search(query, 50)))
    if convo is not None:
        seen.append(repr(convo.restore()) + repr(convo.turns()))
    return "\n".join(seen)


# ---- the predicate ---------------------------------------------------------------------------


def test_the_predicate_matches_whole_words_and_phrases_only() -> None:
    blocked = Forgotten.of(term_keys([SECRET, ALIAS, "  ", "!!"]))
    assert len(blocked.keys) == 2 and blocked.lengths == {1, 2}
    assert blocked.mentions("I met ZORBLAX   quuxly, yesterday.")
    assert blocked.mentions("nothing", "ask zorby")
    assert not blocked.mentions("Zorblax alone", "quuxly alone", "zorbyx")
    assert not Forgotten().mentions(SECRET)
    entry = {"iteration": 1, "messages": [{"role": "user", "content": "zorby?"}, {"content": "hi"}]}
    assert scrub(entry, blocked) == {"iteration": 1, "messages": [{"content": "hi"}]}
    assert scrub({"note": "Zorby", "messages": []}, blocked) is None
    assert scrub(entry, Forgotten()) is entry


# ---- the stores, on both backends --------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """An experience store and the conversation store of the same database."""
    if request.param == "postgres":
        from zerolang.storage.postgres.convo import PostgresEntryStore
        from zerolang.storage.postgres.experience import PostgresExperienceStore

        url = request.getfixturevalue("postgres_url")
        schema = f"exp_{secrets.token_hex(5)}"
        pair: tuple[Any, Any] = (
            PostgresExperienceStore(url, schema=schema),
            PostgresEntryStore(url, schema=schema),
        )
    else:
        from zerolang.storage.sqlite.convo import SqliteEntryStore
        from zerolang.storage.sqlite.experience import SqliteExperienceStore

        path = tmp_path / "experiences.db"
        pair = (SqliteExperienceStore(path), SqliteEntryStore(path))
    yield pair
    for store in pair:
        store.close()


def test_a_forget_hides_then_restore_shows_then_purge_erases(stores: tuple[Any, Any]) -> None:
    experiences, entries = stores
    capture(experiences)
    convo = conversation(entries)
    before = every_experience_path(experiences, convo)
    assert set(leaks(before)) == set(WORDS)
    counts = experiences.counts()

    apply_forget(experiences, "t1", [SECRET, ALIAS], purge=False, entries=entries)
    after = every_experience_path(experiences, convo)
    assert leaks(after) == [], leaks(after)
    assert "PostgreSQL" in after and "old town of Lyon" in after  # the rest is still recalled
    assert [m.content for m in convo.restore()] == [
        HISTORY[0]["content"],
        HISTORY[3]["content"],
        HISTORY[4]["content"],
    ]
    assert convo.search("Zorblax", 10) == [] and convo.search("shared_buffers", 10)
    assert experiences.counts() == counts  # hidden, not deleted

    assert experiences.lift_terms("t1") == 2
    assert set(leaks(every_experience_path(experiences, convo))) == set(WORDS)

    apply_forget(experiences, "t2", [SECRET, ALIAS], purge=True, entries=entries)
    assert experiences.counts()["experiences"] == counts["experiences"] - 4
    experiences.lift_terms("t2")  # even lifted, what a purge erased stays erased
    assert leaks(every_experience_path(experiences, convo)) == []
    assert "old town of Lyon" in every_experience_path(experiences, convo)
    assert convo.search("shared_buffers", 10)


def test_erase_only_reaches_what_that_tombstone_blocked(stores: tuple[Any, Any]) -> None:
    experiences, entries = stores
    capture(experiences)
    apply_forget(experiences, "a", [SECRET], purge=False)
    apply_forget(experiences, "b", ["PostgreSQL"], purge=False)
    before = experiences.counts()["experiences"]
    assert erase(experiences, "b", entries) >= 1
    assert experiences.counts()["experiences"] == before - 1  # the question (the answer says no name)
    experiences.lift_terms("a")
    assert "Zorblax Quuxly moved" in every_experience_path(experiences)


# ---- the Python API, the CLI, and the bytes of the file -----------------------------------------


def test_the_python_api_forgets_in_the_experiences_beside_the_memory(tmp_path: Path) -> None:
    with zerolang.memory.open(tmp_path / "m.db") as memory:
        memory.remember([(SECRET, "lives_in", "Lyon"), ("agent", "needs", "memory")], source="chat")
        memory.store.backend  # noqa: B018 - the memory exists
        capture(memory.experiences)
        assert leaks(repr(memory.recall_turns("Zorblax Lyon", limit=50)))
        report = memory.forget("concept", SECRET)
        assert {term.lower() for term in report.terms} == {"zorblax quuxly"}  # label and spellings
        left = leaks(repr(memory.recall_turns("Zorblax Lyon", limit=50)))
        assert "zorblax" not in left and "quuxly" not in left
        memory.restore(report.tombstone)
        assert "zorblax" in leaks(repr(memory.recall_turns("Zorblax Lyon", limit=50)))
    # reopened: the experiences file beside the memory is found without being opened first
    with zerolang.memory.open(tmp_path / "m.db") as memory:
        memory.forget("concept", SECRET, purge=True)
        assert "zorblax" not in leaks(repr(memory.recall_turns("Zorblax Lyon", limit=50)))


def test_cli_forget_with_experiences_reaches_recall_and_convo(tmp_path: Path) -> None:
    from zerolang.storage.sqlite.convo import SqliteEntryStore
    from zerolang.storage.sqlite.experience import SqliteExperienceStore

    runner = CliRunner()
    db, exp = str(tmp_path / "m.db"), tmp_path / "e.db"
    facts = tmp_path / "facts.json"
    facts.write_text(
        inputs(
            (
                "2026-02-10T00:00:00Z",
                "chat",
                "people",
                [(SECRET, "lives in", "Lyon", 0.9), (SECRET, "likes", "green tea", 0.8)],
            )
        ),
        encoding="utf-8",
    )
    aliases = tmp_path / "aliases.json"
    aliases.write_text(json.dumps({ALIAS: SECRET}), encoding="utf-8")
    with SqliteExperienceStore(exp) as store:
        capture(store)
    with SqliteEntryStore(exp) as entries:
        conversation(entries)

    def zero(*args: str) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return result.output

    def visible() -> str:
        seen = [zero("recall", q, "--db", db, "--experiences", str(exp)) for q in QUERIES]
        for q in QUERIES:
            document = json.loads(
                zero("recall", q, "--db", db, "--experiences", str(exp), "--json", "--budget", "400")
            )
            # (the JSON repeats the question: the caller's own words)
            seen.append(json.dumps({k: v for k, v in document.items() if k != "question"}))
        seen += [zero("convo", "search", "coder", q, "--experiences", str(exp), "--json") for q in QUERIES]
        seen += [zero("convo", "restore", "coder", "--experiences", str(exp))]
        return "\n".join(seen)

    zero("memory", "ingest", str(facts), "--db", db, "--aliases", str(aliases))
    assert set(leaks(visible())) == set(WORDS)
    out = zero("memory", "forget", SECRET, "--db", db, "--experiences", str(exp), "--aliases", str(aliases))
    assert "experiences: " in out and "terms blocked" in out
    hidden = visible()
    assert leaks(hidden) == []
    assert "5432" in hidden and "shared_buffers" in hidden
    tomb = json.loads(zero("memory", "tombstones", "--db", db, "--json"))[0]["tombstone"]
    zero("memory", "restore", tomb[:12], "--db", db, "--experiences", str(exp))
    assert set(leaks(visible())) == set(WORDS)

    result = runner.invoke(
        app,
        ["memory", "forget", SECRET, "--db", db, "--purge", "--json", "--aliases", str(aliases)],
        env={"ZERO_EXPERIENCE_DB": str(exp)},  # the option's environment variable
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["experiences"]["erased"] >= 4
    assert "problem" not in zero("memory", "check", "--db", db)
    with sqlite3.connect(exp) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = b"".join(p.read_bytes() for p in (exp, Path(f"{exp}-wal")) if p.exists()).lower()
    for word in WORDS:
        assert word.encode() not in data, word
    assert b"postgresql" in data and b"shared_buffers" in data  # the scan sees what stays


# ---- one forget across two databases: the experiences are blocked before the memory commits ----


def test_a_missing_experience_database_forgets_nothing(tmp_path: Path) -> None:
    """The experience database is opened before the memory is touched: when it is not there,
    the forget stops with one line and the memory still holds everything (no tombstone)."""
    runner = CliRunner()
    db, facts = str(tmp_path / "m.db"), tmp_path / "facts.json"
    facts.write_text(inputs(("2026-02-10T00:00:00Z", "chat", "people", [(SECRET, "lives in", "Lyon", 0.9)])))
    assert runner.invoke(app, ["memory", "ingest", str(facts), "--db", db]).exit_code == 0
    for command in (["forget", SECRET], ["forget", "--fact", f"{SECRET}|lives in|Lyon"]):
        result = runner.invoke(
            app, ["memory", *command, "--db", db, "--experiences", str(tmp_path / "no.db")]
        )
        assert result.exit_code == 1
        assert "no experience database here" in result.output
    assert json.loads(runner.invoke(app, ["memory", "tombstones", "--db", db, "--json"]).output) == []
    assert "lives_in" in runner.invoke(app, ["memory", "get", SECRET, "--db", db]).output


def test_a_failing_block_rolls_the_memory_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the experience store cannot take the block, the memory's forget is rolled back: the
    concept stays in both, and the forget can simply be run again. (Experiences in a file of their
    own: in the memory's own file, the default, the block follows the forget's commit, below.)"""
    from zerolang.experience import forgotten

    with zerolang.memory.open(tmp_path / "m.db", experiences=tmp_path / "e.db") as memory:
        memory.remember([(SECRET, "lives_in", "Lyon")], source="chat")
        capture(memory.experiences)

        def broken(*args: object, **kwargs: object) -> int:
            raise OSError("disk full")

        monkeypatch.setattr(forgotten, "apply_forget", broken)
        with pytest.raises(OSError, match="disk full"):
            memory.forget("concept", SECRET)
        assert memory.store.get_concept_by_label(SECRET) is not None
        assert memory.store.backend.tombstones() == []
        monkeypatch.undo()
        memory.forget("concept", SECRET)
        assert memory.store.get_concept_by_label(SECRET) is None
        assert "zorblax" not in leaks(repr(memory.recall_turns("Zorblax Lyon", limit=50)))


def test_experiences_in_the_memorys_own_file_are_blocked_too(tmp_path: Path) -> None:
    """One SQLite file for both (one writer at a time): the block follows the forget's commit
    instead of waiting on it."""
    shared = tmp_path / "both.db"
    store = storage.open_store(shared)
    with zerolang.memory.Memory(store, experiences=shared) as memory:  # closes the store too
        memory.remember([(SECRET, "lives_in", "Lyon")], source="chat")
        capture(memory.experiences)
        assert leaks(repr(memory.recall_turns("Zorblax Lyon", limit=50)))
        memory.forget("concept", SECRET)
        left = leaks(repr(memory.recall_turns("Zorblax Lyon", limit=50)))
        assert "zorblax" not in left and "quuxly" not in left
