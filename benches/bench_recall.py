"""0-memory recall and query latency on generated stores of 10K concepts / 30K relations and 100K / 300K.

The graphs are generated with a fixed seed and power-law degrees: relation i
has concept `i mod N` as subject (every concept is used) and an object drawn
with probability proportional to `1 / rank^0.8`, so a few hubs collect
thousands of edges and most concepts a handful. Each store (`--backend
sqlite|postgres`, see benches/stores.py) is built through `ingest` (one
transaction per 1,000 records). Each cell is the median of `--repeat` runs (3)
with their min-max. Latencies are
warm (after 50 untimed queries), in process, from 300 random seeds:

- recall: `recall_from` (depth 2, top 20, default score ranking, touches its results);
- query: `run_query('recall "<label>" depth 2 limit 20')` (parse + seed lookup + the same);
- match: `run_query('match (<label> ?p ?y), (?y ?q ?z) limit 20')`.

    python benches/bench_recall.py                       # SQLite: 10K and 100K
    python benches/bench_recall.py --backend postgres    # the same on PostgreSQL
    python benches/bench_recall.py --quick --repeat 1    # 10K only, one run
"""

from __future__ import annotations

import itertools
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402
from stores import arguments, location, spread  # noqa: E402

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


def measure(concepts: int, relations: int, backend: str) -> dict[str, float]:
    inputs = generate(concepts, relations)
    rng = random.Random(5)
    seeds = [f"c{rng.randrange(concepts)}" for _ in range(WARMUP + SAMPLES)]
    options = RecallOptions(depth=2, limit=20)
    top = max(Counter(t.object for item in inputs for t in item.tuples).values())
    with location(backend) as where, MemoryStore(where) as store:
        start = time.perf_counter()
        ingest(store, inputs, now=NOW)
        build = time.perf_counter() - start
        recall = timed(lambda label: recall_from(store, concept_hash(label), options), seeds)
        query = timed(lambda label: run_query(store, f'recall "{label}" depth 2 limit 20'), seeds)
        match = timed(lambda label: run_query(store, f"match ({label} ?p ?y), (?y ?q ?z) limit 20"), seeds)
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


def table(runs: list[list[dict[str, float]]], backend: str, repeat: int) -> str:
    lines = [
        f"Machine: {describe()}; backend: {backend}; median of {repeat} runs (min-max)",
        "",
        "| concepts / relations | build | hub degree | recall p50 | recall p95 | query p50 | query p95"
        " | match p50 | match p95 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    keys = ("recall_p50", "recall_p95", "query_p50", "query_p95", "match_p50", "match_p95")
    for rows in runs:
        column = {key: [row[key] for row in rows] for key in rows[0]}
        cells = [
            f"{rows[0]['concepts']:,.0f} / {rows[0]['relations']:,.0f}",
            spread(column["build_s"], "{:.1f}", " s"),
            f"{rows[0]['max_degree']:,.0f}",
            *(spread(column[key], "{:.2f}", " ms") for key in keys),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    engine = "SQLite file in WAL mode" if backend == "sqlite" else "PostgreSQL on loopback (psycopg 3)"
    lines.append(
        f"Generated with a fixed seed, power-law object degrees (p ~ 1/rank^{EXPONENT}), records of"
        f" {TUPLES_PER_RECORD} tuples; {engine}. Warm, in process, {SAMPLES} random seeds"
        f" after {WARMUP} untimed: recall = `recall_from` depth 2, top 20 (score ranking, results touched);"
        ' query = `zero query` engine on `recall "<label>" depth 2 limit 20`;'
        " match = `match (<label> ?p ?y), (?y ?q ?z) limit 20`."
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    args = arguments("0-memory recall, query and match latency")
    sizes = [(10_000, 30_000)] if args.quick else [(10_000, 30_000), (100_000, 300_000)]
    runs = [[measure(*size, args.backend) for _ in range(args.repeat)] for size in sizes]
    text = table(runs, args.backend, args.repeat)
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / f"recall-{args.backend}.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
