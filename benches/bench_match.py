"""Joined `match` queries on a generated store of 10K concepts / 100K relations: CPU time and peak memory.

The store is bench_recall's generator (fixed seed, power-law object degrees, so a few hubs
collect thousands of edges), built once through `ingest`. Each query then runs in a fresh
process (`--repeat` times, 3), which reports its CPU time (`time.process_time`), its wall
time and its peak resident memory (`ru_maxrss`, the interpreter and the store's pages
included; the first row, one fact by its labels, is that floor). A query that ends in a
`QueryError` (the join's work cap) shows the error's first words; one stopped after 120 s
of CPU says so.

    python benches/bench_match.py                      # SQLite
    python benches/bench_match.py --backend postgres
    python benches/bench_match.py --quick --repeat 1   # 10K relations

With `BENCH_BEFORE=<folder holding another zerolang package>` (e.g. `git archive <rev>
zerolang | tar -x -C /tmp/before`), each query also runs on that code, side by side.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from bench_recall import NOW, generate  # noqa: E402
from machine import describe  # noqa: E402
from stores import arguments, location, spread  # noqa: E402

from zerolang.memory import ingest  # noqa: E402
from zerolang.storage import open_store  # noqa: E402

CPU_CAP = 120  # seconds of CPU a query may take before it is stopped (and shown so)
QUERIES = [
    "match (c1 ?p ?b)",
    "match (?a ?p ?b), (?b ?q ?c) limit 20",
    "match (?a ?p ?b), (?b ?q ?c) limit 1000",
    "match (?a ?p ?b), (?b ?q ?c) order by ?a limit 20",
    "match (?a ?p ?b), (?b ?q ?c) order by confidence asc limit 20",
    "match (?a ?p ?b), (?c ?q ?b) limit 20",
]

CHILD = """
import json, resource, sys, time
from zerolang.knowledge.query.ast import QueryError
from zerolang.knowledge.query.executor import run_query
import zerolang.knowledge.query.executor as ex
from zerolang.storage import open_store
store = open_store(sys.argv[1])
cpu, wall = time.process_time(), time.perf_counter()
try:
    rows, error = len(run_query(store, sys.argv[2], touch=False).rows), ""
except QueryError as caught:
    rows, error = 0, str(caught).splitlines()[0]
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
result = {"cpu": cpu, "wall": wall, "peak_mb": peak, "rows": rows, "error": error}
print(json.dumps({**result, "code": ex.__file__}))
"""


def _cpu_cap() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_CAP, CPU_CAP + 5))


def run(where: str, text: str, code: str = str(ROOT)) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": code}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, where, text],
        capture_output=True,
        text=True,
        env=env,
        cwd=code,
        preexec_fn=_cpu_cap,
    )
    if done.returncode == -signal.SIGXCPU:
        return {
            "cpu": CPU_CAP,
            "wall": math.nan,
            "peak_mb": math.nan,
            "rows": 0,
            "error": f"over {CPU_CAP} s CPU",
        }
    if done.returncode:
        raise SystemExit(f"{code}: {text}: {done.stderr.strip().splitlines()[-1]}")
    result: dict[str, object] = json.loads(done.stdout)
    assert str(result["code"]).startswith(code), result["code"]  # the code asked for, not another
    return result


def main() -> None:
    args = arguments("joined match: CPU time and peak memory")
    concepts, relations = (1_000, 10_000) if args.quick else (10_000, 100_000)
    lines = [
        f"Machine: {describe()}; backend: {args.backend}; {concepts:,} concepts / {relations:,} relations;"
        f" median of {args.repeat} runs (min-max), each query in a fresh process",
        "",
        "| code | query | rows | CPU | wall | peak RSS |",
        "|---|---|---:|---:|---:|---:|",
    ]
    before = os.environ.get("BENCH_BEFORE")
    codes = [("this", str(ROOT))] + ([("before", before)] if before else [])
    with location(args.backend) as where:
        with open_store(where) as store:
            began = time.perf_counter()
            ingest(store, generate(concepts, relations), now=NOW)
            built = time.perf_counter() - began
        for text, (name, code) in itertools.product(QUERIES, codes):
            runs = [run(where, text, code) for _ in range(args.repeat)]
            error = str(runs[0]["error"])
            shown = f"error: {error[:60]}" if error else str(runs[0]["rows"])
            cells = [
                name,
                f"`{text}`",
                shown,
                spread([float(str(r["cpu"])) for r in runs], "{:.2f}", " s"),
                spread([float(str(r["wall"])) for r in runs], "{:.2f}", " s"),
                spread([float(str(r["peak_mb"])) for r in runs], "{:.0f}", " MB"),
            ]
            lines.append("| " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    lines += ["", f"Store built by `ingest` in {built:.0f} s."]
    text = "\n".join(lines) + "\n"
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / f"match-{args.backend}.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
