"""One schema and one history for every engine: rendered once, never rewritten, and in agreement.

`zerolang.storage.schema.tables` defines the tables and `history` the numbered steps
(SQLAlchemy Core); `rendered.json` is what the engines run. These tests hold that the
file is what the definitions say, that a released step never changes, that a new store
is exactly what an older store becomes, and that opening a store needs no SQLAlchemy.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.backends import restored, scratch
from tests.storage.schemas import postgres_schema, sqlite_schema
from zerolang.storage import StorageError, open_store
from zerolang.storage.schema import RENDERED, latest, plan, shared_version, step
from zerolang.storage.schema.history import FIRST
from zerolang.storage.schema.render import text

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "stores"

# What each released step runs (the first 16 hex digits of the SHA-256 of its statements' JSON).
# A released step is history: stores took it as it was. A change of schema is a new step.
RELEASED = {
    ("sqlite", 1): "0247a4461c3a1fca",
    ("sqlite", 2): "74f963c06116487d",
    ("sqlite", 3): "3b039806c3427af4",
    ("sqlite", 4): "fd2743dcdce7e789",
    ("sqlite", 5): "0631eb4c1129189a",
    ("sqlite", 6): "18f570a119fedf13",
    ("sqlite", 7): "63f65e4ed4838df7",
    ("sqlite", 8): "18d6d75889606e9f",
    ("sqlite", 9): "caa72b6db5605276",
    ("sqlite", 10): "12be6172c80dfccc",
    ("sqlite", 11): "dd12f6c894372b8f",
    ("sqlite", 12): "4f53cda18c2baa0c",
    ("sqlite", 13): "d233594928fbc908",
    ("sqlite", 14): "8b1f03a685513a02",
    ("sqlite", 15): "3d928f12b924dfd8",
    ("sqlite", 16): "4f53cda18c2baa0c",
    ("sqlite", 17): "3fd3a2e1e30fdd33",
    ("sqlite", 18): "e0543db33a3208a8",
    ("postgresql", 5): "a026971bb9d55c02",
    ("postgresql", 6): "99ca239129c7445e",
    ("postgresql", 7): "7d2c20275c9b1a89",
    ("postgresql", 8): "f2c80e6e4742b523",
    ("postgresql", 9): "a886f8acdb3d8f08",
    ("postgresql", 10): "8275e1e05e0e0f04",
    ("postgresql", 11): "dd12f6c894372b8f",
    ("postgresql", 12): "2b6fa5f58e51d3be",
    ("postgresql", 13): "18ac16ad8e6b7e9f",
    ("postgresql", 14): "132715159084a016",
    ("postgresql", 15): "3d928f12b924dfd8",
    ("postgresql", 16): "60b37031123b94bc",
    ("postgresql", 17): "94054b214f85bbb8",
    ("postgresql", 18): "178d32fa287a9112",
}


def test_the_rendered_file_is_what_the_definitions_say() -> None:
    assert RENDERED.read_text(encoding="utf-8") == text(), (
        "zerolang/storage/schema/rendered.json is stale: python -m zerolang.storage.schema.render"
    )


@pytest.mark.parametrize(("dialect", "version"), sorted(RELEASED))
def test_a_released_step_never_changes(dialect: str, version: int) -> None:
    digest = hashlib.sha256(json.dumps(list(step(dialect, version))).encode()).hexdigest()[:16]
    assert digest == RELEASED[dialect, version], (
        f"step {version} on {dialect} changed: stores already took it; add a step to the history instead"
    )


def test_every_step_is_released_and_pinned() -> None:
    steps = {(dialect, v) for dialect, first in FIRST.items() for v in range(first + 1, latest() + 1)}
    assert steps == set(RELEASED)


def test_a_new_sqlite_store_is_what_the_whole_history_makes() -> None:
    new, old = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    for statement in plan("sqlite", 0, location="new").create:
        new.execute(statement)
    for version in range(1, latest() + 1):
        for statement in step("sqlite", version):
            old.execute(statement)
    assert sqlite_schema(new) == sqlite_schema(old)


def test_a_new_postgres_store_is_what_an_older_store_becomes() -> None:
    with scratch() as new_url, restored(FIXTURES / "main-2026-11-28.pg.sql") as old_url:
        import psycopg

        open_store(new_url).close()
        open_store(old_url, create=False).close()
        with psycopg.connect(new_url) as new, psycopg.connect(old_url) as old:
            assert postgres_schema(new) == postgres_schema(old)


def test_opening_and_creating_a_store_never_imports_sqlalchemy(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from zerolang.storage import open_store\n"
        f"open_store({str(tmp_path / 'm.db')!r}).close()\n"
        f"open_store({str(tmp_path / 'm.db')!r}, create=False).close()\n"
        "print(any(name.split('.')[0] in ('sqlalchemy', 'alembic') for name in sys.modules))\n"
    )
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert completed.stdout.strip() == "False", completed.stderr


@pytest.mark.parametrize(("stored", "shared"), [(1, 4), (4, 7), (7, 10), (8, 10), (9, 12), (12, 12)])
def test_postgres_versions_from_before_the_shared_history_map_onto_it(stored: int, shared: int) -> None:
    assert shared_version("postgresql", stored) == shared
    assert shared_version("sqlite", stored) == stored


def test_a_postgres_store_at_8_takes_the_steps_after_10() -> None:
    assert [version for version, _ in plan("postgresql", 8, location="x").steps] == list(
        range(11, latest() + 1)
    )


def test_versions_never_written_and_newer_ones_are_refused() -> None:
    with pytest.raises(StorageError, match="schema version 10 was never written by zerolang on PostgreSQL"):
        plan("postgresql", 10, location="x")
    with pytest.raises(StorageError, match=rf"x: made by a newer zerolang \(schema {latest() + 1}"):
        plan("sqlite", latest() + 1, location="x")
