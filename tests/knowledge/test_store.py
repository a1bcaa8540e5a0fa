"""The SQLite store: dedup and merge rules, lookups, atomicity, persistence, and `check`."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from zerolang.knowledge.hashing import concept_hash, context_hash, fact_hash
from zerolang.memory import (
    AliasTable,
    ConceptHash,
    FactHash,
    InsertResult,
    MemoryStore,
    Progress,
    compile_record,
)
from zerolang.storage import open_store
from zerolang.storage.errors import ConstraintError
from zerolang.util.errors import ZeroError

from .conftest import LATER, NOW, SPEC_CONTEXT, dump, make_input

NEEDS = ("Agent", "needs", "LTM", 0.9)


def sql(store: MemoryStore) -> sqlite3.Connection:
    """The SQLite connection under a store (these tests tamper with rows behind the backend's back)."""
    connection: sqlite3.Connection = store.backend.connection  # type: ignore[attr-defined]
    return connection


def test_insert_then_get_concept(store: MemoryStore) -> None:
    result = store.insert_record(compile_record(make_input(NEEDS), now=NOW))
    assert result == InsertResult(new_concepts=2, new_facts=1, new_episodes=1, duplicates=0)
    concept = store.get_concept(concept_hash("agent"))
    assert concept is not None
    assert (concept.label, concept.aliases, concept.confidence) == ("agent", ("Agent",), 0.9)
    assert (concept.created_at, concept.updated_at) == (NOW, NOW)
    assert store.get_concept(concept_hash("nobody")) is None


def test_the_same_concept_twice_is_stored_once(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(NEEDS)))
    result = store.insert_record(compile_record(make_input(("agent", "likes", "tea", 0.5))))
    assert result.new_concepts == 1  # only `tea`
    assert store.concept_count() == 3


def test_reingesting_the_same_input_changes_nothing(store: MemoryStore) -> None:
    source = make_input(NEEDS, ("LTM", "includes", "episodic memory", 0.8))
    store.insert_record(compile_record(source, now=NOW))
    before = dump(store)
    again = store.insert_record(compile_record(source, now=LATER))
    assert again == InsertResult(duplicates=2)
    assert dump(store) == before  # not even updated_at moves


def test_one_fact_from_two_contexts_is_one_fact_with_two_episodes(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(NEEDS), now=NOW))
    result = store.insert_record(
        compile_record(make_input(("agent", "needs", "LTM", 0.5), scope="other"), now=LATER)
    )
    assert result == InsertResult(new_concepts=0, new_facts=0, new_episodes=1, duplicates=0)
    key = fact_hash("agent", "needs", "long-term-memory")
    episodes = store.get_relations_by_fact(key)
    assert len(episodes) == 2
    assert {episode.confidence for episode in episodes} == {0.9, 0.5}
    fact = store.get_fact(key)
    assert fact is not None
    assert fact.observations == 2
    assert fact.confidence == pytest.approx(1 - (1 - 0.9) * (1 - 0.5))
    assert (fact.created_at, fact.updated_at) == (NOW, LATER)
    third = make_input(("agent", "needs", "LTM", 0.2), scope="third")
    store.insert_record(compile_record(third, now=LATER))
    fact = store.get_fact(key)
    assert fact is not None and fact.observations == 3
    assert fact.confidence == pytest.approx(1 - 0.1 * 0.5 * 0.8)


def test_concept_merge_rule(store: MemoryStore) -> None:
    """Higher confidence kept, aliases merged in first-seen order, updated_at refreshed, created_at kept."""
    store.insert_record(compile_record(make_input(("Agent", "needs", "LTM", 0.9)), now=NOW))
    store.insert_record(compile_record(make_input(("AGENT", "wants", "tea", 0.3), scope="b"), now=LATER))
    agent = store.get_concept(concept_hash("agent"))
    assert agent is not None
    assert agent.confidence == 0.9  # a lower confidence does not lower it
    assert agent.aliases == ("Agent", "AGENT")
    assert (agent.created_at, agent.updated_at) == (NOW, LATER)
    store.insert_record(compile_record(make_input((" agent ", "is", "busy", 1.0), scope="c"), now=LATER))
    agent = store.get_concept(concept_hash("agent"))
    assert agent is not None and agent.confidence == 1.0 and agent.aliases == ("Agent", "AGENT")
    # an older record does not move updated_at back
    store.insert_record(compile_record(make_input(("Agent", "was", "idle", 0.1), scope="d"), now=NOW))
    agent = store.get_concept(concept_hash("agent"))
    assert agent is not None and agent.updated_at == LATER


