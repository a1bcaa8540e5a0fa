"""0-memory recall and query latency on generated stores of 10K concepts / 30K relations and 100K / 300K.

The graphs are generated with a fixed seed and power-law degrees: relation i
has concept `i mod N` as subject (every concept is used) and an object drawn
with probability proportional to `1 / rank^0.8`, so a few hubs collect
thousands of edges and most concepts a handful. Each store (`--backend
sqlite|postgres`, see benches/stores.py) is built through `ingest` (one
transaction per 5,000 records). Each cell is the median of `--repeat` runs (3)
with their min-max. Latencies are
warm (after 50 untimed queries), in process, from 300 random seeds:

- recall: `recall_from` (depth 2, top 20, default score ranking, touches its results);
- query: `run_query('recall "<label>" depth 2 limit 20')` (parse + seed lookup + the same);
- match: `run_query('match (<label> ?p ?y), (?y ?q ?z) limit 20')`;
- two-hop SQL (the reference): one recursive SQL statement returning every concept two hops from
  the seed, both directions, at recall's least confidence (0.1) with each path's confidence, run
  on the store's own connection: what reading the neighbourhood costs with nothing done to it.
  `recall / SQL` is the ratio of their p50s (wall and CPU), from the same seeds in the same run.

And whole processes on the biggest hub of each store, side by side with
`python -c pass`: `python -m zerolang query 'recall "<hub>" depth 2 limit 20'
--db <store>` (what the `zero` script runs), wall, CPU (user + system) and max
RSS of the child, median (min-max) over 5 runs per repetition.

    python benches/bench_recall.py                       # SQLite: 10K and 100K
    python benches/bench_recall.py --backend postgres    # the same on PostgreSQL
    python benches/bench_recall.py --quick --repeat 1    # 10K only, one run
    python benches/bench_recall.py --keep /tmp/stores    # build SQLite stores once, copy them per run
    python benches/bench_recall.py --costs --repeat 1    # and where a recall's CPU goes, by part

With `--costs`, each store's recalls are run once more with the parts of `recall_from` wrapped
(benches/costs.py: each part's exclusive CPU time, this thread's), the mean per recall printed.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402
from stores import location, spread  # noqa: E402

from zerolang.knowledge.query.executor import run_query  # noqa: E402
from zerolang.knowledge.recall import RecallOptions, recall_from  # noqa: E402
from zerolang.knowledge.store import MemoryStore  # noqa: E402
from zerolang.memory import CompilerInput, ContextMeta, SemanticTuple, concept_hash, ingest  # noqa: E402
from zerolang.storage import open_store  # noqa: E402

TUPLES_PER_RECORD = 10
PREDICATES = ["needs", "has part", "feeds", "is a", "stores", "depends on", "produces", "recalls"]
EXPONENT = 0.8
WARMUP, SAMPLES = 50, 300
COSTS = False  # --costs
PROCESS_RUNS = 5
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


# Every concept two hops from the seed (both directions, at or above the least confidence), with the
# confidence of the path there: the raw read under recall, one statement, no ranking, no touch.
TWO_HOP = """WITH RECURSIVE walk(concept, confidence, depth) AS (
    SELECT :seed, 1.0, 0
    UNION ALL SELECT f.object_hash, walk.confidence * f.confidence, walk.depth + 1 FROM walk
        JOIN facts f ON f.space = :space AND f.subject_hash = walk.concept AND f.confidence >= :floor
        WHERE walk.depth < 2
    UNION ALL SELECT f.subject_hash, walk.confidence * f.confidence, walk.depth + 1 FROM walk
        JOIN facts f ON f.space = :space AND f.object_hash = walk.concept AND f.confidence >= :floor
        WHERE walk.depth < 2
) SELECT concept, confidence, depth FROM walk WHERE depth > 0"""


# PostgreSQL allows one reference to `walk` in the recursive part: both directions in one join.
TWO_HOP_POSTGRES = """WITH RECURSIVE walk(concept, confidence, depth) AS (
    SELECT :seed, 1.0::float8, 0
    UNION ALL SELECT CASE WHEN f.subject_hash = walk.concept THEN f.object_hash ELSE f.subject_hash END,
        walk.confidence * f.confidence, walk.depth + 1 FROM walk
        JOIN facts f ON f.space = :space AND (f.subject_hash = walk.concept OR f.object_hash = walk.concept)
        AND f.confidence >= :floor WHERE walk.depth < 2
) SELECT concept, confidence, depth FROM walk WHERE depth > 0"""


def two_hop(store: MemoryStore, backend: str) -> Callable[[str], object]:
    """The reference: `TWO_HOP` from a seed label, on the store's own connection."""
    connection = store.backend.connection  # type: ignore[attr-defined]
    sql = TWO_HOP if backend == "sqlite" else re.sub(r"(?<!:):(\w+)", r"%(\1)s", TWO_HOP_POSTGRES)
    space = store.backend.space

    def run(label: str) -> object:
        arguments = {"seed": concept_hash(label).digest, "space": space, "floor": 0.1}
        return connection.execute(sql, arguments).fetchall()

    return run


