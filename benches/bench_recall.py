"""0-memory recall and query latency on generated stores of 10K concepts / 30K relations and 100K / 300K.

The graphs are generated with a fixed seed and power-law degrees: relation i
has concept `i mod N` as subject (every concept is used) and an object drawn
with probability proportional to `1 / rank^0.8`, so a few hubs collect
thousands of edges and most concepts a handful. Each store is a SQLite file
built through `ingest` (one transaction per 1,000 records). Latencies are
warm (after 50 untimed queries), in process, from 300 random seeds:

- recall: `recall_from` (depth 2, top 20, default score ranking, touches its results);
- query: `run_query('recall "<label>" depth 2 limit 20')` (parse + seed lookup + the same);
- match: `run_query('match (<label> ?p ?y), (?y ?q ?z) limit 20')`.

    python benches/bench_recall.py            # 10K and 100K
    python benches/bench_recall.py --quick    # 10K only
"""

from __future__ import annotations

import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402

from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple, concept_hash, ingest  # noqa: E402
from zerolang.memory.recall import RecallOptions, recall_from  # noqa: E402
from zerolang.query.executor import run_query  # noqa: E402

TUPLES_PER_RECORD = 10
PREDICATES = ["needs", "has part", "feeds", "is a", "stores", "depends on", "produces", "recalls"]
EXPONENT = 0.8
WARMUP, SAMPLES = 50, 300
NOW = "2026-03-01T00:00:00.000Z"
START = datetime(2026, 1, 1, tzinfo=UTC)


def generate(concepts: int, relations: int, seed: int = 11) -> list[CompilerInput]:
    """Records of 10 tuples over `concepts` labels, power-law objects, one record every 2 minutes."""
    rng = random.Random(seed)
    labels = [f"c{index}" for index in range(concepts)]
    weights = list(itertools.accumulate(1.0 / (rank + 1) ** EXPONENT for rank in range(concepts)))
    objects = rng.choices(labels, cum_weights=weights, k=relations)
    inputs = []
    for record in range(relations // TUPLES_PER_RECORD):
        tuples = []
        for offset in range(TUPLES_PER_RECORD):
            index = record * TUPLES_PER_RECORD + offset
            subject, obj = labels[index % concepts], objects[index]
            if subject == obj:
                obj = labels[(index + 1) % concepts]
            confidence = round(rng.uniform(0.3, 1.0), 3)
            tuples.append(SemanticTuple(subject, rng.choice(PREDICATES), obj, confidence))
        moment = START + timedelta(minutes=2 * record)  # 30K records span about 6 weeks
        event = moment.isoformat().replace("+00:00", "Z")
        inputs.append(CompilerInput(tuple(tuples), ContextMeta(event, "bench", f"r{record}")))
    return inputs


def timed(run: Callable[[str], object], seeds: list[str]) -> tuple[float, float]:
    """p50 and p95 in milliseconds over `seeds`, after `WARMUP` untimed runs."""
    for label in seeds[:WARMUP]:
        run(label)
    latencies = []
    for label in seeds[WARMUP:]:
        began = time.perf_counter()
        run(label)
        latencies.append(time.perf_counter() - began)
    quantiles = statistics.quantiles(latencies, n=100)
    return quantiles[49] * 1000, quantiles[94] * 1000


def measure(concepts: int, relations: int) -> dict[str, float]:
    inputs = generate(concepts, relations)
    rng = random.Random(5)
    seeds = [f"c{rng.randrange(concepts)}" for _ in range(WARMUP + SAMPLES)]
    options = RecallOptions(depth=2, limit=20)
    with tempfile.TemporaryDirectory() as folder, MemoryStore(Path(folder) / "memory.db") as store:
        start = time.perf_counter()
        ingest(store, inputs, now=NOW)
        build = time.perf_counter() - start
        recall = timed(lambda label: recall_from(store, concept_hash(label), options), seeds)
        query = timed(lambda label: run_query(store, f'recall "{label}" depth 2 limit 20'), seeds)
        match = timed(lambda label: run_query(store, f"match ({label} ?p ?y), (?y ?q ?z) limit 20"), seeds)
        top = store._db.execute(
            "SELECT max(n) FROM (SELECT object_hash, count(*) AS n FROM facts GROUP BY object_hash)"
        ).fetchone()[0]
    return {
        "concepts": concepts,
        "relations": relations,
        "build_s": build,
        "max_degree": top,
        "recall_p50": recall[0],
        "recall_p95": recall[1],
        "query_p50": query[0],
        "query_p95": query[1],
        "match_p50": match[0],
        "match_p95": match[1],
    }


def table(rows: list[dict[str, float]]) -> str:
    lines = [
        f"Machine: {describe()}",
        "",
        "| concepts / relations | build | hub degree | recall p50 | recall p95 | query p50 | query p95"
        " | match p50 | match p95 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        cells = [
            f"{row['concepts']:,.0f} / {row['relations']:,.0f}",
            f"{row['build_s']:.1f} s",
            f"{row['max_degree']:,.0f}",
            *(f"{row[key]:.2f} ms" for key in ("recall_p50", "recall_p95", "query_p50", "query_p95")),
            *(f"{row[key]:.2f} ms" for key in ("match_p50", "match_p95")),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        f"Generated with a fixed seed, power-law object degrees (p ~ 1/rank^{EXPONENT}), records of"
        f" {TUPLES_PER_RECORD} tuples; SQLite file in WAL mode. Warm, in process, {SAMPLES} random seeds"
        f" after {WARMUP} untimed: recall = `recall_from` depth 2, top 20 (score ranking, results touched);"
        ' query = `zero query` engine on `recall "<label>" depth 2 limit 20`;'
        " match = `match (<label> ?p ?y), (?y ?q ?z) limit 20`."
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    sizes = [(10_000, 30_000)] if "--quick" in sys.argv else [(10_000, 30_000), (100_000, 300_000)]
    text = table([measure(*size) for size in sizes])
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / "recall.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