def test_get_concept_by_label_normalises_and_resolves_aliases(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(NEEDS)))
    for query in ("agent", "  AGENT ", "LTM", "long_term.memory", "long term memory"):
        assert store.get_concept_by_label(query) is not None, query
    assert store.get_concept_by_label("nobody") is None
    assert store.get_concept_by_label("   ") is None


def test_spellings_seen_at_ingest_resolve_even_without_their_alias_table(store: MemoryStore) -> None:
    custom = AliasTable.default().extended({"Mem0": "0-memory"})
    store.insert_record(compile_record(make_input(("Mem0", "stores", "facts", 1.0)), custom))
    found = store.get_concept_by_label("MEM0")  # default table: `mem0` is no alias, but it was written so
    assert found is not None and found.label == "0-memory"


def test_get_relations_goes_both_ways(store: MemoryStore) -> None:
    store.insert_record(
        compile_record(
            make_input(NEEDS, ("0-memory", "provides", "LTM", 0.8), ("LTM", "holds", "facts", 0.7))
        )
    )
    ltm = concept_hash("long-term-memory")
    relations = store.get_relations(ltm)
    assert len(relations) == 3
    assert {r.predicate for r in relations} == {"needs", "provides", "holds"}
    assert all(ltm in (r.subject_hash, r.object_hash) for r in relations)
    facts = store.get_facts(ltm)
    assert [f.predicate for f in facts] == ["needs", "provides", "holds"]  # most confident first
    assert [r.predicate for r in store.get_relations(concept_hash("facts"))] == ["holds"]


def test_self_relations_are_listed_once(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(("loop", "feeds", "loop", 1.0))))
    assert len(store.get_relations(concept_hash("loop"))) == 1
    concept = store.get_concept(concept_hash("loop"))
    assert concept is not None and len(store.recall(concept).facts) == 1


def test_get_context(store: MemoryStore) -> None:
    from zerolang.memory import CompilerInput, ContextMeta, SemanticTuple

    meta = ContextMeta("2026-02-18T00:00:00Z", "user_prompt", "0-memory_design", "a-1", "s-1", {"k": "v"})
    store.insert_record(compile_record(CompilerInput((SemanticTuple("a", "p", "b"),), meta)))
    node = store.get_context(context_hash(SPEC_CONTEXT))
    assert node is not None and node.meta == meta
    assert store.get_context(context_hash(meta)) == node


def test_lookups_refuse_the_wrong_hash_type(store: MemoryStore) -> None:
    fact = fact_hash("a", "p", "b")
    with pytest.raises(TypeError):
        store.get_concept(fact)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        store.get_relations_by_fact(ConceptHash(fact.digest))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        store.get_relations(FactHash(fact.digest))  # type: ignore[arg-type]


def test_find_concept_by_hash_and_prefix(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(NEEDS)))
    agent = str(concept_hash("agent"))
    assert store.find_concept(agent) is not None
    assert store.find_concept(agent[:8]) is not None
    assert store.find_concept(agent.upper()[:10]) is not None
    assert store.find_concept("ffffffff") is None
    assert store.find_concept("abc") is None  # too short for a prefix, and no such label


def test_ambiguous_prefix(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(NEEDS)))
    agent = str(concept_hash("agent"))
    sql(store).execute("PRAGMA foreign_keys = OFF")
    twin = bytes.fromhex(agent[:8] + "0" * 56)
    sql(store).execute("INSERT INTO concepts VALUES ('default', ?, 'twin', 1.0, 'x', 'x')", (twin,))
    with pytest.raises(
        ZeroError, match=f"hash prefix {agent[:8]} is ambiguous: {agent[:8]}0000, {agent[:12]}"
    ):
        store.find_concept(agent[:8])
    assert store.find_concept(agent[:9]) is not None


def test_recall_view(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(NEEDS), now=NOW))
    store.insert_record(
        compile_record(make_input(("agent", "needs", "LTM", 0.5), event_time="2026-02-19"), now=LATER)
    )
    concept = store.get_concept_by_label("LTM")
    assert concept is not None
    document = store.recall(concept).to_json()
    assert list(document) == ["concept", "facts"]
    assert list(document["concept"]) == ["hash", "label", "aliases", "confidence", "created_at", "updated_at"]  # type: ignore[arg-type]
    (fact,) = document["facts"]  # type: ignore[misc]
    assert list(fact) == [
        "fact_hash",
        "subject",
        "predicate",
        "object",
        "confidence",
        "observations",
        "valid_to",
        "retired_at",
        "retired_by",
        "episodes",
    ]
    assert (fact["subject"], fact["object"], fact["observations"]) == ("agent", "long-term-memory", 2)
    assert [episode["event_time"] for episode in fact["episodes"]] == ["2026-02-18T00:00:00Z", "2026-02-19"]
    assert list(fact["episodes"][0]) == [
        "episode_hash",
        "context_hash",
        "confidence",
        "event_time",
        "source",
        "scope",
    ]


