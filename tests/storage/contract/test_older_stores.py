"""A store an older release wrote opens, is brought to today's schema, and reads back as it did.

The fixtures in tests/fixtures/stores were written by the release their name gives
(`make.py` says how): a SQLite file and a `pg_dump` of a PostgreSQL database, with rows in
every table. Opening one migrates it; what `zero memory` then prints of it must be what
that release printed (`expected-*.json`), and `check` must find every seal whole.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backends import restored
from zerolang.storage import open_store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stores"
RELEASES = ["main-2026-11-28"]
ROOT = FIXTURES.parents[2]


def zero(*arguments: str) -> object:
    completed = subprocess.run(
        [sys.executable, "-m", "zerolang", *arguments, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def read_back(location: str) -> dict[str, object]:
    """What `make.py` recorded, read with today's zerolang (of `check`, whether it found problems)."""
    found: dict[str, object] = {}
    for space in ("default", "other"):
        where = ("--db", location, "--space", space)
        found[space] = {
            "checkpoint": zero("memory", "checkpoint", *where),
            "stats": zero("memory", "stats", *where),
            "problems": zero("memory", "check", *where)["problems"],  # type: ignore[index]
            "tombstones": zero("memory", "tombstones", *where),
            "log": zero("memory", "log", *where),
        }
    return found


def expected(engine: str) -> dict[str, object]:
    recorded = json.loads((FIXTURES / f"expected-{engine}.json").read_text(encoding="utf-8"))
    for space in recorded.values():
        space["problems"] = space.pop("check")["problems"]
        # that release numbered the log's entries across the spaces; each space now numbers its own
        for number, entry in enumerate(space["log"], 1):
            entry["seq"] = number
    return dict(recorded)


@pytest.fixture
def postgres_copy(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh database holding the release's dump."""
    with restored(FIXTURES / f"{request.param}.pg.sql") as url:
        yield url


@pytest.mark.slow
@pytest.mark.parametrize("release", RELEASES)
def test_an_older_sqlite_store_opens_and_reads_as_it_did(release: str, tmp_path: Path) -> None:
    copy = tmp_path / "memory.db"
    shutil.copyfile(FIXTURES / f"{release}.db", copy)
    assert read_back(str(copy)) == expected("sqlite")
    with open_store(copy, create=False) as store:
        assert store.check().ok


@pytest.mark.slow
@pytest.mark.parametrize("postgres_copy", RELEASES, indirect=True)
def test_an_older_postgres_store_opens_and_reads_as_it_did(postgres_copy: str) -> None:
    assert read_back(postgres_copy) == expected("postgres")
    with open_store(postgres_copy, create=False) as store:
        assert store.check().ok
