"""A large batch computes its seal changes in a helper thread while the engine writes
(`zerolang.storage.sql.alongside`): the store it makes is the one an inline write makes,
and a failure on either side surfaces and rolls the batch back as before."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.storage.contract.helpers import make_input
from zerolang.knowledge.compiler import compile_record
from zerolang.knowledge.formats import checkpoint
from zerolang.knowledge.types import MemoryRecord
from zerolang.memory import MemoryStore
from zerolang.storage.errors import ConstraintError
from zerolang.storage.sql import records as sql_records

NOW = "2026-03-01T00:00:00.000Z"


def batch(count: int = 80, offset: int = 0) -> list[MemoryRecord]:
    """`count` records of 10 relations (more than a thread is started for), some facts shared."""
    return [
        compile_record(
            make_input(
                *((f"c{(i * 7 + j) % 97}", "p", f"c{(i + j * 3) % 89}", 0.5) for j in range(10)),
                scope=f"r{i}",
            ),
            now=NOW,
        )
        for i in range(offset, offset + count)
    ]


def watch_seal_changes(monkeypatch: pytest.MonkeyPatch, fail_beside: bool) -> list[str]:
    """Record which thread computes each batch's seal changes; fail there if `fail_beside`."""
    threads: list[str] = []
    original: Callable[..., Any] = sql_records.seal_changes

    def seal_changes(*args: Any) -> Any:
        beside = threading.current_thread() is not threading.main_thread()
        threads.append("beside" if beside else "inline")
        if beside and fail_beside:
            raise RuntimeError("the seal changes failed")
        return original(*args)

    monkeypatch.setattr(sql_records, "seal_changes", seal_changes)
    return threads


def test_a_large_batch_makes_the_store_an_inline_one_makes(
    open_store: Callable[..., MemoryStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = watch_seal_changes(monkeypatch, fail_beside=False)
    large, small = open_store(), open_store("inline")
    records = batch() + batch(40, 20)  # the second half re-observes and updates what the first wrote
    large.insert_records(records[:80], batch_size=80, verify=False)
    large.insert_records(records[80:], batch_size=80, verify=False)
    assert "beside" in threads
    small.insert_records(records, batch_size=1, verify=False)
    assert checkpoint.of_store(large) == checkpoint.of_store(small)
    assert large.counts() == small.counts()
    assert large.check().ok and small.check().ok


def test_a_failure_beside_the_write_surfaces_and_rolls_the_batch_back(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = watch_seal_changes(monkeypatch, fail_beside=True)
    with pytest.raises(RuntimeError, match="the seal changes failed"):
        store.backend.apply_records(batch())
    assert threads == ["beside"]
    assert store.counts().episodes == 0 and store.counts().facts == 0
    assert store.check().ok


def test_a_batch_failing_beside_is_replayed_record_by_record(
    open_store: Callable[..., MemoryStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = watch_seal_changes(monkeypatch, fail_beside=True)
    store, reference = open_store(), open_store("reference")
    records = batch()
    store.insert_records(records, batch_size=len(records), verify=False)
    assert threads[0] == "beside" and set(threads[1:]) == {"inline"}
    reference.insert_records(records, batch_size=1, verify=False)
    assert checkpoint.of_store(store) == checkpoint.of_store(reference)
    assert store.check().ok


def test_a_large_batch_the_engine_refuses_keeps_the_records_before_the_culprit(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = watch_seal_changes(monkeypatch, fail_beside=False)
    records = batch()
    bad = compile_record(make_input(("x", "p", "y", 0.5), scope="bad"), now=NOW)
    object.__setattr__(bad.relations[0], "confidence", 7.0)  # past validation: the database refuses it
    with pytest.raises(ConstraintError):
        store.insert_records([*records, bad], batch_size=200, verify=False)
    assert threads[0] == "beside"
    assert store.counts().episodes == sum(len(record.relations) for record in records)
    assert store.check().ok
