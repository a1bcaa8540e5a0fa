"""Read throughput of a PostgreSQL memory with 0, 1 and 2 hot standbys (issue 42, point 6).

Builds a primary and two streaming standbys in a temporary folder (`tests/standbys.py`: `initdb`,
`pg_basebackup -R`; as root they run as the `postgres` user), loads a memory (`--spaces` spaces of
`--facts` facts each, generated with a fixed seed), then, for each of 0, 1 and 2 standbys listed in
`$ZERO_MEMORY_READ_DB`, runs `--readers` processes at once for `--seconds`, each reading one space
in turn: a plain-words recall (`Memory.recall`), a `recall` query and a `match` query. Prints
reads per second (all readers together), each read's p50/p95 latency, and where the reads went
(the transactions each server committed in the memory's database meanwhile, from
`pg_stat_database.xact_commit`; one read runs several statements, and a recall also commits its
access counts on the primary). The 0-standby row, every read on the primary, is the reference of
the same run. Every server and every reader share this machine's cores: on a small machine a
standby adds no CPU, so the figures show the routing's cost, not a cluster's capacity.

    python benches/bench_standbys.py                 # 4 readers, 10 s per row
    python benches/bench_standbys.py --quick         # 2 readers, 3 s per row
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe, load_average  # noqa: E402

from tests.standbys import Servers, primary_and_standbys  # noqa: E402
from zerolang.memory import open_memory  # noqa: E402
from zerolang.util.config import READ_DB_ENV, READ_LAG_ENV, READ_WAIT_ENV  # noqa: E402

PREDICATES = ["likes", "knows", "works-on", "lives-in", "reads", "plays", "visits", "owns"]
WORDS = ["chess", "tea", "rust", "lisbon", "poetry", "jazz", "garden", "compiler", "river", "piano"]

# One reader: reads its space in turn (recall in plain words, a recall query, a match query) until
# its time is up; prints each read's latency in seconds.
READER = """
import json, sys, time
from zerolang.memory import open_memory
url, space, seconds, people = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
latencies = []
with open_memory(url, space=space) as memory:
    memory.query("recall person-0")  # connect (and open the standbys) before the clock starts
    print("ready", flush=True)
    sys.stdin.readline()
    end = time.perf_counter() + seconds
    step = 0
    while time.perf_counter() < end:
        person = f"person-{step % people}"
        start = time.perf_counter()
        if step % 3 == 0:
            memory.recall(f"what does {person} like")
        elif step % 3 == 1:
            memory.query(f"recall {person}")
        else:
            memory.query(f"match ({person} ?p ?x)")
        latencies.append(time.perf_counter() - start)
        step += 1
print(json.dumps(latencies))
"""


def facts(space: int, count: int, people: int) -> list[tuple[str, str, str]]:
    rng = random.Random(space)
    return [
        (f"person-{index % people}", rng.choice(PREDICATES), f"{rng.choice(WORDS)}-{rng.randrange(count)}")
        for index in range(count)
    ]


def committed(servers: Servers, port: int) -> int:
    import psycopg

    with psycopg.connect(servers.url(port), autocommit=True) as connection:
        row = connection.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = 'memory'"
        ).fetchone()
    return int(row[0]) if row else 0


def caught_up(servers: Servers) -> None:
    import psycopg

    with psycopg.connect(servers.primary, autocommit=True) as primary:
        (target,) = primary.execute("SELECT pg_current_wal_insert_lsn()").fetchone() or ("0/0",)
    for port in servers.standby_ports:
        with psycopg.connect(servers.url(port), autocommit=True) as connection:
            while not (
                connection.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,)).fetchone()
                or (False,)
            )[0]:
                time.sleep(0.05)


def run(servers: Servers, standbys: int, options: argparse.Namespace) -> dict[str, object]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ZERO_MEMORY_READ")}
    if standbys:
        environment[READ_DB_ENV] = ",".join(
            servers.url(port, "memory") for port in servers.standby_ports[:standbys]
        )
        environment[READ_WAIT_ENV] = "0.2"
        environment[READ_LAG_ENV] = "5"
    environment["PYTHONPATH"] = str(ROOT)
    url = servers.url(servers.primary_port, "memory")
    readers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                READER,
                url,
                f"space-{index % options.spaces}",
                str(options.seconds),
                str(options.people),
            ],
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for index in range(options.readers)
    ]
    for reader in readers:  # every reader connected
        assert reader.stdout is not None and reader.stdout.readline().strip() == "ready"
    ports = (servers.primary_port, *servers.standby_ports)
    time.sleep(1.0)  # the readers' start-up transactions reach pg_stat_database
    before = [committed(servers, port) for port in ports]
    start = time.perf_counter()
    for reader in readers:
        assert reader.stdin is not None
        reader.stdin.write("go\n")
        reader.stdin.flush()
    latencies: list[float] = []
    for reader in readers:
        output, _ = reader.communicate(timeout=options.seconds + 120)
        assert reader.returncode == 0
        latencies += json.loads(output.strip().splitlines()[-1])
    elapsed = time.perf_counter() - start
    time.sleep(1.0)  # the readers' last transactions, flushed as they closed, reach pg_stat_database
    after = [committed(servers, port) for port in ports]
    cuts = statistics.quantiles(latencies, n=20)
    return {
        "standbys": standbys,
        "reads": len(latencies),
        "per_second": len(latencies) / elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p95": cuts[18] * 1000,
        "where": [b - a for a, b in zip(before, after, strict=True)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--spaces", type=int, default=8)
    parser.add_argument("--facts", type=int, default=500, help="facts per space")
    parser.add_argument("--people", type=int, default=60, help="subjects per space")
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    if options.quick:
        options.readers, options.seconds, options.facts = 2, 3.0, 100
    import psycopg

    with primary_and_standbys(2) as servers:
        with psycopg.connect(servers.primary, autocommit=True) as admin:
            admin.execute("CREATE DATABASE memory")
        url = servers.url(servers.primary_port, "memory")
        loading = time.perf_counter()
        for space in range(options.spaces):
            with open_memory(url, space=f"space-{space}") as memory:
                memory.remember(facts(space, options.facts, options.people))
        loaded = time.perf_counter() - loading
        caught_up(servers)
        rows = [run(servers, standbys, options) for standbys in (0, 1, 2)]
    print(f"machine: {describe()}")
    print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load: {load_average()}")
    print(
        f"memory: {options.spaces} spaces x {options.facts} facts (loaded in {loaded:.1f} s);"
        f" {options.readers} reader processes, {options.seconds:g} s per row;"
        " primary and standbys on this machine, sharing its cores"
    )
    print()
    print(
        "| standbys listed | reads | reads/s | p50 ms | p95 ms |"
        " transactions: primary / standby 1 / standby 2 |"
    )
    print("|---|---|---|---|---|---|")
    for row in rows:
        where = " / ".join(str(count) for count in row["where"])  # type: ignore[attr-defined]
        print(
            f"| {row['standbys']} | {row['reads']} | {row['per_second']:.0f} | {row['p50']:.1f}"
            f" | {row['p95']:.1f} | {where} |"
        )


if __name__ == "__main__":
    main()