# The parts of a recall (module or the store's backend class, function, name), as `--costs` names them.
PARTS = [
    ("recall", "walk", "traversal: the two levels' edges read and walked (Python and SQL)"),
    ("backend", "degrees", "SQL: the pool's degrees (two index ranges counted a concept)"),
    ("backend", "episodes_of", "SQL: the arriving facts' episodes, contexts and accesses"),
    ("backend", "recall_inputs", "SQL: the path ends' labels"),
    ("recall", "stats_of", "ranking: episodes folded per fact (times parsed)"),
    ("recall", "factors_for", "ranking: the four factors"),
    ("recall", "_ends", "results: path texts"),
    ("recall", "_results", "results: built"),
    ("tiers", "touch", "touch: the chosen results' episodes (one write transaction)"),
    ("recall", "recall_from", "recall_from itself (options, sorting, glue)"),
]


def costs(store: MemoryStore, seeds: list[str], options: RecallOptions) -> dict[str, float]:
    """Mean CPU ms a recall per part of `PARTS` (`--costs`), over `seeds`, after the same warm-up."""
    from costs import Meter

    import zerolang.knowledge.recall as recall_module
    from zerolang.knowledge.tiers import EpisodicMemory

    meter = Meter()
    owners = {"recall": recall_module, "backend": type(store.backend), "tiers": EpisodicMemory}
    saved = [(owners[owner], name, vars(owners[owner]).get(name)) for owner, name, _ in PARTS]
    try:
        for owner, name, label in PARTS:
            meter.wrap(owners[owner], name, label)
        run = recall_module.recall_from
        for label in seeds[:WARMUP]:
            run(store, concept_hash(label), options)
        meter.spent.clear()
        for label in seeds[WARMUP:]:
            run(store, concept_hash(label), options)
    finally:
        for owner, name, function in saved:
            if function is None:
                delattr(owner, name)  # it was inherited
            else:
                setattr(owner, name, function)
    return {label: meter.spent[label] / len(seeds[WARMUP:]) / 1e6 for *_, label in PARTS}


def timed(run: Callable[[str], object], seeds: list[str]) -> tuple[float, float, float]:
    """p50 and p95 of wall time and the p50 of this process's CPU time, in milliseconds over `seeds`,
    after `WARMUP` untimed runs (CPU time is what a loaded machine does not inflate; on PostgreSQL it
    leaves out the server's share)."""
    for label in seeds[:WARMUP]:
        run(label)
    latencies, cpu = [], []
    for label in seeds[WARMUP:]:
        began, used = time.perf_counter(), time.process_time()
        run(label)
        latencies.append(time.perf_counter() - began)
        cpu.append(time.process_time() - used)
    quantiles = statistics.quantiles(latencies, n=100)
    return quantiles[49] * 1000, quantiles[94] * 1000, statistics.median(cpu) * 1000


