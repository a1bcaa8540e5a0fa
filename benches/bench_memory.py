"""0-memory throughput: ingest 1K, 10K and 100K relations into a store, then time `get`.

Prints a markdown table (and writes it to benches/results/memory-<backend>.md):
each cell is the median of `--repeat` runs (3) with their min-max. The
inputs are generated with a fixed seed: records of 10 tuples over a
vocabulary of about one concept per 5 relations, 10% of the facts observed
again in a later record (Bayesian folds). Ingest is timed from validated
inputs to committed rows (compile + store, as `zero memory ingest` does after
reading the file); `get` is a label lookup plus the full recall of the
concept's facts and episodes (what `zero memory get` prints), without
process start-up.

    python benches/bench_memory.py                       # SQLite: 1K, 10K, 100K
    python benches/bench_memory.py --backend postgres    # the same on PostgreSQL (see benches/stores.py)
    python benches/bench_memory.py --quick --repeat 1    # 1K, 10K, one run each
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402
from stores import arguments, location, spread  # noqa: E402

from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple, compile_record  # noqa: E402
from zerolang.memory.store import DEFAULT_BATCH_SIZE  # noqa: E402

TUPLES_PER_RECORD = 10
PREDICATES = ["needs", "has part", "feeds", "is a", "stores", "depends on", "produces", "recalls"]
GETS = 2000


def generate(relations: int, seed: int = 7) -> tuple[list[CompilerInput], list[str]]:
    """`relations` tuples in records of 10, and the concept labels used."""
    rng = random.Random(seed)
    labels = [f"concept {index}" for index in range(max(10, relations // 5))]
    seen: list[tuple[str, str, str]] = []
    inputs: list[CompilerInput] = []
    for record in range(relations // TUPLES_PER_RECORD):
        tuples = []
        for _ in range(TUPLES_PER_RECORD):
            if seen and rng.random() < 0.1:
                subject, predicate, obj = rng.choice(seen)
            else:
                subject, predicate, obj = rng.choice(labels), rng.choice(PREDICATES), rng.choice(labels)
                seen.append((subject, predicate, obj))
            tuples.append(SemanticTuple(subject, predicate, obj, round(rng.uniform(0.3, 1.0), 3)))
        context = ContextMeta(
            f"2026-02-18T{record // 3600 % 24:02d}:{record // 60 % 60:02d}:{record % 60:02d}Z",
            "bench",
            f"r{record}",
        )
        inputs.append(CompilerInput(tuple(tuples), context))
    return inputs, labels


def measure(relations: int, backend: str) -> dict[str, float]:
    inputs, labels = generate(relations)
    with location(backend) as where, MemoryStore(where) as store:
        start = time.perf_counter()
        records = [compile_record(item) for item in inputs]
        compiled = time.perf_counter()
        totals = store.insert_records(records, verify=False)  # what `ingest` does, in two timed halves
        elapsed = time.perf_counter() - start
        store_s = time.perf_counter() - compiled
        stored = totals.new_episodes
        rng = random.Random(3)
        latencies = []
        for label in (rng.choice(labels) for _ in range(GETS)):
            began = time.perf_counter()
            concept = store.get_concept_by_label(label)
            if concept is not None:
                store.recall(concept).to_json()
            latencies.append(time.perf_counter() - began)
        check_start = time.perf_counter()
        assert store.check().ok
        check_time = time.perf_counter() - check_start
    quantiles = statistics.quantiles(latencies, n=100)
    return {
        "relations": relations,
        "episodes": stored,
        "ingest_s": elapsed,
        "rate": relations / elapsed,
        "store_rate": relations / store_s,
        "p50_ms": quantiles[49] * 1000,
        "p95_ms": quantiles[94] * 1000,
        "check_s": check_time,
    }


def table(runs: list[list[dict[str, float]]], backend: str, repeat: int) -> str:
    lines = [
        f"Machine: {describe()}; backend: {backend}; median of {repeat} runs (min-max)",
        "",
        "| relations | ingest | relations/s | store alone, relations/s | `get` p50 | `get` p95 | `check` |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for rows in runs:
        column = {key: [row[key] for row in rows] for key in rows[0]}
        cells = [
            f"{rows[0]['relations']:,.0f}",
            spread(column["ingest_s"], "{:.2f}", " s"),
            spread(column["rate"]),
            spread(column["store_rate"]),
            spread(column["p50_ms"], "{:.3f}", " ms"),
            spread(column["p95_ms"], "{:.3f}", " ms"),
            spread(column["check_s"], "{:.2f}", " s"),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    engine = (
        "SQLite file in WAL mode, synchronous=NORMAL"
        if backend == "sqlite"
        else "PostgreSQL 15 on loopback (psycopg 3; a batch is one unnest statement per table)"
    )
    lines.append(
        f"Records of {TUPLES_PER_RECORD} tuples, one concept per 5 relations, 10% re-observed facts;"
        f" {engine}, one transaction per {DEFAULT_BATCH_SIZE:,} records."
        " Ingest = compile + store from validated inputs; store = the backend's part alone."
        " `get` = label lookup + recall of the concept's"
        f" facts and episodes, {GETS:,} random labels, no process start-up."
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    args = arguments("0-memory ingest and get throughput")
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    runs = [[measure(size, args.backend) for _ in range(args.repeat)] for size in sizes]
    text = table(runs, args.backend, args.repeat)
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / f"memory-{args.backend}.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
