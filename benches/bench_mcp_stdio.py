"""Our knowledge-graph tools against the reference MCP memory server, over stdio, one client.

The reference is `@modelcontextprotocol/server-memory` (Node.js; it rewrites one JSONL file),
installed with npm into a temporary folder by this script; without npm (or when the install
fails) its rows are skipped with a message. Both servers are driven by the same client (the MCP
Python SDK's `Client` over stdio) with the same workload, in one run, alternating which goes
first: N entities built one `create_entities` call each (one entity, two observations), then
`read_graph`, `search_nodes` and `open_nodes` on the result (median of 5).

    python benches/bench_mcp_stdio.py                       # N = 1,000 and 5,000, both servers
    python benches/bench_mcp_stdio.py --sizes 1000,50000 --ours-only   # flatness of ours

Then, beside the built graph, the floor: rounds of 20 `ping`s (the SDK's ping round trip, from a
second client in the protocol's legacy mode, the only one that still has ping, to a second server
process on the same store), 20 `create_entities` of a new entity and 20 no-op calls
(`create_entities` of an entity the graph holds: nothing is written), interleaved so that the
machine's load falls on all three alike. The aims: `create_entities` within 4x of the ping at every
size, and the no-op call flat with the graph's size.

Per-call figures are wall time at the client (a round trip: JSON-RPC, the tool, the result); on a
loaded machine they measure the neighbours too. `server CPU per call` is the server process's CPU
time for the whole run (start-up and reads included) over the calls: what the load does not move.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from machine import describe, load_average
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "@modelcontextprotocol/server-memory"


@dataclass(slots=True)
class Run:
    server: str
    size: int
    total: float  # seconds to build
    calls: list[float]  # ms per create_entities call, in order
    reads: dict[str, float]  # ms, median of 5
    server_cpu: float = (
        0.0  # seconds of CPU the server process used in the whole run (start-up and reads too)
    )
    floor: dict[str, list[float]] = field(default_factory=dict)  # ms: ping, create, no-op (`FLOOR`)

    def window(self, end: int, width: int = 200) -> float:
        """Median ms of the `width` calls before call number `end` (where the graph had ~`end`)."""
        part = self.calls[max(0, end - width) : end]
        return statistics.median(part)

    def p50(self) -> float:
        return statistics.median(self.calls)

    def p95(self) -> float:
        return statistics.quantiles(self.calls, n=20)[-1]


FLOOR_ROUNDS, FLOOR_CALLS = 10, 20


async def floor(params: StdioServerParameters, client: Client, size: int) -> dict[str, list[float]]:
    """Interleaved rounds of pings (a legacy-mode client of a second server on the same store), new
    entities' `create_entities` and no-op calls (an entity the graph holds), ms each."""
    import warnings

    times: dict[str, list[float]] = {name: [] for name in ("ping", "create", "no-op")}
    times.update({f"{name} CPU": [] for name in ("ping", "create", "no-op")})
    counter = iter(range(size, size + FLOOR_ROUNDS * FLOOR_CALLS))

    async def timed(name: str, step: Callable[[], Awaitable[Any]]) -> None:
        for _ in range(FLOOR_CALLS):
            began, used = time.perf_counter(), time.process_time()
            await step()
            times[name].append((time.perf_counter() - began) * 1000)
            times[f"{name} CPU"].append((time.process_time() - used) * 1000)  # the client's share

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ping is deprecated by the protocol's 2026 era: legacy mode has it
        async with Client(params, mode="legacy") as pinger:
            for _ in range(FLOOR_ROUNDS):
                await timed("ping", pinger.send_ping)
                await timed(
                    "create",
                    lambda: client.call_tool("create_entities", {"entities": [entity(next(counter))]}),
                )
                await timed("no-op", lambda: client.call_tool("create_entities", {"entities": [entity(0)]}))
    return times


