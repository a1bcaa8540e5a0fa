"""0-memory throughput: ingest 1K, 10K and 100K relations into a SQLite file, then time `get`.

Prints a markdown table (and writes it to benches/results/memory.md). The
inputs are generated with a fixed seed: records of 10 tuples over a
vocabulary of about one concept per 5 relations, 10% of the facts observed
again in a later record (Bayesian folds). Ingest is timed from validated
inputs to committed rows (compile + store, as `zero memory ingest` does after
reading the file); `get` is a label lookup plus the full recall of the
concept's facts and episodes (what `zero memory get` prints), without
process start-up.

    python benches/bench_memory.py            # 1K, 10K, 100K
    python benches/bench_memory.py --quick    # 1K, 10K
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402

from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple, ingest  # noqa: E402
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


def measure(relations: int) -> dict[str, float]:
    inputs, labels = generate(relations)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.db"
        with MemoryStore(path) as store:
            start = time.perf_counter()
            totals = ingest(store, inputs)
            elapsed = time.perf_counter() - start
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
            size = path.stat().st_size + Path(f"{path}-wal").stat().st_size
    quantiles = statistics.quantiles(latencies, n=100)
    return {
        "relations": relations,
        "episodes": stored,
        "ingest_s": elapsed,
        "rate": relations / elapsed,
        "p50_ms": quantiles[49] * 1000,
        "p95_ms": quantiles[94] * 1000,
        "check_s": check_time,
        "mb": size / 1e6,
    }


def table(rows: list[dict[str, float]]) -> str:
    lines = [
        f"Machine: {describe()}",
        "",
        "| relations | ingest | relations/s | `get` p50 | `get` p95 | `check` | database |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        cells = [
            f"{row['relations']:,.0f}",
            f"{row['ingest_s']:.2f} s",
            f"{row['rate']:,.0f}",
            f"{row['p50_ms']:.3f} ms",
            f"{row['p95_ms']:.3f} ms",
            f"{row['check_s']:.2f} s",
            f"{row['mb']:.1f} MB",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        f"Records of {TUPLES_PER_RECORD} tuples, one concept per 5 relations, 10% re-observed facts;"
        f" SQLite file in WAL mode, synchronous=NORMAL, one transaction per {DEFAULT_BATCH_SIZE:,} records."
        " Ingest = compile + store from validated inputs. `get` = label lookup + recall of the concept's"
        f" facts and episodes, {GETS:,} random labels, no process start-up. Database = file + WAL."
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    sizes = [1_000, 10_000] if "--quick" in sys.argv else [1_000, 10_000, 100_000]
    text = table([measure(size) for size in sizes])
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / "memory.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