def test_counts(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(NEEDS, ("a", "p", "b", 1.0))))
    store.insert_record(compile_record(make_input(NEEDS, scope="two")))
    counts = store.counts()
    assert counts.to_json() == {"concepts": 4, "facts": 2, "episodes": 3, "contexts": 2}
    assert (store.concept_count(), store.fact_count(), store.relation_count()) == (4, 2, 3)


# ---- atomicity and batches ------------------------------------------------------------------


def _fail_on_confidence(store: MemoryStore, confidence: float) -> None:
    sql(store).execute(
        f"CREATE TEMP TRIGGER fail BEFORE INSERT ON episodes WHEN NEW.confidence = {confidence}"
        " BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    )


def test_a_failing_record_leaves_no_trace(store: MemoryStore) -> None:
    store.insert_record(compile_record(make_input(NEEDS)))
    before = dump(store)
    _fail_on_confidence(store, 0.123)
    bad = make_input(("new", "thing", "here", 0.5), ("other", "thing", "there", 0.123), scope="bad")
    with pytest.raises(ConstraintError, match="injected failure"):
        store.insert_record(compile_record(bad))
    assert dump(store) == before
    assert store.check().ok


def test_a_batch_keeps_the_records_finished_before_a_failure(store: MemoryStore) -> None:
    _fail_on_confidence(store, 0.123)
    records = [compile_record(make_input((f"s{i}", "p", "o", 0.5), scope=f"r{i}")) for i in range(5)]
    records.insert(3, compile_record(make_input(("x", "p", "y", 0.123), scope="bad")))
    with pytest.raises(ConstraintError):
        store.insert_records(records, batch_size=10)
    assert store.counts().episodes == 3
    assert not sql(store).in_transaction
    assert store.check().ok


def test_batches_commit_as_they_go(store: MemoryStore) -> None:
    seen: list[Progress] = []
    records = [compile_record(make_input((f"s{i}", "p", "o", 0.5), scope=f"r{i}")) for i in range(7)]
    totals = store.insert_records(records, batch_size=3, progress=seen.append)
    assert totals == InsertResult(new_concepts=8, new_facts=7, new_episodes=7, duplicates=0)
    assert [(p.done, p.committed) for p in seen] == [(3, 0), (3, 3), (6, 3), (6, 6), (7, 6), (7, 7)]
    with pytest.raises(ValueError):
        store.insert_records(records, batch_size=0)


# ---- files ----------------------------------------------------------------------------------


def test_a_file_database_persists_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with open_store(path) as store:
        store.insert_record(compile_record(make_input(NEEDS)))
        assert sql(store).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert sql(store).execute("PRAGMA foreign_keys").fetchone()[0] == 0  # declared; check resolves them
    with open_store(path, create=False) as store:
        assert store.counts().facts == 1
        assert store.check().ok


def test_opening_refuses_what_is_not_ours(tmp_path: Path) -> None:
    with pytest.raises(ZeroError, match="no memory database here"):
        open_store(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(ZeroError, match="not a zerolang memory database"):
        open_store(other)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all, not even close" * 100)
    with pytest.raises(ZeroError, match="not a usable memory database"):
        open_store(junk)
    newer = tmp_path / "newer.db"
    open_store(newer).close()
    connection = sqlite3.connect(newer)
    connection.execute("PRAGMA user_version = 99")
    connection.close()
    with pytest.raises(ZeroError, match="made by a newer zerolang"):
        open_store(newer)


# ---- check ----------------------------------------------------------------------------------


@pytest.fixture
def filled(store: MemoryStore) -> MemoryStore:
    store.insert_record(compile_record(make_input(NEEDS, ("LTM", "includes", "episodic memory", 0.8))))
    store.insert_record(compile_record(make_input((*NEEDS[:3], 0.5), scope="two")))
    assert store.check().ok
    sql(store).execute("PRAGMA foreign_keys = OFF")
    return store


def _problems(store: MemoryStore) -> list[str]:
    return [str(problem) for problem in store.check().problems]


def test_check_finds_a_tampered_label(filled: MemoryStore) -> None:
    agent = str(concept_hash("agent"))
    sql(filled).execute("UPDATE concepts SET label = 'agnet' WHERE label = 'agent'")
    problems = _problems(filled)
    assert any(p.startswith(f"concept {agent}: hash does not match its label 'agnet'") for p in problems)


def test_check_finds_a_tampered_fact_and_context(filled: MemoryStore) -> None:
    fact = str(fact_hash("agent", "needs", "long-term-memory"))
    context = str(context_hash(SPEC_CONTEXT))
    sql(filled).execute("UPDATE facts SET predicate = 'wants' WHERE predicate = 'needs'")
    sql(filled).execute("UPDATE contexts SET scope = 'elsewhere' WHERE hash = ?", (bytes.fromhex(context),))
    problems = _problems(filled)
    assert f"fact {fact}: hash does not match 'agent|wants|long-term-memory' " in " ".join(problems) + " "
    assert any(p.startswith(f"context {context}: hash does not match") for p in problems)


def test_check_finds_folded_confidences_and_counts_that_disagree(filled: MemoryStore) -> None:
    fact = str(fact_hash("agent", "needs", "long-term-memory"))
    sql(filled).execute("UPDATE facts SET confidence = 0.5 WHERE hash = ?", (bytes.fromhex(fact),))
    assert any(p.startswith(f"fact {fact}: confidence 0.5 does not fold") for p in _problems(filled))
    sql(filled).execute("UPDATE facts SET observations = 7 WHERE hash = ?", (bytes.fromhex(fact),))
    assert f"fact {fact}: records 7 observations but has 2 episodes" in _problems(filled)


def test_check_finds_missing_references_and_orphans(filled: MemoryStore) -> None:
    agent = concept_hash("agent")
    sql(filled).execute("DELETE FROM concepts WHERE hash = ?", (agent.digest,))
    sql(filled).execute("DELETE FROM episodes WHERE confidence = 0.8")
    problems = _problems(filled)
    fact = str(fact_hash("agent", "needs", "long-term-memory"))
    assert f"fact {fact}: its subject concept {agent} is missing" in problems
    assert any(p.startswith("database: facts row") for p in problems)  # SQLite's own foreign key check
    assert any(p.startswith(f"alias {agent}: alias 'Agent' names a missing concept") for p in problems)
    includes = str(fact_hash("long-term-memory", "includes", "episodic-memory"))
    assert f"fact {includes}: records 1 observations but has 0 episodes" in problems
    assert (
        f"concept {concept_hash('episodic-memory')}: no fact refers to it" not in problems
    )  # the fact still does


def test_check_finds_a_tampered_episode(filled: MemoryStore) -> None:
    sql(filled).execute("UPDATE episodes SET context_hash = ? WHERE confidence = 0.5", (b"\x01" * 32,))
    problems = _problems(filled)
    assert any("its context 0101" in p for p in problems)
    assert any("hash does not match its fact and context" in p for p in problems)
    assert any(p.startswith("context ") and p.endswith("no episode refers to it") for p in problems)


def test_check_report_json(filled: MemoryStore) -> None:
    report = filled.check()
    assert report.to_json() == {
        "ok": True,
        "checked": {"concepts": 3, "facts": 2, "episodes": 3, "contexts": 2},
        "problems": [],
    }


def test_engine_errors_become_one_line() -> None:
    import zerolang.storage.sqlite.backend  # noqa: F401 - registers its engine's errors
    from zerolang.storage import storage_errors

    with (
        pytest.raises(ZeroError, match=r"^the memory store failed: database or disk is full$"),
        storage_errors(),
    ):
        raise sqlite3.OperationalError("database or disk is full")
    with pytest.raises(KeyError), storage_errors():
        raise KeyError("not ours: passes through")


def test_the_cli_ingests_in_the_library_s_batches() -> None:
    import inspect

    from zerolang.cli import memory_cmd
    from zerolang.knowledge.store import DEFAULT_BATCH_SIZE

    assert inspect.signature(memory_cmd.ingest).parameters["batch_size"].default == DEFAULT_BATCH_SIZE


def test_a_location_given_to_memory_store_says_how_to_open_one() -> None:
    with pytest.raises(TypeError, match=r"open a store with zerolang.storage.open_store\(location\)"):
        MemoryStore("memory.db")  # type: ignore[arg-type]