def install_reference(folder: Path) -> list[str] | None:
    """The command that starts the reference server, installed into `folder`; None without npm."""
    npm = shutil.which("npm")
    if npm is None:
        print("npm is not installed: the reference server's rows are skipped")
        return None
    done = subprocess.run(
        [npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(folder), REFERENCE],
        capture_output=True,
        text=True,
        check=False,
    )
    script = folder / "node_modules" / "@modelcontextprotocol" / "server-memory" / "dist" / "index.js"
    node = shutil.which("node")
    if done.returncode != 0 or not script.exists() or node is None:
        print(f"npm could not install {REFERENCE}: the reference server's rows are skipped")
        print(done.stderr.strip()[-500:])
        return None
    return [node, str(script)]


def version_of(folder: Path) -> str:
    import json

    package = folder / "node_modules" / "@modelcontextprotocol" / "server-memory" / "package.json"
    return str(json.loads(package.read_text(encoding="utf-8"))["version"])


def entity(i: int) -> dict[str, Any]:
    return {"name": f"entity {i}", "entityType": "thing", "observations": [f"observation {i}", "shared"]}


async def drive(params: StdioServerParameters, server: str, size: int) -> Run:
    before = children_cpu()
    run = await _drive(params, server, size)
    run.server_cpu = children_cpu() - before  # the server has exited: its CPU time is counted
    return run


def children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def _drive(params: StdioServerParameters, server: str, size: int) -> Run:
    async with Client(params) as client:
        calls: list[float] = []
        start = time.perf_counter()
        for i in range(size):
            began = time.perf_counter()
            result = await client.call_tool("create_entities", {"entities": [entity(i)]})
            calls.append((time.perf_counter() - began) * 1000)
            if result.is_error:
                raise SystemExit(f"{server}: create_entities failed: {result.content}")
        total = time.perf_counter() - start

        async def median(step: Callable[[], Awaitable[Any]]) -> float:
            times = []
            for _ in range(5):
                began = time.perf_counter()
                await step()
                times.append((time.perf_counter() - began) * 1000)
            return statistics.median(times)

        reads = {
            "read_graph": await median(lambda: client.call_tool("read_graph", {})),
            "search_nodes": await median(
                lambda: client.call_tool("search_nodes", {"query": "observation 17"})
            ),
            "open_nodes": await median(
                lambda: client.call_tool("open_nodes", {"names": ["entity 1", f"entity {size // 2}"]})
            ),
        }
        run = Run(server, size, total, calls, reads)
        run.floor = await floor(params, client, size)
        return run


def ours(folder: Path) -> StdioServerParameters:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(folder)}
    env["ZERO_EXPERIENCE_DB"] = str(folder / "experiences.db")
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "zerolang", "mcp", "--db", str(folder / "kg.db")],
        env=env,
        cwd=str(folder),
    )


