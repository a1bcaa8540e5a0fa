"""Four processes ingesting overlapping inputs at once end exactly where one serial ingest does."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable

import pytest

from tests.contract.workers import inputs, writer
from zerolang.formats import checkpoint
from zerolang.memory import MemoryStore, ingest
from zerolang.memory.backend import FactFilter


@pytest.mark.slow
def test_concurrent_overlapping_ingests_equal_a_serial_one(
    open_store: Callable[..., MemoryStore], location: str, space: str
) -> None:
    ranges = [(0, 120), (60, 180), (0, 180), (90, 200)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(4) as pool:
        done = pool.starmap(writer, [(location, space, a, b, seed) for seed, (a, b) in enumerate(ranges)])
    assert done == [b - a for a, b in ranges]
    shared = open_store()
    serial = open_store(f"{space}-serial")
    ingest(serial, inputs(0, 200))
    assert checkpoint.of_store(shared) == checkpoint.of_store(serial)
    assert shared.counts() == serial.counts()
    ours = {f.fact_hash: f for f in shared.backend.find_facts(FactFilter())}
    theirs = {f.fact_hash: f for f in serial.backend.find_facts(FactFilter())}
    assert ours.keys() == theirs.keys()
    for key, fact in ours.items():
        assert fact.observations == theirs[key].observations
        assert fact.confidence == pytest.approx(theirs[key].confidence, abs=1e-12)
    report = shared.check()
    assert report.ok, report
