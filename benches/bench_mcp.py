"""The reference knowledge-graph tools over our memory: time per call as the operation log grows.

The graph is the replay of its recorded operations (zerolang/mcp/graph.py), so every call reads
the log. For logs of N operations (create_entities of one entity with two observations, then
relations), this prints the median time of `read_graph`, `search_nodes` and one
`add_observations` (which reads, then records), in process on a SQLite file (no MCP transport).
A server keeps its last replay while the store's counts are unchanged, so these are warm times;
a write by anyone else makes the next call replay the whole log (the `cold` column).

    python benches/bench_mcp.py            # N = 100, 1,000, 5,000
    python benches/bench_mcp.py --quick    # N = 100, 1,000
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import zerolang.memory
from zerolang.mcp.graph import KnowledgeGraph


def median_ms(step: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def build(graph: KnowledgeGraph, count: int) -> None:
    entities = max(count // 2, 1)
    for i in range(entities):
        graph.create_entities(
            [{"name": f"e{i}", "entityType": "thing", "observations": [f"obs {i}", "shared"]}]
        )
    for i in range(count - entities):
        graph.create_relations(
            [{"from": f"e{i % entities}", "to": f"e{(i * 7 + 1) % entities}", "relationType": "r"}]
        )


def measure(graph: KnowledgeGraph) -> tuple[float, float, float]:
    """Median ms of read_graph and search_nodes (warm), and of add_observations (reads, then records)."""
    counter = iter(range(10**9))
    read = median_ms(graph.read_graph)
    search = median_ms(lambda: graph.search_nodes("obs 1"))
    add = median_ms(
        lambda: graph.add_observations([{"entityName": "e0", "contents": [f"new {next(counter)}"]}])
    )
    return read, search, add


def main() -> None:
    sizes = [100, 1_000] if "--quick" in sys.argv else [100, 1_000, 5_000]
    columns = ("operations", "build s", "cold ms", "read_graph ms", "search_nodes ms", "add_observations ms")
    print("  ".join(f"{name:>{max(len(name), 10)}}" for name in columns))
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder, zerolang.memory.open(Path(folder) / "kg.db") as memory:
            graph = KnowledgeGraph(memory)
            start = time.perf_counter()
            build(graph, size)
            built = time.perf_counter() - start
            cold = median_ms(lambda: KnowledgeGraph(memory).read_graph(), repeat=3)
            read, search, add = measure(graph)
            print(f"{size:>10,}  {built:>10.1f}  {cold:>10.1f}  {read:>13.1f}  {search:>15.1f}  {add:>19.1f}")


if __name__ == "__main__":
    main()
