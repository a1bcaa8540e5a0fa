"""Fixtures for the explorer: a demo store, a worker on it, the application under Starlette's client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the explore extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx (the test extra)")

from starlette.testclient import TestClient

import zerolang.memory
from tests.explore.stores import POLICY, Demo, make_demo
from zerolang.explore.app import build_app
from zerolang.explore.reads import Explorer
from zerolang.explore.worker import Worker


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    return make_demo(tmp_path_factory.mktemp("demo"))


def open_worker(demo: Demo, *, write: bool = False, space: str | None = None) -> Worker:
    def opened() -> Explorer:
        memory = zerolang.memory.open(
            demo.db, space=space, experiences=demo.experiences, archive=demo.archive, create=False
        )
        return Explorer(memory, write=write, policy=POLICY)

    return Worker(opened)


@pytest.fixture
def client(demo: Demo) -> Iterator[TestClient]:
    with open_worker(demo) as worker:
        yield TestClient(build_app(worker, ["testserver"]))


@pytest.fixture
def writable(tmp_path: Path) -> Iterator[tuple[TestClient, Demo]]:
    """A client of an explorer started --write, on a demo store of its own."""
    fresh = make_demo(tmp_path)
    with open_worker(fresh, write=True) as worker:
        yield TestClient(build_app(worker, ["testserver"])), fresh
