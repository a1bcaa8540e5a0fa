"""Many agents on one memory: `zero mcp --http` (one server, a token per space) against the same
agents over stdio (one `zero mcp` process each), in one run.

N agents spread over M spaces (agent i in space i mod M) each connect with the MCP SDK's own client
and do R rounds of: `create_entities` (one entity named for its agent, space and round, with an
observation), `search_nodes` for its space's marker, and `recall` of what its agent noted. All N
run at once. Reported per transport: p50 and p95 of each call at the client, errors, cross-space
leaks (a result that names another space's marker: must be 0), the server side's peak resident
memory (the HTTP server; the sum over the stdio processes), and the peak number of PostgreSQL
connections to the bench's database (sampled every 0.2 s).

    python benches/bench_mcp_http.py                          # 20 agents, 5 spaces, 5 rounds, PostgreSQL
    python benches/bench_mcp_http.py --agents 40 --spaces 10 --rounds 3
    python benches/bench_mcp_http.py --sqlite                 # a SQLite file instead

The issue's scale (200 agents over 20 spaces) does not fit this bench's machine: 200 stdio server
processes of ~70 MB each start in minutes on 2 cores and the clients share those cores too. The
defaults are what two cores carry in about a minute; larger runs take `--agents/--spaces`. The
PostgreSQL server is the local one (`--pg URL`), on which a scratch database is made and dropped.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from machine import CHILD_ENVIRONMENT, describe, load_average
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OPS = ("create_entities", "search_nodes", "recall")
ENVIRONMENT = {**CHILD_ENVIRONMENT, "PYTHONPATH": str(ROOT)}


@dataclass(slots=True)
class Tally:
    transport: str
    times: dict[str, list[float]] = field(default_factory=lambda: {op: [] for op in OPS})
    errors: int = 0
    leaks: int = 0
    peak_rss_kib: int = 0
    peak_connections: int | None = None
    wall: float = 0.0
    first_error: str = ""

    def row(self) -> str:
        cells = []
        for op in OPS:
            found = self.times[op]
            if len(found) >= 2:
                p95 = statistics.quantiles(found, n=20)[-1]
                cells.append(f"{statistics.median(found):.0f} / {p95:.0f} ms")
            else:
                cells.append("-")
        connections = "-" if self.peak_connections is None else str(self.peak_connections)
        return (
            f"| {self.transport} | {' | '.join(cells)} | {self.errors} | {self.leaks}"
            f" | {self.peak_rss_kib / 1024:.0f} MiB | {connections} | {self.wall:.1f} s |"
        )


def marker(space: int) -> str:
    return f"mk{space:03d}x"


def space_name(space: int) -> str:
    return f"bench-{space:03d}"


async def agent(
    connect: Callable[[], AbstractAsyncContextManager[Any]],
    index: int,
    spaces: int,
    rounds: int,
    tally: Tally,
) -> None:
    """One agent's session: R rounds of create, search, recall in its space; leaks counted."""
    space = index % spaces
    mine = marker(space)
    others = [marker(other) for other in range(spaces) if other != space]
    try:
        async with connect() as session:
            for round_ in range(rounds):
                name = f"{mine}-agent{index}-r{round_}"
                calls = (
                    (
                        "create_entities",
                        {
                            "entities": [
                                {
                                    "name": name,
                                    "entityType": "note",
                                    "observations": [f"{mine} round {round_}"],
                                }
                            ]
                        },
                    ),
                    ("search_nodes", {"query": mine}),
                    ("recall", {"text": f"what is known about {mine}-agent{index}?"}),
                )
                for op, arguments in calls:
                    start = time.perf_counter()
                    result = await session.call_tool(op, arguments)
                    tally.times[op].append((time.perf_counter() - start) * 1000)
                    text = " ".join(getattr(part, "text", "") for part in result.content)
                    if result.is_error:
                        tally.errors += 1
                        tally.first_error = tally.first_error or f"{op}: {text[:200]}"
                    if any(other in text for other in others):
                        tally.leaks += 1
    except Exception as error:  # a session that could not even start counts as one error
        tally.errors += 1
        tally.first_error = tally.first_error or f"{type(error).__name__}: {error}"[:200]


def rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def servers() -> list[int]:
    """The `zero mcp` processes this bench started (its children running `zerolang mcp`)."""
    found = []
    me = str(os.getpid())
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                parent = handle.read().rsplit(")", 1)[1].split()[1]
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                words = handle.read().split(b"\0")
        except (OSError, IndexError):
            continue
        if parent == me and b"zerolang" in words and b"mcp" in words:
            found.append(int(entry))
    return found


async def sample(tally: Tally, folder: str, database: str | None, stop: anyio.Event) -> None:
    """Peak resident memory of the bench's servers and peak connections to its database."""
    connection = None
    if database is not None:
        import psycopg

        connection = psycopg.connect(database, autocommit=True)
    try:
        while not stop.is_set():
            tally.peak_rss_kib = max(tally.peak_rss_kib, rss_kib(servers()))
            if connection is not None:
                (count,) = connection.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid()"
                ).fetchone()  # type: ignore[misc]
                tally.peak_connections = max(tally.peak_connections or 0, int(count))
            with anyio.move_on_after(0.2):
                await stop.wait()
    finally:
        if connection is not None:
            connection.close()


