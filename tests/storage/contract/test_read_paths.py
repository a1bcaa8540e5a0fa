"""Tiers, recall, query, formats and check give the same answers on every backend."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from tests.storage.contract.helpers import example, make_input
from zerolang import storage
from zerolang.knowledge.formats import checkpoint, delta
from zerolang.knowledge.formats.exchange import Format, export, import_text
from zerolang.knowledge.formats.levels import Level
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.recall import RecallOptions, recall
from zerolang.knowledge.tiers import EpisodicMemory, SemanticMemory, WorkingMemory, consolidate
from zerolang.knowledge.types import EpisodeHash
from zerolang.memory import MemoryStore, fact_hash, ingest

AT = datetime(2026, 2, 21, tzinfo=UTC)


def clock() -> datetime:
    return AT


QUERIES = [
    'recall "agent" depth 2 limit 10',
    'recall "agent" depth 3 rank by activation',
    'recall "long-term-memory" depth 2 where score > 0.3 order by label',
    "recall agent depth 2 from episodic since 7d",
    "match (?x ?p long-term-memory), (?y ?q ?x)",
    "match (agent ?p ?o) where confidence >= 0.9",
    "match (?s ?p ?o) where predicate in (needs, includes) order by ?s",
    "match (?s ?p ?o) where scope = 0-memory_design limit 3",
]


@pytest.fixture
def reference() -> MemoryStore:
    with storage.open_store() as memory:
        example(memory)
        yield memory


@pytest.mark.parametrize("text", QUERIES)
def test_queries_answer_as_on_the_reference(store: MemoryStore, reference: MemoryStore, text: str) -> None:
    example(store)
    ours = run_query(store, text, clock=clock, touch=False)
    theirs = run_query(reference, text, clock=clock, touch=False)
    assert ours.rows == theirs.rows
    assert ours.plan == theirs.plan


def test_recall_touches_and_frequency_follows(store: MemoryStore) -> None:
    example(store)
    first = recall(store, "agent", RecallOptions(depth=1), clock=clock)
    second = recall(store, "agent", RecallOptions(depth=1), clock=clock)
    assert [r.label for r in first] == [r.label for r in second]
    assert second[0].factors["frequency"] == 1.0


def test_formats_and_checkpoints_match_the_reference(store: MemoryStore, reference: MemoryStore) -> None:
    example(store)
    for form in Format:
        assert export(store, form) == export(reference, form)
    assert export(store, Format.COMPACT, Level.L1) == export(reference, Format.COMPACT, Level.L1)
    assert checkpoint.of_store(store) == checkpoint.of_store(reference)
    assert store.check().ok


def test_import_round_trip_and_deltas(open_store: Callable[..., MemoryStore], space: str) -> None:
    source = open_store()
    ingest(source, [make_input(("a", "r", "b", 0.5))], now="2026-03-01T00:00:00.000Z")
    base = checkpoint.of_store(source)
    ingest(source, [make_input(("b", "r", "c", 0.7), scope="later")], now="2026-03-02T00:00:00.000Z")
    text = export(source, Format.COMPACT, since=base.hash)
    target = open_store(f"{space}-copy")
    import_text(target, export(source, Format.COMPACT), "full.0c")
    assert checkpoint.of_store(target) == checkpoint.of_store(source)
    older = open_store(f"{space}-older")
    ingest(older, [make_input(("a", "r", "b", 0.5))], now="2026-03-01T00:00:00.000Z")
    assert checkpoint.of_store(older) == base
    delta.apply(older, delta.parse_delta(text))
    assert checkpoint.of_store(older) == checkpoint.of_store(source)


def test_tiers(store: MemoryStore) -> None:
    ingest(
        store,
        [
            make_input(("a", "r", "b", 0.6), event_time=f"2026-02-{d:02}T00:00:00Z", scope=f"d{d}")
            for d in (18, 19, 20)
        ],
    )
    working = WorkingMemory(store, "s1", capacity=2, clock=clock)
    keys = [EpisodeHash.of(bytes([n])) for n in range(3)]
    assert working.push(keys[0]) == [] and working.push(keys[1]) == []
    assert working.push(keys[2]) == [keys[0]]
    assert working.peek() == keys[1:] and len(working) == 2
    assert WorkingMemory(store, "s2", clock=clock).peek() == []
    result = consolidate(store, min_episodes=3, clock=clock)
    assert (result.promoted, result.pruned) == (1, 0)
    semantic = SemanticMemory(store, clock=clock).get_fact(fact_hash("a", "r", "b"))
    assert semantic is not None and semantic.observations == 3
    assert semantic.confidence == pytest.approx(1 - 0.4**3)
    assert consolidate(store, min_episodes=3, clock=clock).promoted == 0
    episodes = EpisodicMemory(store, clock=clock)
    episodes.touch([e.episode_hash for e in episodes.all()][:1])
    assert sorted(e.access_count for e in episodes.all()) == [0, 0, 1]
    assert store.check().ok