def measure(concepts: int, relations: int, backend: str, keep: Path | None) -> dict[str, float]:
    inputs = generate(concepts, relations)
    rng = random.Random(5)
    seeds = [f"c{rng.randrange(concepts)}" for _ in range(WARMUP + SAMPLES)]
    options = RecallOptions(depth=2, limit=20)
    hub, top = Counter(t.object for item in inputs for t in item.tuples).most_common(1)[0]
    with built(concepts, relations, inputs, backend, keep) as (where, build):
        with open_store(where) as store:
            recall = timed(lambda label: recall_from(store, concept_hash(label), options), seeds)
            reference = timed(two_hop(store, backend), seeds)
            query = timed(lambda label: run_query(store, f'recall "{label}" depth 2 limit 20'), seeds)
            match = timed(
                lambda label: run_query(store, f"match ({label} ?p ?y), (?y ?q ?z) limit 20"), seeds
            )
            parts = costs(store, seeds, options) if COSTS else {}
        zero = [sys.executable, "-m", "zerolang", "query", f'recall "{hub}" depth 2 limit 20', "--db", where]
        processes = {"pass": [sys.executable, "-c", "pass"], "zero": zero}
        child(zero)  # untimed: writes bytecode and the parser tables' cache, as any first run does
        whole = {name: [child(command) for _ in range(PROCESS_RUNS)] for name, command in processes.items()}
    return {
        "concepts": concepts,
        "relations": relations,
        "build_s": build,
        "max_degree": top,
        "hub": int(hub[1:]),
        "recall_p50": recall[0],
        "recall_p95": recall[1],
        "recall_cpu": recall[2],
        "sql_p50": reference[0],
        "sql_cpu": reference[2],
        "ratio": recall[0] / reference[0],
        "ratio_cpu": recall[2] / reference[2],
        "query_p50": query[0],
        "query_p95": query[1],
        "match_p50": match[0],
        "match_p95": match[1],
        **{f"part: {label}": ms for label, ms in parts.items()},
        **{
            f"{name}_{what}": statistics.median(run[index] for run in runs)
            for name, runs in whole.items()
            for index, what in enumerate(("wall", "cpu", "rss"))
        },
    }


@contextmanager
def built(
    concepts: int, relations: int, inputs: list[CompilerInput], backend: str, keep: Path | None
) -> Iterator[tuple[str, float]]:
    """A store holding `inputs` and the seconds its build took (NaN when copied from `keep`)."""
    if keep is None or backend != "sqlite":
        with location(backend) as where:
            with open_store(where) as store:
                start = time.perf_counter()
                ingest(store, inputs, now=NOW)
                build = time.perf_counter() - start
                store.backend.refresh_statistics()  # what autovacuum does on a server where it is on
            yield where, build
        return
    keep.mkdir(parents=True, exist_ok=True)
    kept = keep / f"recall-{concepts}-{relations}.db"
    build = float("nan")
    if not kept.exists():
        start = time.perf_counter()
        with open_store(str(kept) + ".part") as store:
            ingest(store, inputs, now=NOW)
        build = time.perf_counter() - start
        os.replace(str(kept) + ".part", kept)
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "memory.db"
        shutil.copyfile(kept, copy)  # the accesses a run records stay in its copy
        yield str(copy), build


# Runs one command and reports its resources: started from this small launcher, not from the bench,
# because a child's max RSS counts the memory of the process it was forked from.
LAUNCHER = """
import os, resource, subprocess, sys, time
began = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
wall = time.perf_counter() - began
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
"""


