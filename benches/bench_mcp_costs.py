"""Where a `create_entities` call's server time goes: its CPU time by named cost, at several graph sizes.

In process (no transport), on a SQLite file, through the same code the stdio server runs for a
call it answers from its line (`zerolang.mcp.direct.Direct.answer`: the line parsed, the tool, the
response line dumped). The graph is built one `create_entities` call each (one entity, two
observations, as `bench_mcp_stdio.py`), then `--calls` more are measured. Each named cost is a
function of the path, timed by wrapping it: its *exclusive* CPU time (this thread's, which the
machine's load moves less than wall time), its callees' named costs taken out, as a mean per call.
The wrappers add a few microseconds a call; the `total` row is measured without them.

    python benches/bench_mcp_costs.py                           # 1,000, 10,000 and 50,000 entities
    python benches/bench_mcp_costs.py --sizes 1000 --calls 500  # quick
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from costs import Meter
from machine import describe, load_average

import zerolang.memory
from zerolang.mcp.server import build_server

# (module, owner within it or "", function, the cost's name): callees listed apart are taken out.
COSTS = [
    ("zerolang.mcp.direct", "Direct", "answer", "JSON-RPC line: parse, argument check, response dump"),
    ("zerolang.mcp.server", "", "_text", "result text (indented JSON, as the SDK writes it)"),
    ("zerolang.mcp.graph", "KnowledgeGraph", "create_entities", "graph tool: which entities are new"),
    ("zerolang.mcp.graph", "KnowledgeGraph", "load", "graph tool: the kept graph's change token"),
    ("zerolang.mcp.graph", "KnowledgeGraph", "_record", "graph tool: tuples, op JSON, context, upkeep"),
    ("zerolang.mcp.graph", "Graph", "apply", "graph tool: apply the op to the kept graph"),
    (
        "zerolang.storage.sqlite.backend",
        "SqliteBackend",
        "_retry",
        "SQL: BEGIN IMMEDIATE (and busy timeouts)",
    ),
    ("zerolang.knowledge.ingest", "", "compile_record", "compile: the record's hashes"),
    ("zerolang.knowledge.store", "MemoryStore", "apply", "store: apply (declarations, single-valued)"),
    ("zerolang.knowledge.temporal", "", "after_insert", "temporal rules on the new facts"),
    ("zerolang.knowledge.store", "", "_log_batch", "space log: its row and seal"),
    ("zerolang.storage.sql.records", "Records", "apply_records", "merge: batch work (keys, pending, result)"),
    ("zerolang.storage.sql.records", "Records", "_existing", "SQL: which episodes and contexts exist"),
    ("zerolang.storage.sql.seals", "Seals", "sealed_rows", "SQL: the stored concepts and facts read"),
    ("zerolang.knowledge.merge", "", "plan", "merge: plan the rows"),
    ("zerolang.storage.sqlite.backend", "SqliteBackend", "write_plan", "SQL: insert rows (FTS by trigger)"),
    ("zerolang.storage.sql.records", "", "seal_changes", "seals: the rows' digests (SHA-256)"),
    ("zerolang.storage.sql.seals", "Seals", "seal_apply", "seals: fold and upsert"),
    ("zerolang.storage.sqlite.backend", "SqliteBackend", "_commit", "SQL: COMMIT (the WAL frames written)"),
]


def install(meter: Meter) -> None:
    for module, owner, name, label in COSTS:
        found = importlib.import_module(module)
        meter.wrap(getattr(found, owner) if owner else found, name, label)


def line(i: int, meta: dict[str, str]) -> str:
    entity = {"name": f"entity {i}", "entityType": "thing", "observations": [f"observation {i}", "shared"]}
    params = {"name": "create_entities", "arguments": {"entities": [entity]}, "_meta": meta}
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})


def measure(size: int, calls: int, meter: Meter | None) -> tuple[float, float, Counter[str]]:
    """Median and mean thread CPU ms of a call after `size` calls, and each cost's ns over `calls`."""
    with tempfile.TemporaryDirectory() as folder, zerolang.memory.open(Path(folder) / "kg.db") as memory:
        direct = build_server(memory).direct  # type: ignore[attr-defined]
        meta = {"io.modelcontextprotocol/protocolVersion": "bench"}
        direct._known.append(meta)  # as if the SDK had accepted this envelope (`Direct.learn`)
        direct._extra = {}
        answer: Callable[[str], str | None] = direct.answer
        for i in range(size):
            if answer(line(i, meta)) is None:
                raise SystemExit("the call was not answered from its line")
        if meter is not None:
            meter.spent.clear()
        took = []
        for i in range(size, size + calls):
            text = line(i, meta)
            began = time.thread_time_ns()
            answer(text)
            took.append((time.thread_time_ns() - began) / 1e6)
        return statistics.median(took), statistics.mean(took), Counter(meter.spent if meter else {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,50000", help="entities built first, comma separated")
    parser.add_argument("--calls", type=int, default=2000, help="calls measured at each size")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    print(f"Machine: {describe()}")
    print(
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by"
        f" `python benches/bench_mcp_costs.py --sizes {options.sizes} --calls {options.calls}`."
    )
    before = load_average()
    plain = {size: measure(size, options.calls, None) for size in sizes}
    meter = Meter()
    install(meter)
    costs = {size: measure(size, options.calls, meter)[2] for size in sizes}
    print(f"Load average on {os.cpu_count()} cores: {before} before, {load_average()} after.")
    print()
    header = " | ".join(f"{size:,} entities" for size in sizes)
    print(f"| named cost (CPU ms a call, mean) | {header} |")
    print("|---|" + "---:|" * len(sizes))
    order = sorted({label for *_, label in COSTS}, key=lambda label: -costs[sizes[0]][label])
    for label in order:
        cells = " | ".join(f"{costs[size][label] / options.calls / 1e6:.3f}" for size in sizes)
        print(f"| {label} | {cells} |")
    named = " | ".join(f"{sum(costs[size].values()) / options.calls / 1e6:.3f}" for size in sizes)
    print(f"| sum of the named costs (wrapped) | {named} |")
    total = " | ".join(f"{plain[size][1]:.3f} (median {plain[size][0]:.3f})" for size in sizes)
    print(f"| total, unwrapped: mean (median) | {total} |")


if __name__ == "__main__":
    main()
