"""Levels (L0 ids, L1 facts, L2 = .0c), checkpoints and deltas: `apply(old, diff(old, new)) == new`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.knowledge.formats.strategies import histories, records
from zerolang.knowledge.formats import checkpoint, delta, serialize
from zerolang.knowledge.formats.levels import Level, level_of, read_l0, read_l1, render, short_ids
from zerolang.knowledge.formats.model import Snapshot, read_store
from zerolang.knowledge.formats.seal import seal
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.types import MemoryRecord
from zerolang.storage import open_store


def _store(history: list[MemoryRecord]) -> MemoryStore:
    store = open_store()
    for record in history:
        store.insert_record(record)
    return store


@settings(max_examples=40, deadline=None)
@given(records())
def test_levels_keep_what_they_promise(record: MemoryRecord) -> None:
    snapshot = Snapshot.of_record(record)
    assert render(record, Level.L2) == seal(serialize(record))
    ids = read_l0(render(record, Level.L0))
    assert sorted(ids) == sorted(short_ids([c.hash for c in record.concepts]))
    for concept in record.concepts:
        assert sum(concept.hash.hex().startswith(short) for short in ids) >= 1
    labels = {c.hash: c.label for c in snapshot.concepts}
    facts = {(labels[r.subject_hash], r.predicate, labels[r.object_hash]) for r in record.relations}
    l1 = render(record, Level.L1)
    assert set(read_l1(l1)) == facts
    assert "left out: confidences, aliases, times" in l1
    assert [level_of(render(record, level)) for level in Level] == list(Level)


def test_short_ids_lengthen_on_collision() -> None:
    from zerolang.knowledge.types import ConceptHash

    a = ConceptHash(bytes.fromhex("abc1" + "0" * 60))
    b = ConceptHash(bytes.fromhex("abc2" + "0" * 60))
    c = ConceptHash(bytes.fromhex("ff" + "0" * 62))
    assert short_ids([a, b, c]) == ["abc1", "abc2", "ff"]


@settings(max_examples=30, deadline=None)
@given(histories(), st.data())
def test_apply_diff_gives_the_new_store(history: list[MemoryRecord], data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(history)))
    with _store(history[:cut]) as old, _store(history) as new:
        before, after = read_store(old), read_store(new)
        made = delta.diff(before, after)
        text = made.to_text()
        assert delta.is_delta(text)
        assert delta.parse_delta(text) == made
        assert delta.since(new, checkpoint.of_store(old).hash) == made
        assert delta.apply(old, delta.parse_delta(text)) == checkpoint.of_store(new)
        assert read_store(old) == after


def test_a_delta_on_another_base_is_refused_and_changes_nothing(example_record: MemoryRecord) -> None:
    with open_store() as empty, open_store() as full:
        full.insert_record(example_record)
        made = delta.diff(read_store(empty), read_store(full))
        delta.apply(empty, made)
        before = read_store(empty)
        with pytest.raises(delta.DeltaError, match="applies on checkpoint"):
            delta.apply(empty, made)
        assert read_store(empty) == before


def test_a_failing_delta_is_rolled_back(example_record: MemoryRecord) -> None:
    import dataclasses

    with open_store() as store:
        made = delta.diff(Snapshot((), (), ()), Snapshot.of_record(example_record))
        broken = dataclasses.replace(example_record.relations[-1], predicate="tampered")
        relations = (*made.additions.relations[:-1], broken)
        bad = delta.Delta(made.base, dataclasses.replace(made.additions, relations=relations))
        with pytest.raises(ValueError, match="fact_hash does not match"):
            delta.apply(store, bad)
        assert store.counts().episodes == 0


def test_diff_refuses_removals(example_record: MemoryRecord) -> None:
    with pytest.raises(delta.DeltaError, match="only adds"):
        delta.diff(Snapshot.of_record(example_record), Snapshot((), (), ()))


def test_checkpoints_depend_on_content_not_order(example_record: MemoryRecord) -> None:
    snapshot = Snapshot.of_record(example_record)
    reversed_ = Snapshot(snapshot.concepts[::-1], snapshot.contexts, snapshot.relations[::-1])
    assert checkpoint.of_snapshot(snapshot) == checkpoint.of_snapshot(reversed_)
    with open_store() as store:
        store.insert_record(example_record)
        assert checkpoint.of_store(store) == checkpoint.of_snapshot(snapshot)
    assert checkpoint.of_snapshot(Snapshot((), (), ())).concepts == 0
