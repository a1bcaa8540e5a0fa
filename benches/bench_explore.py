"""`zero explore` on a big store: time to the first page, a concept page, the graph and a search.

Issue 25, point 3: a 100K-relation store loads its first page in under 300 ms. This fills a SQLite
store with the synthetic memory (`zerolang.knowledge.formats.synthetic`, 3 facts per concept), then
asks the explorer's application (Starlette's test client: routing, the worker thread, rendering,
no network) for each page, 7 times, and prints the median and the slowest in milliseconds. The
reference, measured in the same run, is the same pages on a 1K-relation store.

    python benches/bench_explore.py            # 1K (reference) and 100K relations
    python benches/bench_explore.py --quick    # 1K (reference) and 10K relations
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benches.machine import describe, load_average  # noqa: E402

REPEAT = 7


def build(folder: Path, relations: int) -> Path:
    from zerolang.knowledge.formats.synthetic import fill
    from zerolang.storage import open_store

    path = folder / f"memory-{relations}.db"
    with open_store(path) as store:
        fill(store, concepts=relations // 3)
    return path


def timed(get: object, path: str) -> tuple[float, float]:
    """Median and slowest milliseconds of GET `path` (after one warm request)."""
    assert callable(get)
    assert get(path).status_code == 200
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        response = get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    return statistics.median(times), max(times)


def measure(path: Path) -> tuple[int, list[tuple[str, float, float]]]:
    from starlette.testclient import TestClient

    import zerolang.memory
    from zerolang.explore.app import build_app
    from zerolang.explore.reads import Explorer
    from zerolang.explore.worker import Worker

    first_start = time.perf_counter()
    with Worker(lambda: Explorer(zerolang.memory.open(path, create=False))) as worker:
        client = TestClient(build_app(worker, ["testserver"]))
        first = client.get("/")
        cold = (time.perf_counter() - first_start) * 1000
        assert first.status_code == 200
        relations = worker.call(lambda: worker.explorer.memory.store.counts().episodes)
        hub = worker.call(lambda: _hub(worker.explorer))
        label = worker.call(
            lambda: worker.explorer.memory.store.backend.labels([bytes.fromhex(hub)])[bytes.fromhex(hub)]
        )
        rows = [("first page (cold: open + GET /)", cold, cold)]
        rows.append(("first page", *timed(client.get, "/")))
        page = client.get("/").text
        after = page.rsplit("after=", 1)[1].split('"', 1)[0]
        rows.append(("next page", *timed(client.get, f"/?after={after}")))
        rows.append(("concept page", *timed(client.get, f"/concept?c={hub}")))
        rows.append(("graph, depth 2 (≤ 300 concepts)", *timed(client.get, f"/api/graph?c={hub}")))
        rows.append(("search: recall, depth 2", *timed(client.get, f"/search?q={label}")))
    return relations, rows


def _hub(explorer: object) -> str:
    """The concept with the most facts on the first page (the graph's worst case there)."""
    page = explorer.concepts(None)  # type: ignore[attr-defined]
    return str(max(page.rows, key=lambda row: row.facts).hash)


def main(argv: list[str]) -> None:
    sizes = [1_000, 10_000] if "--quick" in argv else [1_000, 100_000]
    load_before = load_average()
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            results.append(measure(build(Path(folder), size)))
    (small, reference), (big, measured) = results
    print(f"zero explore, SQLite file, Starlette test client; median / slowest of {REPEAT} (ms)\n")
    print(f"| page | {small:,} relations (reference) | {big:,} relations |")
    print("|---|---|---|")
    for (name, ref_median, ref_max), (_, median, slowest) in zip(reference, measured, strict=True):
        print(f"| {name} | {ref_median:.1f} / {ref_max:.1f} | {median:.1f} / {slowest:.1f} |")
    print(
        f"\n{describe()}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC;"
        f" load average {load_before} before, {load_average()} after."
    )


if __name__ == "__main__":
    main(sys.argv[1:])
