"""The merge rules, on every backend: episode dedup, Bayesian fold, concept merge, context first-wins."""

from __future__ import annotations

import pytest

from tests.storage.contract.helpers import make_input
from zerolang.knowledge.compiler import compile_record
from zerolang.memory import InsertResult, MemoryStore, concept_hash, fact_hash, ingest
from zerolang.storage.errors import ConstraintError


def test_reingesting_changes_nothing(store: MemoryStore) -> None:
    first = ingest(store, [make_input(("agent", "needs", "memory", 0.9))], now="2026-03-01T00:00:00.000Z")
    assert first == InsertResult(2, 1, 1, 0)
    again = ingest(store, [make_input(("agent", "needs", "memory", 0.9))], now="2026-03-05T00:00:00.000Z")
    assert again == InsertResult(0, 0, 0, 1)
    concept = store.get_concept(concept_hash("agent"))
    assert concept is not None and concept.updated_at == "2026-03-01T00:00:00.000Z"


def test_facts_fold_their_episodes(store: MemoryStore) -> None:
    ingest(store, [make_input(("a", "r", "b", 0.5), scope="one")], now="2026-03-01T00:00:00.000Z")
    ingest(store, [make_input(("a", "r", "b", 0.5), scope="two")], now="2026-03-02T00:00:00.000Z")
    ingest(store, [make_input(("a", "r", "b", 0.2), scope="three")], now="2026-03-03T00:00:00.000Z")
    fact = store.get_fact(fact_hash("a", "r", "b"))
    assert fact is not None
    assert fact.observations == 3
    assert fact.confidence == pytest.approx(1 - 0.5 * 0.5 * 0.8)
    assert (fact.created_at, fact.updated_at) == ("2026-03-01T00:00:00.000Z", "2026-03-03T00:00:00.000Z")
    assert store.check().ok


def test_a_batch_folds_like_records_one_by_one(store: MemoryStore) -> None:
    records = [
        compile_record(make_input(("a", "r", "b", c), scope=f"s{i}"), now="2026-03-01T00:00:00.000Z")
        for i, c in enumerate((0.3, 0.6, 0.3))
    ]
    records.append(records[1])  # a duplicate inside the batch
    assert store.insert_records(records) == InsertResult(2, 1, 3, 1)
    fact = store.get_fact(fact_hash("a", "r", "b"))
    assert fact is not None and fact.confidence == pytest.approx(1 - 0.7 * 0.4 * 0.7)


def test_concepts_merge_by_max_latest_and_alias_union(store: MemoryStore) -> None:
    ingest(
        store, [make_input(("Agent", "needs", "memory", 0.4), scope="one")], now="2026-03-01T00:00:00.000Z"
    )
    ingest(
        store, [make_input(("AGENT", "needs", "memory", 0.9), scope="two")], now="2026-03-02T00:00:00.000Z"
    )
    ingest(
        store, [make_input(("agent ", "needs", "memory", 0.1), scope="three")], now="2026-02-01T00:00:00.000Z"
    )
    concept = store.get_concept(concept_hash("agent"))
    assert concept is not None
    assert concept.confidence == 0.9
    assert concept.created_at == "2026-03-01T00:00:00.000Z"
    assert concept.updated_at == "2026-03-02T00:00:00.000Z"
    assert concept.aliases[:2] == ("Agent", "AGENT")
    assert store.get_concept_by_label("AGENT") == concept


def test_the_first_context_keeps_its_optional_fields(store: MemoryStore) -> None:
    ingest(store, [make_input(("a", "r", "b", 0.5), agent_id="first")], now="2026-03-01T00:00:00.000Z")
    ingest(store, [make_input(("a", "r", "c", 0.5), agent_id="second")], now="2026-03-02T00:00:00.000Z")
    (relation,) = store.get_relations(concept_hash("c"))
    context = store.get_context(relation.context_hash)
    assert context is not None and context.meta.agent_id == "first"
    assert store.counts().contexts == 1


def test_a_failing_batch_keeps_the_records_before_the_culprit(store: MemoryStore) -> None:
    good = [compile_record(make_input((f"s{i}", "p", "o", 0.5), scope=f"r{i}")) for i in range(3)]
    bad = compile_record(make_input(("x", "p", "y", 0.5), scope="bad"))
    broken = type(bad)(bad.concepts, bad.relations[:0] + bad.relations, bad.context)
    object.__setattr__(broken.relations[0], "confidence", 7.0)  # past validation: the database refuses it
    with pytest.raises(ConstraintError):
        store.insert_records([*good, broken, good[0]], batch_size=10, verify=False)
    assert store.counts().episodes == 3
    assert store.check().ok
