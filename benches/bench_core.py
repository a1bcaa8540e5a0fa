"""Core throughput: parse, validate and run generated graphs of 1K, 10K and 100K nodes.

Prints a markdown table (and writes it to benches/results/core.md). The graphs
are printed by zerolang's own printer, so the text is what `zero fmt` would
write; the reference row is `json.loads` on the same graph as JSON.

    python benches/bench_core.py            # 1K, 10K, 100K
    python benches/bench_core.py --quick    # 1K, 10K
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402

from zerolang.ast import Array, Entry, Graph, Map, Node, String, from_python, to_python  # noqa: E402
from zerolang.interpreter import run  # noqa: E402
from zerolang.parser import parse  # noqa: E402
from zerolang.printer import print_graph  # noqa: E402
from zerolang.validator import validate  # noqa: E402

WORDS = ["agent", "memory", "route", "message", "skill", "context", "session", "trust", "signal", "record"]


def _node(node_id: str, kind: str, **fields: object) -> Node:
    entries = [Entry(key="id", value=String(node_id)), Entry(key="type", value=String(kind))]
    entries += [Entry(key=key, value=from_python(value)) for key, value in fields.items()]
    return Node(entries=entries)


def generate(count: int, seed: int = 7) -> Graph:
    """A graph of `count` simple nodes: every fifth a constant, the rest one-step ops over earlier nodes.

    The ops are constant-time (arithmetic, comparison, logic, identity, field reads) so the
    run row measures the interpreter, not ever-growing strings or maps.
    """
    rng = random.Random(seed)
    nodes: list[Node] = []
    numbers: list[str] = []
    for index in range(count):
        node_id = f"n{index}"
        if index < 2 or index % 5 == 0:
            if rng.random() < 0.7:
                nodes.append(_node(node_id, "Constant", value=rng.randint(-1000, 1000)))
                numbers.append(node_id)
            else:
                nodes.append(
                    _node(node_id, "Constant", value={"label": f"{rng.choice(WORDS)} {rng.choice(WORDS)}"})
                )
            continue
        a, b = rng.choice(numbers), rng.choice(numbers)
        choice = index % 5
        if choice == 1:
            nodes.append(_node(node_id, "Operation", op="Add", inputs=[a, b]))
            numbers.append(node_id)
        elif choice == 2:
            nodes.append(_node(node_id, "Operation", op="GreaterThan", inputs=[a, b]))
        elif choice == 3:
            nodes.append(
                _node(node_id, "Operation", op="Multiply", inputs=[a, b], params={"note": rng.choice(WORDS)})
            )
            numbers.append(node_id)
        else:
            nodes.append(_node(node_id, "Operation", op="Identity", inputs=[a]))
            numbers.append(node_id)
    outputs = [f"n{count - 1}"]
    return Graph(
        [
            Entry(key="name", value=String(f"bench_{count}")),
            Entry(key="nodes", value=Array(items=list(nodes))),
            Entry(key="outputs", value=Array(items=[String(name) for name in outputs])),
            Entry(key="metadata", value=Map(entries=[Entry(key="generator", value=String("bench_core"))])),
        ]
    )


def best_of(repeats: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def wall_time(arguments: list[str], repeats: int = 5) -> float:
    def once() -> None:
        subprocess.run(arguments, check=True, capture_output=True)

    once()
    return best_of(repeats, once)


def main() -> None:
    quick = "--quick" in sys.argv
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    rows = []
    for size in sizes:
        repeats = 3 if size <= 10_000 else 1
        graph = generate(size)
        text = print_graph(graph)
        megabytes = len(text.encode()) / 1e6
        parse(text)  # warm: builds or loads the cached parser
        parse_seconds = best_of(repeats, lambda text=text: parse(text))
        parsed = parse(text)
        validate_seconds = best_of(repeats, lambda parsed=parsed: validate(parsed))
        run_seconds = best_of(repeats, lambda parsed=parsed, size=size: run(parsed, max_steps=size))
        as_json = json.dumps(to_python(parsed))
        json_seconds = best_of(repeats, lambda as_json=as_json: json.loads(as_json))
        rows.append(
            f"| {size:,} | {megabytes:.2f} MB | {megabytes / parse_seconds:.2f} MB/s | "
            f"{size / validate_seconds:,.0f} nodes/s | {size / run_seconds:,.0f} nodes/s | "
            f"{len(as_json) / 1e6 / json_seconds:.1f} MB/s |"
        )
        print(f"done {size:,}", file=sys.stderr)
    tiny = ROOT / "examples" / "hello.0"
    zero = [sys.executable, "-m", "zerolang"]
    json_wall = wall_time([*zero, "run", str(tiny), "--input", "name=Ada", "--json"])
    table_wall = wall_time([*zero, "run", str(tiny), "--input", "name=Ada"])
    help_wall = wall_time([*zero, "--help"])
    python_wall = wall_time([sys.executable, "-c", "pass"])
    lines = [
        f"Machine: {describe()}",
        "",
        "| nodes | .0 text | parse | validate | run | json.loads (reference) |",
        "|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        "Wall time from process start, best of 5: "
        f"`zero run examples/hello.0` {table_wall * 1000:.0f} ms (table), "
        f"{json_wall * 1000:.0f} ms (`--json`); "
        f"`zero --help` {help_wall * 1000:.0f} ms; `python -c pass` {python_wall * 1000:.0f} ms.",
    ]
    table = "\n".join(lines)
    print(table)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / ("core-quick.md" if quick else "core.md")).write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
