"""0-memory throughput: ingest 1K, 10K and 100K relations into a store, then time `get`.

Prints markdown tables (and writes them to benches/results/memory-<backend>.md):
each cell is the median of `--repeat` runs (3) with their min-max, the machine
and its load average before and after stated. Ingest is given as wall time and
as this process's CPU time (on a shared machine, wall time also measures the
neighbours; on PostgreSQL the server's own CPU is not in it). A second table
times whole processes: `zero query` and `zero memory get` on a built store of
10K relations beside `python -c pass`, wall and CPU. The
inputs are generated with a fixed seed: records of 10 tuples over a
vocabulary of about one concept per 5 relations, 10% of the facts observed
again in a later record (Bayesian folds). Ingest is timed from validated
inputs to committed rows: `ingest()`, what `zero memory ingest` does after
reading the file (it compiles the next records while the engine writes);
compile alone and store alone (the compiled records into another fresh store)
are timed apart. `get` is a label lookup plus the full recall of the
concept's facts and episodes (what `zero memory get` prints), without
process start-up.

    python benches/bench_memory.py                       # SQLite: 1K, 10K, 100K
    python benches/bench_memory.py --backend postgres    # the same on PostgreSQL (see benches/stores.py)
    python benches/bench_memory.py --quick --repeat 1    # 1K, 10K, one run each
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe, load_average, process_times  # noqa: E402
from stores import arguments, location, spread  # noqa: E402

from zerolang.knowledge.compiler import compile_records  # noqa: E402
from zerolang.knowledge.store import DEFAULT_BATCH_SIZE  # noqa: E402
from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple, ingest  # noqa: E402
from zerolang.storage import open_store  # noqa: E402

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
    cpu_start = time.process_time()
    records = compile_records(inputs)  # compile alone
    compile_cpu = time.process_time() - cpu_start
    with location(backend) as where, open_store(where) as store:  # store alone: the compiled records
        began, cpu_began = time.perf_counter(), time.process_time()
        store.insert_records(records, verify=False)
        store_s, store_cpu = time.perf_counter() - began, time.process_time() - cpu_began
    del records
    with location(backend) as where:
        store = open_store(where)
        try:
            start, cpu_start = time.perf_counter(), time.process_time()
            totals = ingest(store, inputs)  # what `zero memory ingest` does after reading its file
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        finally:
            store.close()  # and what it does next: waits for the last checkpoint (SQLite)
        closed = time.perf_counter() - start
        stored = totals.new_episodes
        with open_store(where) as store:
            latencies, check_time = _gets(store, labels)
    quantiles = statistics.quantiles(latencies, n=100)
    return {
        "relations": relations,
        "episodes": stored,
        "ingest_s": elapsed,
        "rate": relations / elapsed,
        "closed_rate": relations / closed,
        "cpu_rate": relations / cpu,
        "compile_cpu_rate": relations / compile_cpu,
        "store_cpu_rate": relations / store_cpu,
        "store_rate": relations / store_s,
        "p50_ms": quantiles[49] * 1000,
        "p95_ms": quantiles[94] * 1000,
        "check_s": check_time,
    }


def _gets(store: MemoryStore, labels: list[str]) -> tuple[list[float], float]:
    """`get` latencies of GETS random labels, then the time of a full `check`."""
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
    return latencies, time.perf_counter() - check_start


def table(runs: list[list[dict[str, float]]], backend: str, repeat: int) -> str:
    lines = [
        f"Machine: {describe()}; backend: {backend}; median of {repeat} runs (min-max)",
        "",
        "| relations | ingest | relations/s | relations/s, CPU | with close, relations/s | compile alone, CPU"
        " | store alone, CPU | store alone, wall | `get` p50 | `get` p95 | `check` |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for rows in runs:
        column = {key: [row[key] for row in rows] for key in rows[0]}
        cells = [
            f"{rows[0]['relations']:,.0f}",
            spread(column["ingest_s"], "{:.2f}", " s"),
            spread(column["rate"]),
            spread(column["cpu_rate"]),
            spread(column["closed_rate"]),
            spread(column["compile_cpu_rate"]),
            spread(column["store_cpu_rate"]),
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
        else "PostgreSQL 15 on loopback (psycopg 3; a batch's new rows by binary COPY,"
        " updates by primary key)"
    )
    lines.append(
        f"Records of {TUPLES_PER_RECORD} tuples, one concept per 5 relations, 10% re-observed facts;"
        f" {engine}, one transaction per {DEFAULT_BATCH_SIZE:,} records."
        " Ingest = `ingest()` from validated inputs, compile overlapping store (relations/s in wall time,"
        " then in this process's CPU time); with close = the same until the store is closed (SQLite:"
        " the checkpoint of the last batch, which a helper thread runs after the commit, is waited for"
        " there); compile and store alone (apart, one after the other) in CPU"
        " time, store also in wall time."
        " `get` = label lookup + recall of the concept's"
        f" facts and episodes, {GETS:,} random labels, no process start-up."
    )
    return "\n".join(lines) + "\n"


def process_table(backend: str, repeat: int) -> str:
    """Whole processes on a built store of 10K relations, beside `python -c pass`: wall and CPU."""
    inputs, _ = generate(10_000)
    zero = [sys.executable, "-m", "zerolang"]
    with location(backend) as where:
        with open_store(where) as store:
            store.insert_records(compile_records(inputs), verify=False)
        cases = [
            ("`python -c pass` (reference)", [sys.executable, "-c", "pass"]),
            (
                "`zero query 'match (\"concept 1\" ?p ?o)'`",
                [*zero, "query", 'match ("concept 1" ?p ?o)', "--db", where],
            ),
            ('`zero memory get "concept 1"`', [*zero, "memory", "get", "concept 1", "--db", where]),
        ]
        lines = [
            f"Whole processes ({backend}, a store of 10,000 relations; median of {repeat} runs, min-max):",
            "",
            "| command | wall | CPU |",
            "|---|---:|---:|",
        ]
        for label, arguments in cases:
            walls, cpus = process_times(arguments, repeat)
            ms = [1000 * w for w in walls], [1000 * c for c in cpus]
            lines.append(f"| {label} | {spread(ms[0], '{:.0f}', ' ms')} | {spread(ms[1], '{:.0f}', ' ms')} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    args = arguments("0-memory ingest and get throughput")
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    before = load_average()
    runs = [[measure(size, args.backend) for _ in range(args.repeat)] for size in sizes]
    processes = process_table(args.backend, max(5, args.repeat))
    after = load_average()
    text = (
        table(runs, args.backend, args.repeat)
        + f"\nLoad average on {os.cpu_count()} cores: {before} before, {after} after.\n\n"
        + processes
    )
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / f"memory-{args.backend}.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
