"""What a concurrent writer process runs (importable, for `multiprocessing` spawn)."""

from __future__ import annotations

import random

from tests.storage.contract.helpers import make_input
from zerolang import storage
from zerolang.memory import CompilerInput, ingest


def inputs(start: int, stop: int) -> list[CompilerInput]:
    """Records `start..stop`: three facts each over a shared vocabulary, so concepts and facts overlap."""
    return [
        make_input(
            (f"c{n % 37}", "links", f"c{(n * 7) % 41}", 0.5 + (n % 5) / 10),
            (f"c{n % 11}", "feeds", f"c{n % 13}", 0.3),
            (f"c{n}", "is", "thing", 0.9),
            event_time=f"2026-02-{1 + n % 28:02}T00:00:00Z",
            scope=f"scope{n % 17}",
        )
        for n in range(start, stop)
    ]


def writer(location: str, space: str, start: int, stop: int, seed: int) -> int:
    items = inputs(start, stop)
    random.Random(seed).shuffle(items)
    with storage.open_store(location, space=space) as store:
        for offset in range(0, len(items), 20):
            ingest(store, items[offset : offset + 20], batch_size=7)
    return stop - start
