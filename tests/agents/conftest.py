"""The hooks' stores: every test that writes runs on a SQLite file and on a PostgreSQL database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backends import scratch


@pytest.fixture(params=["sqlite", "postgres"])
def experience_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh experience store's location (`--db`): a SQLite file, or a scratch PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "experiences.db")
        return
    with scratch() as url:
        yield url
