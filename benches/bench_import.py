"""0-memory import against ingest: the same data stored from inputs, then exported and imported.

Prints a markdown table (and writes it to benches/results/import-<backend>.md):
for 10K and 100K relations (the inputs of `bench_memory.py`), the time to
ingest them (compile + store), to export the store as `.0c`, and to import
that export into an empty store (parse + verify + store, what `zero memory
import` does after reading the file). Import is linear: its ratio to ingest
stays flat as the size grows.

    python benches/bench_import.py                     # SQLite: 10K, 100K
    python benches/bench_import.py --quick --repeat 1  # 10K, one run
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from bench_memory import generate  # noqa: E402
from machine import describe  # noqa: E402
from stores import arguments, location, spread  # noqa: E402

from zerolang.knowledge.formats.checkpoint import of_store  # noqa: E402
from zerolang.knowledge.formats.exchange import Format, export, import_text  # noqa: E402
from zerolang.memory import compile_record  # noqa: E402
from zerolang.storage import open_store  # noqa: E402


def measure(relations: int, backend: str) -> dict[str, float]:
    inputs, _ = generate(relations)
    with location(backend) as first, open_store(first) as store:
        start = time.perf_counter()
        store.insert_records([compile_record(item) for item in inputs], verify=False)
        ingest = time.perf_counter() - start
        start = time.perf_counter()
        text = export(store, Format.COMPACT)
        exported = time.perf_counter() - start
        checkpoint = of_store(store)
    with location(backend) as second, open_store(second) as store:
        start = time.perf_counter()
        import_text(store, text, "bench.0c")
        imported = time.perf_counter() - start
        assert of_store(store) == checkpoint
    return {"relations": relations, "ingest_s": ingest, "export_s": exported, "import_s": imported}


def table(runs: list[list[dict[str, float]]], backend: str, repeat: int) -> str:
    lines = [
        f"Machine: {describe()}; backend: {backend}; median of {repeat} runs (min-max)",
        "",
        "| relations | ingest | export `.0c` | import `.0c` | import / ingest |",
        "|---:|---:|---:|---:|---:|",
    ]
    for rows in runs:
        column = {key: [row[key] for row in rows] for key in rows[0]}
        ratios = [row["import_s"] / row["ingest_s"] for row in rows]
        cells = [
            f"{rows[0]['relations']:,.0f}",
            spread(column["ingest_s"], "{:.2f}", " s"),
            spread(column["export_s"], "{:.2f}", " s"),
            spread(column["import_s"], "{:.2f}", " s"),
            spread(ratios, "{:.2f}", "x"),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        "Import = parse the export, verify every hash, store it in one transaction (no process start-up)."
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    args = arguments("0-memory import against ingest")
    sizes = [10_000] if args.quick else [10_000, 100_000]
    runs = [[measure(size, args.backend) for _ in range(args.repeat)] for size in sizes]
    text = table(runs, args.backend, args.repeat)
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / f"import-{args.backend}.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
