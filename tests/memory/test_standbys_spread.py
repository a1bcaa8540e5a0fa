"""Issue 42: reads spread over several hot standbys (`$ZERO_MEMORY_READ_DB` listing two).

A primary and two streaming standbys are made for the module (`tests/standbys.py`). Two reader
processes, each with its own `PGAPPNAME`, recall from one memory: each standby's
`pg_stat_database` counts the transactions it served in the memory's database, and its
`pg_stat_activity` shows which process holds a connection there. Shown: both standbys serve a
share of the reads, and each process reads from both; with one standby stopped, the other serves
every read, and with both stopped the primary does, with no error and the same answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.standbys import Servers, primary_and_standbys
from zerolang.memory import open_memory
from zerolang.storage.postgres.replicas import turn
from zerolang.util.config import READ_DB_ENV, READ_LAG_ENV, READ_WAIT_ENV

READS = 30

# One reader: `READS` recalls, then, with its memory still open, which standbys hold a connection
# of its own (by its application name) to the memory's database.
READER = f"""
import json, sys
import psycopg
from zerolang.memory import open_memory
url, name, standbys = sys.argv[1], sys.argv[2], sys.argv[3:]
with open_memory(url, space="default") as memory:
    found = [any("chess" in str(row) for row in memory.query("recall Mo").rows) for _ in range({READS})]
    held = []
    for standby in standbys:
        try:
            with psycopg.connect(standby, autocommit=True) as connection:
                row = connection.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = 'memory' AND application_name = %s",
                    (name,),
                ).fetchone()
                held.append(int(row[0]) if row else 0)
        except psycopg.OperationalError:
            held.append(-1)
print(json.dumps({{"found": all(found), "held": held}}))
"""


@given(st.integers(1, 8), st.integers(0, 100))
def test_a_turn_tries_every_standby_once_from_its_start(count: int, start: int) -> None:
    order = turn(count, start)
    assert sorted(order) == list(range(count))
    assert order[0] == start % count


@pytest.fixture(scope="module")
def servers() -> Iterator[Servers]:
    with primary_and_standbys(2) as made:
        with psycopg.connect(made.primary, autocommit=True) as admin:
            admin.execute("CREATE DATABASE memory")
        url = made.url(made.primary_port, "memory")
        with open_memory(url, space="default") as memory:
            memory.remember([("Mo", "likes", "chess")])
        caught_up(made)
        yield made


@pytest.fixture
def standbys(servers: Servers) -> Iterator[Servers]:
    """Both standbys running again after the test."""
    yield servers
    for name in servers.standby_names:
        if not (servers.folder / name / "postmaster.pid").exists():
            servers.start(name)


def caught_up(servers: Servers) -> None:
    with psycopg.connect(servers.primary, autocommit=True) as primary:
        (target,) = primary.execute("SELECT pg_current_wal_insert_lsn()").fetchone() or ("0/0",)
    for port in servers.standby_ports:
        with psycopg.connect(servers.url(port), autocommit=True) as connection:
            for _ in range(600):
                (done,) = connection.execute(
                    "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,)
                ).fetchone() or (False,)
                if done:
                    break
                time.sleep(0.05)
            else:
                raise AssertionError(f"the standby on {port} did not catch up")


def served(servers: Servers, port: int) -> int:
    """The transactions committed so far in the memory's database on the server at `port`."""
    with psycopg.connect(servers.url(port), autocommit=True) as connection:
        row = connection.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = 'memory'"
        ).fetchone()
    return int(row[0]) if row else 0


def read_in_processes(servers: Servers, names: list[str]) -> list[dict[str, Any]]:
    """Readers named `names`, run at once, each listing both standbys; what each printed."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ZERO_MEMORY_READ")}
    environment |= {
        READ_DB_ENV: ",".join(servers.url(port, "memory") for port in servers.standby_ports),
        READ_WAIT_ENV: "0.5",
        READ_LAG_ENV: "3600",
    }
    url = servers.url(servers.primary_port, "memory")
    standbys = [servers.url(port) for port in servers.standby_ports]
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", READER, url, name, *standbys],
            env=environment | {"PGAPPNAME": name},
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in names
    ]
    outputs = [reader.communicate(timeout=120)[0] for reader in readers]
    assert all(reader.returncode == 0 for reader in readers)
    return [json.loads(output.strip().splitlines()[-1]) for output in outputs]


def counts_after(servers: Servers, ports: tuple[int, ...], before: list[int], least: int) -> list[int]:
    """How many more transactions each server served than `before`, once the readers' counts
    (flushed as their connections close) reach `least` in all (or after 5 s)."""
    deadline = time.monotonic() + 5
    while True:
        grown = [served(servers, port) - was for port, was in zip(ports, before, strict=True)]
        if sum(grown) >= least or time.monotonic() > deadline:
            return grown
        time.sleep(0.1)


@pytest.mark.slow
def test_two_processes_spread_their_reads_over_two_standbys(standbys: Servers) -> None:
    ports = standbys.standby_ports
    before = [served(standbys, port) for port in ports]
    primary_before = served(standbys, standbys.primary_port)
    results = read_in_processes(standbys, ["reader-a", "reader-b"])
    assert all(result["found"] for result in results)
    for result in results:  # each process holds a connection on each standby: it read from both
        assert all(held >= 1 for held in result["held"]), result
    grown = counts_after(standbys, ports, before, 2 * READS)
    assert all(share >= READS // 2 for share in grown), grown  # each served about half of 2 x READS
    primary_grown = served(standbys, standbys.primary_port) - primary_before
    assert primary_grown < sum(grown), (primary_grown, grown)


@pytest.mark.slow
def test_a_stopped_standby_s_share_goes_to_the_other_then_to_the_primary(standbys: Servers) -> None:
    first, second = standbys.standby_names
    ports = standbys.standby_ports
    standbys.stop(second)
    before = served(standbys, ports[0])
    results = read_in_processes(standbys, ["reader-c", "reader-d"])
    assert all(result["found"] for result in results)  # no error, the same answer
    assert all(result["held"][0] >= 1 for result in results)
    grown = counts_after(standbys, ports[:1], [before], 2 * READS)[0]
    assert grown >= 2 * READS, grown  # the running standby served every read
    standbys.stop(first)
    primary_before = served(standbys, standbys.primary_port)
    results = read_in_processes(standbys, ["reader-e"])
    assert results[0]["found"]
    primary_grown = counts_after(standbys, (standbys.primary_port,), [primary_before], READS)[0]
    assert primary_grown >= READS, primary_grown  # the primary served them
