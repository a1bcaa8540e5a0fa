"""A batch that fails late (its writes done, its updates made) rolls back whole, and the replay
record by record stores exactly what a clean ingest stores, on both backends: nothing a rolled-back
transaction made (PostgreSQL's session functions for updates included) is counted on afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from zerolang.knowledge.compiler import compile_records
from zerolang.knowledge.formats import checkpoint
from zerolang.knowledge.formats.exchange import Format, export
from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple


def records(tag: str, count: int) -> list[Any]:
    inputs = [
        CompilerInput(
            (SemanticTuple(f"{tag} {n % 7}", "needs", f"{tag} {n % 5}", 0.5 + n % 4 / 10),),
            ContextMeta("2026-02-18T00:00:00Z", "test", f"{tag}{n}"),
        )
        for n in range(count)
    ]
    return compile_records(inputs, now="2026-03-01T00:00:00.000Z")


def test_a_batch_failing_after_its_updates_replays_cleanly(
    open_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = records("a", 20), records("a", 40)[20:]  # the second batch updates stored rows
    reference: MemoryStore = open_store(f"ref-{id(first)}")
    for batch in (first, second):
        reference.insert_records(batch, verify=False)

    store: MemoryStore = open_store()
    store.insert_records(first, verify=False)
    kind = type(store.backend)
    original = kind.write_plan
    failures = []

    def fail_once(self: Any, plan: Any, beside: Any = None) -> None:
        original(self, plan, beside)
        if not failures and (plan.concept_updates or plan.fact_updates):
            failures.append(plan)
            raise RuntimeError("injected failure after the batch's writes")

    monkeypatch.setattr(kind, "write_plan", fail_once)
    store.insert_records(second, verify=False)
    assert failures, "the second batch updated nothing: the test proves nothing"
    assert store.check().ok, store.check().problems
    assert checkpoint.of_store(store) == checkpoint.of_store(reference)
    assert export(store, Format.JSON) == export(reference, Format.JSON)  # confidences, counts, times