def child(command: list[str]) -> tuple[float, float, float]:
    """Wall and CPU seconds and max RSS (MiB) of one run of `command`, output discarded."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    report = subprocess.run(
        [sys.executable, "-c", LAUNCHER, *command],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    code, wall, cpu, rss = report.stdout.split()
    if int(code):
        raise SystemExit(f"{' '.join(command)} failed ({code})")
    return float(wall), float(cpu), float(rss)


def table(runs: list[list[dict[str, float]]], backend: str, repeat: int, loads: tuple[str, str]) -> str:
    lines = [
        f"Machine: {describe()}; backend: {backend}",
        f"Load average on {os.cpu_count()} cores: {loads[0]} before, {loads[1]} after;"
        f" median of {repeat} runs (min-max).",
        "",
        "| concepts / relations | build | hub degree | recall p50 | recall p95 | recall CPU p50"
        " | two-hop SQL p50 | two-hop SQL CPU p50 | recall / SQL (wall, CPU)"
        " | query p50 | query p95 | match p50 | match p95 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    keys = ("recall_p50", "recall_p95", "recall_cpu", "sql_p50", "sql_cpu")
    after = ("query_p50", "query_p95", "match_p50", "match_p95")
    for rows in runs:
        column = {key: [row[key] for row in rows] for key in rows[0]}
        builds = [value for value in column["build_s"] if not math.isnan(value)]
        cells = [
            f"{rows[0]['concepts']:,.0f} / {rows[0]['relations']:,.0f}",
            spread(builds, "{:.1f}", " s") if builds else "kept",
            f"{rows[0]['max_degree']:,.0f}",
            *(spread(column[key], "{:.2f}", " ms") for key in keys),
            f"{spread(column['ratio'], '{:.1f}', 'x')}, {spread(column['ratio_cpu'], '{:.1f}', 'x')}",
            *(spread(column[key], "{:.2f}", " ms") for key in after),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    engine = "SQLite file in WAL mode" if backend == "sqlite" else "PostgreSQL on loopback (psycopg 3)"
    lines.append(
        f"Generated with a fixed seed, power-law object degrees (p ~ 1/rank^{EXPONENT}), records of"
        f" {TUPLES_PER_RECORD} tuples; {engine}. Warm, in process, {SAMPLES} random seeds"
        f" after {WARMUP} untimed, wall time but for recall CPU (this process's CPU time): recall ="
        " `recall_from` depth 2, top 20 (score ranking, results touched); two-hop SQL = one recursive"
        " statement listing every concept two hops from the seed (both directions, confidence >= 0.1),"
        " the reference of the `recall / SQL` ratio (aim: within 5x at 100K, p50);"
        ' query = `zero query` engine on `recall "<label>" depth 2 limit 20`;'
        " match = `match (<label> ?p ?y), (?y ?q ?z) limit 20`."
    )
    lines += [
        "",
        f"Whole processes on each store's biggest hub (median of {PROCESS_RUNS} runs per repetition;"
        " CPU = user + system of the child):",
        "",
        "| store | process | wall | CPU | max RSS |",
        "|---|---|---:|---:|---:|",
    ]
    for rows in runs:
        column = {key: [row[key] for row in rows] for key in rows[0]}
        hub = f"c{rows[0]['hub']:.0f}"
        size = f"{rows[0]['concepts'] / 1000:,.0f}K"
        for name, label in (
            ("pass", "`python -c pass` (reference)"),
            (
                "zero",
                f"`zero query 'recall \"{hub}\" depth 2 limit 20'` (degree {rows[0]['max_degree']:,.0f})",
            ),
        ):
            lines.append(
                f"| {size} | {label} | {spread([v * 1000 for v in column[name + '_wall']], '{:.0f}', ' ms')}"
                f" | {spread([v * 1000 for v in column[name + '_cpu']], '{:.0f}', ' ms')}"
                f" | {spread(column[name + '_rss'], '{:.0f}', ' MiB')} |"
            )
    if COSTS:
        lines += ["", "Where a recall's CPU goes (`--costs`: mean CPU ms a recall, exclusive, by part):", ""]
        lines += ["| part | " + " | ".join(f"{rows[0]['concepts'] / 1000:,.0f}K" for rows in runs) + " |"]
        lines += ["|---|" + "---:|" * len(runs)]
        for *_, label in PARTS:
            cells = [spread([row[f"part: {label}"] for row in rows], "{:.2f}", " ms") for rows in runs]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min) / {five:.1f} (5 min)"


def main() -> None:
    parser = argparse.ArgumentParser(description="0-memory recall, query and match latency")
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--quick", action="store_true", help="10K only")
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="runs per size (median, min-max)")
    parser.add_argument(
        "--keep", type=Path, metavar="DIR", help="SQLite: build each store once into DIR, reuse it"
    )
    parser.add_argument("--costs", action="store_true", help="and where a recall's CPU goes, by part")
    args = parser.parse_args()
    global COSTS
    COSTS = args.costs
    sizes = [(10_000, 30_000)] if args.quick else [(10_000, 30_000), (100_000, 300_000)]
    before = load()
    runs = [[measure(*size, args.backend, args.keep) for _ in range(args.repeat)] for size in sizes]
    text = table(runs, args.backend, args.repeat, (before, load()))
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / f"recall-{args.backend}.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
