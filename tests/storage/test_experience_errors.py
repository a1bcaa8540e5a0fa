"""The experience and conversation stores translate at the layer's edge: a driver error that leaves
one of their methods is a `StorageError` (here an `EngineError`: a table is gone), on every engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backends import scratch
from zerolang.storage import EngineError, open_conversations, open_experiences


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "experiences.db")
        return
    with scratch() as url:
        yield url


def drop(location: str, table: str) -> None:
    """Drop `table` behind the stores' backs."""
    if location.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(location, autocommit=True) as connection:
            connection.execute(f"DROP TABLE {table}")
        return
    import sqlite3

    with sqlite3.connect(location) as connection:
        connection.execute(f"DROP TABLE {table}")


def test_a_driver_error_leaves_the_stores_as_a_storage_error(location: str) -> None:
    with open_experiences(location) as experiences, open_conversations(location) as entries:
        drop(location, "exp_concept")
        drop(location, "convo_entry")
        with pytest.raises(EngineError, match="exp_concept"):
            experiences.concept_labels(["c"])
        with pytest.raises(EngineError, match="convo_entry"):
            entries.keys("", now=0.0)
