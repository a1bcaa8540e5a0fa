"""Working, episodic and semantic memory and consolidation, on the SQLite store with a pinned clock."""

from __future__ import annotations

import math

import pytest

from tests.knowledge.recall.conftest import DAY, T0, Clock, add
from zerolang.knowledge.tiers import (
    EpisodicMemory,
    SemanticMemory,
    WorkingMemory,
    bayes_merge,
    consolidate,
    decay,
    ensure_tiers,
)
from zerolang.knowledge.types import EpisodeHash
from zerolang.memory import MemoryStore, fact_hash
from zerolang.storage import open_store

WEEK = 7 * 24 * 3600.0


def episode(n: int) -> EpisodeHash:
    return EpisodeHash.of(str(n).encode())


def test_decay_halves_every_half_life() -> None:
    assert decay(0.8, WEEK, 0) == 0.8
    assert decay(0.8, WEEK, WEEK) == pytest.approx(0.4)
    assert decay(0.8, WEEK, 2 * WEEK) == pytest.approx(0.2)
    assert decay(0.8, WEEK, -WEEK) == 0.8  # an event in the future has not decayed yet


def test_bayes_merge() -> None:
    assert bayes_merge(0.5, 0.5) == 0.75
    assert bayes_merge(0.9, 0.0) == pytest.approx(0.9)


def test_tables_are_created_idempotently_and_leave_the_schema_version(store: MemoryStore) -> None:
    ensure_tiers(store)
    ensure_tiers(store)
    from zerolang.storage.schema import latest

    assert store.backend.schema_version == latest()  # type: ignore[attr-defined]
    assert store.check().ok


def test_tiers_survive_reopening(tmp_path: object, clock: Clock) -> None:
    path = f"{tmp_path}/m.db"
    with open_store(path) as store:
        WorkingMemory(store, "a", clock=clock).push(episode(1))
    with open_store(path, create=False) as store:
        assert WorkingMemory(store, "a", clock=clock).peek() == [episode(1)]


def test_working_memory_is_bounded_oldest_out(store: MemoryStore, clock: Clock) -> None:
    memory = WorkingMemory(store, "session-1", capacity=3, clock=clock)
    for n in range(3):
        assert memory.push(episode(n)) == []
    assert memory.push(episode(3)) == [episode(0)]
    assert memory.peek() == [episode(1), episode(2), episode(3)]
    assert memory.peek(2) == [episode(2), episode(3)]
    assert len(memory) == 3


def test_working_memory_is_per_session(store: MemoryStore, clock: Clock) -> None:
    one, two = WorkingMemory(store, "1", clock=clock), WorkingMemory(store, "2", clock=clock)
    one.push(episode(1))
    two.push(episode(2))
    assert one.peek() == [episode(1)] and two.peek() == [episode(2)]
    assert one.clear() == 1
    assert len(one) == 0 and len(two) == 1
    with pytest.raises(ValueError):
        WorkingMemory(store, "3", capacity=0)


def test_episodic_effective_confidence_decays_with_the_clock(store: MemoryStore, clock: Clock) -> None:
    add(store, ("a", "r", "b", 0.8))
    memory = EpisodicMemory(store, clock=clock)
    (found,) = memory.all()
    assert memory.effective_confidence(found) == pytest.approx(0.8)
    clock.advance(days=7)
    assert memory.effective_confidence(found) == pytest.approx(0.4)
    clock.advance(days=7)
    assert memory.recall(found.fact_hash)[0].effective(clock().timestamp(), WEEK) == pytest.approx(0.2)


def test_touch_counts_accesses_and_keeps_the_last(store: MemoryStore, clock: Clock) -> None:
    add(store, ("a", "r", "b", 0.8))
    memory = EpisodicMemory(store, clock=clock)
    key = memory.all()[0].episode_hash
    memory.touch([key])
    clock.advance(days=1)
    memory.touch([key, key])  # one access per call, however often listed
    (found,) = memory.all()
    assert found.access_count == 2
    assert found.last_access == "2026-03-02T00:00:00.000Z"


def test_sweep_removes_decayed_episodes_and_keeps_the_store_consistent(
    store: MemoryStore, clock: Clock
) -> None:
    old = T0 - 70 * DAY
    add(store, ("a", "r", "b", 0.8), ("a", "r", "c", 0.9), when=old, scope="old", learned=old)
    add(store, ("a", "r", "b", 0.5), when=T0, scope="new")
    memory = EpisodicMemory(store, min_confidence=0.01, clock=clock)
    # learned 70 days ago = 10 half-lives: 0.8 / 1024 and 0.9 / 1024 are below 0.01
    before = store.counts()
    assert sorted(e.base_confidence for e in memory.sweep(dry_run=True)) == [0.8, 0.9]
    assert store.relation_count() == 3  # a dry run changes nothing
    swept = memory.sweep()
    assert sorted(e.base_confidence for e in swept) == [0.8, 0.9]
    assert store.check().ok
    # the observations are pruned; the facts they taught and their concepts stay
    fact = store.get_fact(fact_hash("a", "r", "b"))
    assert fact is not None and fact.observations == 2 and fact.confidence == pytest.approx(0.9)
    lone = store.get_fact(fact_hash("a", "r", "c"))
    assert lone is not None and lone.confidence == pytest.approx(0.9)
    assert store.get_concept_by_label("c") is not None
    after = store.counts()
    assert (after.concepts, after.facts, after.contexts) == (before.concepts, before.facts, before.contexts)
    assert after.episodes == 1
    assert [p.reason for p in store.backend.pruned()] == ["decayed", "decayed"]
    assert memory.sweep() == []


