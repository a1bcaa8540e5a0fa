"""The summary index (`memory_index`) in both memory backends: put, get, and filtered searches.

Prints a markdown table. Records are generated with a fixed seed: days spread over a year,
privacy and abstraction over -15..15, 8 channels, summaries of 12 words from a small
vocabulary. `put` is one transaction per record (as `zero archive put` writes them); a search
returns at most 20 summaries. PostgreSQL runs when `$ZERO_TEST_POSTGRES_URL` (else
postgresql://postgres@127.0.0.1:5432/test) answers, in a scratch database dropped afterwards.

    python benches/bench_index.py            # 10K records
    python benches/bench_index.py --quick    # 1K records
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402

from tests.backends import Scratch, postgres_server  # noqa: E402
from zerolang.archive.index import IndexQuery, IndexRecord, IndexStore  # noqa: E402
from zerolang.storage import open_index  # noqa: E402

WORDS = ["tea", "coffee", "release", "review", "migration", "birthday", "reminder", "trip", "sister"]
TODAY = date(2026, 11, 24)


def records(count: int) -> list[IndexRecord]:
    rng = random.Random(4)
    return [
        IndexRecord(
            hash=f"{rng.getrandbits(256):064x}",
            summary=" ".join(rng.choice(WORDS) for _ in range(12)),
            day=TODAY - timedelta(days=rng.randrange(365)),
            source_channel=f"channel-{rng.randrange(8)}",
            created_at="2026-11-20T09:30:00Z",
            consent_scope="personal",
            y_privacy=rng.randint(-15, 15),
            z_abstraction=rng.randint(-15, 15),
        )
        for _ in range(count)
    ]


QUERIES: dict[str, IndexQuery] = {
    "search: newest 20": IndexQuery(today=TODAY),
    "search: one channel, last 30 days": IndexQuery(channels=("channel-3",), t_min=-30, today=TODAY),
    "search: privacy <= -10, words": IndexQuery(text="tea sister", privacy_max=-10, today=TODAY),
    "search: words no summary has": IndexQuery(text="lisbon", today=TODAY),
}


def timed(step: Callable[[], object], runs: int) -> float:
    """Median milliseconds of `runs` calls."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        step()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def measure(index: IndexStore, items: list[IndexRecord]) -> dict[str, str]:
    start = time.perf_counter()
    for item in items:
        index.put(item)
    rate = len(items) / (time.perf_counter() - start)
    rows = {"put (one transaction each)": f"{rate:,.0f}/s"}
    probe = items[len(items) // 2].hash
    rows["get by hash (median)"] = f"{timed(lambda: index.get(probe), 200):.3f} ms"
    for name, query in QUERIES.items():
        rows[f"{name} (median)"] = f"{timed(lambda q=query: index.search(q), 30):.2f} ms"  # type: ignore[misc]
    return rows


def main() -> None:
    count = 1_000 if "--quick" in sys.argv else 10_000
    items = records(count)
    columns: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        index = open_index(str(Path(folder) / "memory.db"))
        columns["SQLite"] = measure(index, items)
        index.close()
    server = postgres_server()
    if server.url is not None:
        scratch = Scratch(server.url)
        try:
            index = open_index(scratch.create())
            columns["PostgreSQL"] = measure(index, items)
            index.close()
        finally:
            scratch.drop()
    names = list(columns)
    print(f"Summary index, {count:,} records; {describe()}\n")
    print("| operation | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for row in columns[names[0]]:
        print(f"| {row} | " + " | ".join(columns[name][row] for name in names) + " |")


if __name__ == "__main__":
    main()