async def run_all(
    tally: Tally,
    connect: Callable[[int], Callable[[], AbstractAsyncContextManager[Any]]],
    options: argparse.Namespace,
    folder: str,
    database: str | None,
) -> None:
    stop = anyio.Event()
    start = time.perf_counter()
    async with anyio.create_task_group() as sampler:
        sampler.start_soon(sample, tally, folder, database, stop)
        async with anyio.create_task_group() as agents:
            for index in range(options.agents):
                agents.start_soon(agent, connect(index), index, options.spaces, options.rounds, tally)
        tally.wall = time.perf_counter() - start
        stop.set()


def over_http(options: argparse.Namespace, db: str, folder: str, database: str | None) -> Tally:
    import zerolang.memory

    with zerolang.memory.open(db, space=space_name(0)) as memory:
        tokens = [memory.create_token(space_name(space))[0] for space in range(options.spaces)]
    said = Path(folder) / "server.err"
    with said.open("w") as stderr:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "zerolang",
                "mcp",
                "--http",
                "--db",
                db,
                "--port",
                "0",
                "--space",
                space_name(0),
            ],
            stderr=stderr,
            env={**ENVIRONMENT, "ZERO_EXPERIENCE_DB": str(Path(folder) / "e.db") if "://" not in db else db},
            cwd=folder,
        )
    try:
        deadline = time.monotonic() + 60
        while " at http" not in said.read_text() and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        line = said.read_text().splitlines()[0]
        url = line.split(" at ", 1)[1].split(" ", 1)[0]
        tally = Tally("HTTP: one `zero mcp --http`")

        def connect(index: int) -> Callable[[], AbstractAsyncContextManager[Any]]:
            token = tokens[index % options.spaces]

            @asynccontextmanager
            async def session() -> AsyncIterator[Any]:
                async with (
                    create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
                    Client(streamable_http_client(url, http_client=http)) as client,
                ):
                    yield client

            return session

        anyio.run(run_all, tally, connect, options, folder, database)
        return tally
    finally:
        server.terminate()
        server.wait(timeout=30)


def over_stdio(options: argparse.Namespace, db: str, folder: str, database: str | None) -> Tally:
    tally = Tally(f"stdio: {options.agents} `zero mcp` processes")

    def connect(index: int) -> Callable[[], AbstractAsyncContextManager[Any]]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "zerolang", "mcp", "--db", db, "--space", space_name(index % options.spaces)],
            env={**ENVIRONMENT, "ZERO_EXPERIENCE_DB": str(Path(folder) / "e.db") if "://" not in db else db},
            cwd=folder,
        )
        return lambda: Client(params)

    anyio.run(run_all, tally, connect, options, folder, database)
    return tally


def scratch_database(server: str) -> tuple[str, Callable[[], None]]:
    """A new database on the PostgreSQL server `server` (a URL of any of its databases) and its drop."""
    import psycopg

    name = f"bench_http_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    url = server.rsplit("/", 1)[0] + "/" + name

    def drop() -> None:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    return url, drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=20)
    parser.add_argument("--spaces", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--pg", default="postgresql://postgres@127.0.0.1:5432/postgres", help="a PostgreSQL server"
    )
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file instead of PostgreSQL")
    parser.add_argument("--http-only", action="store_true", help="skip the stdio processes")
    options = parser.parse_args()
    print(f"Machine: {describe()}")
    command = " ".join(["python", "benches/bench_mcp_http.py", *sys.argv[1:]])
    print(f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `{command}`.")
    print(
        f"{options.agents} agents over {options.spaces} spaces, {options.rounds} rounds each of"
        f" create_entities, search_nodes, recall; all agents at once;"
        f" {'SQLite' if options.sqlite else 'PostgreSQL'}."
    )
    before = load_average()
    tallies: list[Tally] = []
    for transport in ("http",) if options.http_only else ("http", "stdio"):
        with tempfile.TemporaryDirectory(prefix="bench-mcp-http-") as folder:
            drop: Callable[[], None] = lambda: None  # noqa: E731
            database: str | None = None
            if options.sqlite:
                db = str(Path(folder) / "memory.db")
            else:
                db, drop = scratch_database(options.pg)
                database = db
            try:
                run = over_http if transport == "http" else over_stdio
                tallies.append(run(options, db, folder, database))
            finally:
                drop()
    print(f"Load average on {os.cpu_count()} cores: {before} before, {load_average()} after.")
    print()
    print(
        "| transport | create_entities p50 / p95 | search_nodes p50 / p95 | recall p50 / p95 | errors"
        " | cross-space leaks | server memory (peak RSS) | PostgreSQL connections (peak) | wall |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for tally in tallies:
        print(tally.row())
    for tally in tallies:
        if tally.first_error:
            print(f"\nfirst error ({tally.transport}): {tally.first_error}")


if __name__ == "__main__":
    main()