def test_semantic_merge_is_bayesian_and_counts_observations(store: MemoryStore, clock: Clock) -> None:
    add(store, ("a", "r", "b", 0.5))
    memory = SemanticMemory(store, clock=clock)
    key = fact_hash("a", "r", "b")
    first = memory.store_or_merge(key, 0.5, episode(1))
    assert (first.confidence, first.observations, first.first_seen) == (0.5, 1, "2026-03-01T00:00:00.000Z")
    clock.advance(days=1)
    second = memory.store_or_merge(key, 0.5, episode(2))
    assert (second.confidence, second.observations) == (0.75, 2)
    assert second.first_seen == "2026-03-01T00:00:00.000Z"
    assert second.last_reinforced == "2026-03-02T00:00:00.000Z"
    assert memory.store_or_merge(key, 0.5, episode(2)) == second  # the same evidence counts once
    assert memory.fact_count() == 1


def test_consolidation_promotes_facts_with_enough_surviving_episodes(
    store: MemoryStore, clock: Clock
) -> None:
    for day in (0, 1, 2):
        add(store, ("a", "r", "b", 0.6), when=T0 - day * DAY, scope=f"d{day}")
    add(store, ("a", "r", "c", 0.6), when=T0, scope="d0")  # one episode only
    old = T0 - 100 * DAY
    add(store, ("x", "r", "y", 0.6), ("x", "r", "z", 0.6), when=old, scope="old", learned=old)
    result = consolidate(store, min_episodes=3, min_confidence=0.1, clock=clock)
    assert (result.promoted, result.reinforced, result.pruned) == (1, 0, 2)
    semantic = SemanticMemory(store, clock=clock).get_fact(fact_hash("a", "r", "b"))
    assert semantic is not None
    assert semantic.observations == 3
    assert semantic.confidence == pytest.approx(1 - 0.4**3)
    assert store.check().ok
    again = consolidate(store, min_episodes=3, clock=clock)
    assert (again.promoted, again.reinforced, again.pruned) == (0, 0, 0)


def test_semantic_episodes_are_never_swept(store: MemoryStore, clock: Clock) -> None:
    for day in (0, 1, 2):
        add(store, ("a", "r", "b", 0.6), when=T0 - day * DAY, scope=f"d{day}")
    consolidate(store, min_episodes=3, clock=clock)
    clock.advance(days=365)
    assert EpisodicMemory(store, clock=clock).sweep() == []
    assert store.relation_count() == 3


def test_consolidation_counts_decay(store: MemoryStore, clock: Clock) -> None:
    # three episodes, but one was learned 4 half-lives ago: 0.6 / 16 < 0.1, so only two survive
    for day in (0, 1, 28):
        add(store, ("a", "r", "b", 0.6), when=T0 - day * DAY, scope=f"d{day}", learned=T0 - day * DAY)
    assert consolidate(store, min_episodes=3, min_confidence=0.1, clock=clock).promoted == 0
    assert math.isclose(decay(0.6, WEEK, 28 * 86400), 0.0375)


def test_decay_counts_from_when_a_memory_was_learned_not_from_its_event_time(
    store: MemoryStore, clock: Clock
) -> None:
    """Facts about 1898 learned today are fresh: a sweep tomorrow prunes nothing."""
    from datetime import UTC, datetime

    long_ago = datetime(1898, 12, 21, tzinfo=UTC)
    add(store, ("curie", "discovered", "radium", 0.9), when=long_ago, scope="history", learned=T0)
    clock.advance(days=1)
    memory = EpisodicMemory(store, clock=clock)
    (found,) = memory.all()
    assert found.event_time.startswith("1898") and found.learned_at == "2026-03-01T00:00:00.000Z"
    assert memory.effective_confidence(found) == pytest.approx(0.9 * 2 ** (-1 / 7))
    assert memory.sweep() == [] and store.relation_count() == 1
    assert consolidate(store, min_episodes=1, clock=clock).promoted == 1  # it counts as still confident


def test_a_memory_used_recently_is_fresh_again(store: MemoryStore, clock: Clock) -> None:
    add(store, ("a", "r", "b", 0.8), learned=T0)
    memory = EpisodicMemory(store, clock=clock)
    clock.advance(days=70)  # ten half-lives after it was learned...
    (found,) = memory.all()
    assert memory.effective_confidence(found) == pytest.approx(0.8 / 1024)
    memory.touch([found.episode_hash])  # ...but used now
    (found,) = memory.all()
    assert memory.effective_confidence(found) == pytest.approx(0.8)
    assert memory.sweep() == []
    clock.advance(days=7)
    assert memory.effective_confidence(memory.all()[0]) == pytest.approx(0.4)


def test_a_clock_before_a_memory_was_learned_does_not_decay_it(store: MemoryStore, clock: Clock) -> None:
    add(store, ("a", "r", "b", 0.8), when=T0 - 700 * DAY, learned=T0)
    clock.advance(days=-30)
    memory = EpisodicMemory(store, clock=clock)
    assert memory.effective_confidence(memory.all()[0]) == pytest.approx(0.8)
    assert memory.sweep() == []