def reference(command: list[str], folder: Path) -> StdioServerParameters:
    env = {**os.environ, "MEMORY_FILE_PATH": str(folder / "memory.jsonl")}
    return StdioServerParameters(command=command[0], args=command[1:], env=env, cwd=str(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000", help="entities to build, comma separated")
    parser.add_argument("--ours-only", action="store_true", help="skip the reference server")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    print(f"Machine: {describe()}")
    print(
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by"
        f" `python benches/bench_mcp_stdio.py --sizes {options.sizes}"
        f"{' --ours-only' if options.ours_only else ''}`."
    )
    before = load_average()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as npm_folder:
        command = None if options.ours_only else install_reference(Path(npm_folder))
        label = f"reference ({REFERENCE} {version_of(Path(npm_folder))})" if command else ""
        for turn, size in enumerate(sizes):
            servers: list[tuple[str, Callable[[Path], StdioServerParameters]]] = [("ours (zero mcp)", ours)]
            if command is not None:
                servers.append((label, lambda folder, command=command: reference(command, folder)))
            if turn % 2:
                servers.reverse()  # alternate which goes first
            for name, make in servers:
                with tempfile.TemporaryDirectory() as folder:
                    runs.append(anyio.run(drive, make(Path(folder)), name, size))
    print(f"Load average on {os.cpu_count()} cores: {before} before, {load_average()} after.")
    print()
    print(
        "| server | entities | build, one call each | per call: median at ~1,000 | median at the end"
        " | p50 | p95 | server CPU per call | read_graph | search_nodes | open_nodes |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run in sorted(runs, key=lambda run: (run.size, run.server)):
        early = f"{run.window(min(1000, run.size)):.1f} ms"
        print(
            f"| {run.server} | {run.size:,} | {run.total:.1f} s | {early} | {run.window(run.size):.1f} ms"
            f" | {run.p50():.1f} ms | {run.p95():.1f} ms | {run.server_cpu / run.size * 1000:.2f} ms"
            f" | {run.reads['read_graph']:.1f} ms | {run.reads['search_nodes']:.1f} ms"
            f" | {run.reads['open_nodes']:.1f} ms |"
        )
    print()
    print(
        f"The floor ({FLOOR_ROUNDS} interleaved rounds of {FLOOR_CALLS} calls each, median):"
        " ping = the SDK's ping round trip, no-op = create_entities of an entity the graph holds;"
        " client CPU = this process's CPU time a call (mean): the SDK client's share of the round trip."
    )
    print()
    print(
        "| server | entities | ping | create_entities | no-op call | create_entities / ping"
        " | client CPU: ping | create_entities | no-op |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run in sorted(runs, key=lambda run: (run.size, run.server)):
        ping, create, noop = (statistics.median(run.floor[name]) for name in ("ping", "create", "no-op"))
        cpu = [statistics.mean(run.floor[f"{name} CPU"]) for name in ("ping", "create", "no-op")]
        print(
            f"| {run.server} | {run.size:,} | {ping:.2f} ms | {create:.2f} ms | {noop:.2f} ms"
            f" | {create / ping:.1f}x | {cpu[0]:.2f} ms | {cpu[1]:.2f} ms | {cpu[2]:.2f} ms |"
        )
    print()
    for line in verdicts(runs):
        print(line)


def verdicts(runs: list[Run]) -> list[str]:
    """The issue's aims, said of this run: ours 5x the reference in total, p95 under 10 ms, and
    the median call at the end of the largest build within 1.5x of the one at ~1,000 entities."""

    def held(ok: bool) -> str:
        return "holds" if ok else "not met"

    lines = []
    for size in sorted({run.size for run in runs}):
        pair = {run.server.split()[0]: run for run in runs if run.size == size}
        if len(pair) == 2:
            ratio = pair["reference"].total / pair["ours"].total
            lines.append(
                f"At {size:,} entities ours built the graph {ratio:.1f}x faster than the reference"
                f" (aim 5x: {held(ratio >= 5)})."
            )
    ours = sorted((run for run in runs if run.server.startswith("ours")), key=lambda run: run.size)
    for run in ours:
        lines.append(
            f"Ours at {run.size:,}: per-call p50 {run.p50():.1f} ms, p95 {run.p95():.1f} ms"
            f" (aim p95 < 10 ms: {held(run.p95() < 10)})."
        )
    for run in ours:
        ping, create = statistics.median(run.floor["ping"]), statistics.median(run.floor["create"])
        lines.append(
            f"Ours at {run.size:,}: create_entities {create:.2f} ms, {create / ping:.1f}x the ping round trip"
            f" ({ping:.2f} ms; aim within 4x: {held(create <= 4 * ping)})."
        )
    if len(ours) > 1:  # against the ping of its own round: a load that moves both leaves it be
        first, last = (
            statistics.median(run.floor["no-op"]) / statistics.median(run.floor["ping"])
            for run in (ours[0], ours[-1])
        )
        lines.append(
            f"Ours' no-op call from {ours[0].size:,} to {ours[-1].size:,} entities: {first:.2f} to"
            f" {last:.2f} times the ping ({last / first:.2f}x;"
            f" aim flat, within 1.5x: {held(last <= 1.5 * first)})."
        )
    if ours and ours[-1].size > 1000:
        last = ours[-1]
        early, late = last.window(1000), last.window(last.size)
        lines.append(
            f"Ours from ~1,000 to {last.size:,} entities: the median call went from {early:.1f} to"
            f" {late:.1f} ms ({late / early:.2f}x; aim flat, within 1.5x: {held(late <= 1.5 * early)})."
        )
    return lines


if __name__ == "__main__":
    main()
