"""The example store (examples/memory_input.json) ingested at a fixed time, and a fixed clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from zerolang.memory import MemoryStore, ingest, load_inputs
from zerolang.storage import open_store

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "memory_input.json"
INGESTED = "2026-03-01T12:00:00.000Z"


def fixed_clock() -> datetime:
    return datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.fixture
def example_store() -> Iterator[MemoryStore]:
    with open_store() as store:
        ingest(store, load_inputs(EXAMPLE), now=INGESTED)
        yield store
