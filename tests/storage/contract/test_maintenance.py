"""Maintenance never destroys knowledge: the docs' example data (docs/memory.md) with the real clock, on every backend."""

from __future__ import annotations

import pytest

from tests.storage.contract.helpers import example, make_input
from zerolang.knowledge.formats import checkpoint
from zerolang.knowledge.formats.delta import DeltaError, since
from zerolang.knowledge.formats.exchange import Format, export
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.tiers import EpisodicMemory, consolidate
from zerolang.memory import MemoryStore, ingest


def test_sweep_with_the_real_clock_keeps_every_fact_and_concept(store: MemoryStore) -> None:
    example(store)  # event times in February 2026: months old by the real clock
    before = store.counts()
    old = checkpoint.of_store(store)
    planned = EpisodicMemory(store).sweep(dry_run=True)
    assert len(planned) == before.episodes and store.counts() == before  # a dry run changes nothing
    swept = EpisodicMemory(store).sweep()
    assert len(swept) == before.episodes
    after = store.counts()
    assert (after.concepts, after.facts, after.contexts) == (before.concepts, before.facts, before.contexts)
    assert after.episodes == 0
    assert store.check().ok
    fact = store.get_facts(store.get_concept_by_label("agent").hash)[0]  # type: ignore[union-attr]
    assert fact.observations == 2 and fact.confidence == pytest.approx(0.985)
    rows = run_query(store, 'recall "agent" depth 2').rows
    assert [row["concept"] for row in rows][:1] == ["long-term-memory"]
    with pytest.raises(
        DeltaError, match=r"maintenance pruned 9 of its relations \(decayed.*export the whole store"
    ):
        since(store, old.hash)
    assert since(store, checkpoint.of_store(store).hash).additions.relations == ()


def test_consolidate_with_the_real_clock_keeps_knowledge(store: MemoryStore) -> None:
    example(store)
    before = store.counts()
    dry = consolidate(store, min_episodes=2, dry_run=True)
    assert dry.dry_run and dry.pruned == before.episodes and store.counts() == before
    result = consolidate(store, min_episodes=2)
    assert (result.promoted, result.pruned) == (dry.promoted, dry.pruned)
    after = store.counts()
    assert (after.concepts, after.facts) == (before.concepts, before.facts)
    assert store.check().ok


def test_deltas_since_a_checkpoint_after_the_prune_still_work(store: MemoryStore) -> None:
    example(store)
    EpisodicMemory(store).sweep()
    base = checkpoint.of_store(store)
    ingest(store, [make_input(("agent", "needs", "sleep", 0.5), scope="new")], now="2099-01-01T00:00:00.000Z")
    delta = since(store, base.hash)
    assert [r.predicate for r in delta.additions.relations] == ["needs"]
    assert "sleep" in export(store, Format.COMPACT, since=base.hash)


def test_reingesting_a_pruned_observation_is_a_duplicate(store: MemoryStore) -> None:
    example(store)
    EpisodicMemory(store).sweep()
    before = store.counts()
    example(store, now="2099-01-01T00:00:00.000Z")
    assert store.counts() == before
    assert store.check().ok
