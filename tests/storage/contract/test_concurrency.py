"""Four processes ingesting overlapping inputs at once end exactly where one serial ingest does."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.backends import Scratch, postgres_server
from tests.pooler import through
from tests.storage.contract.conftest import POOLED
from tests.storage.contract.workers import inputs, writer
from zerolang import storage
from zerolang.knowledge.backend import FactFilter
from zerolang.knowledge.formats import checkpoint
from zerolang.memory import MemoryStore, ingest


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


@pytest.mark.slow
def test_a_store_that_four_processes_create_at_once_opens_and_checks_whole(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The first open of a store races its migrations and the first recount of its seals: a process
    once refused a SQLite store another was creating, and a PostgreSQL recount lost a writer's seal
    fold (each about one creation in ten, before the fixes); through pgbouncer, the creators take turns by a transaction's lock, not a session's."""
    pooler = request.getfixturevalue("pooled_url") if backend == POOLED else None
    context = multiprocessing.get_context("spawn")
    ranges = [(0, 30), (20, 50), (0, 50), (40, 60)]
    with context.Pool(4) as pool:
        for round_ in range(6):
            with _fresh_location(backend, tmp_path / f"round{round_}.db", pooler) as where:
                done = pool.starmap(
                    writer, [(where, "default", a, b, seed) for seed, (a, b) in enumerate(ranges)]
                )
                assert done == [b - a for a, b in ranges]
                with storage.open_store(where) as store:
                    report = store.check()
                    assert report.ok, report


@contextmanager
def _fresh_location(backend: str, path: Path, pooler: str | None) -> Iterator[str]:
    if backend == "sqlite":
        yield str(path)
        return
    server = postgres_server()
    assert server.url is not None
    with Scratch(server.url) as url:
        yield url if pooler is None else through(url, int(urlsplit(pooler).port or 0))
