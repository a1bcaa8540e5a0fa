"""Spaces isolate completely, on every backend; content hashes do not depend on the space."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from tests.storage.contract.helpers import make_input
from zerolang.knowledge.formats import checkpoint
from zerolang.knowledge.formats.exchange import Format, export
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.tiers import EpisodicMemory, WorkingMemory, consolidate
from zerolang.memory import MemoryStore, concept_hash, fact_hash, ingest

NOW = "2026-03-01T00:00:00.000Z"


def clock() -> datetime:
    return datetime(2026, 2, 21, tzinfo=UTC)


def test_same_labels_in_two_spaces_never_meet(open_store: Callable[..., MemoryStore], space: str) -> None:
    alice, bob = open_store(f"{space}-alice"), open_store(f"{space}-bob")
    ingest(
        alice,
        [make_input(("agent", "needs", "memory", 0.9), ("agent", "likes", "tea", 0.8), scope="alice")],
        now=NOW,
    )
    ingest(
        bob,
        [make_input(("agent", "needs", "sleep", 0.4), ("agent", "needs", "memory", 0.2), scope="bob")],
        now=NOW,
    )
    # the same fact in both: the same FactHash, its own confidence per space
    shared = fact_hash("agent", "needs", "memory")
    a, b = alice.get_fact(shared), bob.get_fact(shared)
    assert a is not None and b is not None and a.fact_hash == b.fact_hash
    assert (a.confidence, b.confidence) == (0.9, 0.2)
    assert bob.get_concept_by_label("tea") is None and alice.get_concept_by_label("sleep") is None
    assert alice.find_concept(str(concept_hash("sleep"))[:10]) is None
    assert alice.counts().to_json() == {"concepts": 3, "facts": 2, "episodes": 2, "contexts": 1}
    assert bob.counts().to_json() == {"concepts": 3, "facts": 2, "episodes": 2, "contexts": 1}
    seen = run_query(alice, "match (agent ?p ?o)", clock=clock)
    assert sorted(row["bindings"]["o"] for row in seen.rows) == ["memory", "tea"]
    recalled = run_query(bob, 'recall "agent" depth 3', clock=clock)
    assert sorted(row["concept"] for row in recalled.rows) == ["memory", "sleep"]
    assert run_query(bob, "match (?s ?p ?o) where scope = alice").rows == []
    view = bob.recall(bob.get_concept_by_label("agent"))  # type: ignore[arg-type]
    assert {e.scope for f in view.facts for e in f.episodes} == {"bob"}
    assert "tea" not in export(bob, Format.COMPACT) and "alice" not in export(bob, Format.JSON)
    assert checkpoint.of_store(alice) != checkpoint.of_store(bob)
    assert {f"{space}-alice", f"{space}-bob"} <= set(alice.spaces())
    assert alice.check().ok and bob.check().ok


def test_tiers_and_maintenance_stay_in_their_space(
    open_store: Callable[..., MemoryStore], space: str
) -> None:
    one, two = open_store(f"{space}-one"), open_store(f"{space}-two")
    for store in (one, two):
        ingest(
            store,
            [
                make_input(("a", "r", "b", 0.6), event_time=f"2026-02-{d}T00:00:00Z", scope=f"d{d}")
                for d in (18, 19, 20)
            ],
            now=NOW,
        )
    (episode,) = one.get_relations_by_fact(fact_hash("a", "r", "b"))[:1]
    WorkingMemory(one, "session").push(episode.episode_hash)
    assert WorkingMemory(two, "session").peek() == []
    assert consolidate(one, min_episodes=3, clock=clock).promoted == 1
    assert run_query(two, "match (?s ?p ?o) from semantic", clock=clock).rows == []
    assert run_query(two, "match (?s ?p ?o) from working", clock=clock).rows == []
    assert len(EpisodicMemory(two, clock=lambda: datetime(2027, 1, 1, tzinfo=UTC)).sweep()) == 3
    assert one.counts().episodes == 3 and two.counts().episodes == 0
    assert two.get_fact(fact_hash("a", "r", "b")) is not None  # the fact outlives its episodes
    EpisodicMemory(one).touch([episode.episode_hash])
    assert [e.access_count for e in EpisodicMemory(one).all() if e.episode_hash == episode.episode_hash] == [
        1
    ]
