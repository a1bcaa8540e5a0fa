"""A store with a history, written before validity periods, opens and answers as it should.

`tests/fixtures/stores/history-2026-11-28.*` was written by main at 845de61 (`make_history.py`):
Bob at Acme (2019), Initech (2021), Globex (2023) and Acme again (2025), `works_at` single-valued
by the working folder's `pyproject.toml`, a retraction. After the upgrade the current answers are
what that release printed; the past, which it answered wrongly (a re-asserted value overwrote
its earlier interval), is exact; and the store declares the predicate it superseded by.
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

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stores"
NOW = "2026-06-01T00:00:00Z"


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def location(engine: str, tmp_path: Path) -> Iterator[str]:
    if engine == "sqlite":
        path = tmp_path / "history.db"
        shutil.copyfile(FIXTURES / "history-2026-11-28.db", path)
        yield str(path)
        return
    with restored(FIXTURES / "history-2026-11-28.pg.sql") as url:
        yield url


def zero(folder: Path, *arguments: str) -> object:
    completed = subprocess.run(
        [sys.executable, "-m", "zerolang", *arguments],
        capture_output=True,
        text=True,
        cwd=folder,  # no pyproject.toml here: the store carries its own meaning
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(FIXTURES.parents[2])},
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def bound(answer: object, name: str) -> list[str]:
    return sorted(row["bindings"][name] for row in answer)  # type: ignore[attr-defined]


def test_the_current_answers_are_what_that_release_printed(
    engine: str, location: str, tmp_path: Path
) -> None:
    recorded = json.loads((FIXTURES / f"expected-history-{engine}.json").read_text(encoding="utf-8"))
    for query, answer in recorded["queries"].items():
        if " as of " in query or " known at " in query:
            continue
        assert zero(tmp_path, "query", query, "--db", location, "--now", NOW, "--json") == answer, query


def test_the_past_is_exact_after_the_upgrade(location: str, tmp_path: Path) -> None:
    def ask(query: str) -> list[str]:
        return bound(zero(tmp_path, "query", query, "--db", location, "--now", NOW, "--json"), "x")

    assert ask("match (bob works_at ?x) as of 2020-06-01") == ["acme"]
    assert ask("match (bob works_at ?x) as of 2022-06-01") == ["initech"]
    assert ask("match (bob works_at ?x) as of 2024-01-01") == ["globex"]
    assert ask("match (bob works_at ?x) known at 2026-02-15") == ["initech"]
    assert ask("match (bob works_at ?x) known at 2026-03-15") == ["globex"]
    assert ask("match (bob likes ?x) as of 2024-01-01") == ["tea"]
    assert ask("match (bob likes ?x)") == []
    assert zero(tmp_path, "memory", "single-valued", "--db", location, "--json") == ["works_at"]
    checked = zero(tmp_path, "memory", "check", "--db", location, "--json")
    assert checked["problems"] == [], checked  # type: ignore[index]
