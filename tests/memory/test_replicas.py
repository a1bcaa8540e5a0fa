"""Issue 42, point 5: a PostgreSQL memory reads from hot standbys (`$ZERO_MEMORY_READ_DB`).

A primary and a streaming standby of it are made for the module (`tests/standbys.py`). Which server
answered is told apart by what it holds: with the standby's replay paused, a fact that another
process writes is on the primary only. So a query that misses it was served by the standby, one that
finds it by the primary. Shown: reads go to the standby (and its `pg_stat_activity` shows them); a
process's reads after its own write see that write (the standby replays it first, or the primary
answers); a lagging standby, and a standby that is down, are skipped.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import psycopg
import pytest

from tests.standbys import Servers, primary_and_standby
from zerolang.memory import open_memory
from zerolang.util.config import READ_DB_ENV, READ_LAG_ENV, READ_WAIT_ENV

pytestmark = pytest.mark.slow

SPACE = "default"


@pytest.fixture(scope="module")
def servers() -> Iterator[Servers]:
    with primary_and_standby() as made:
        with psycopg.connect(made.primary, autocommit=True) as admin:
            admin.execute("CREATE DATABASE memory")
        yield made


@pytest.fixture
def standby(servers: Servers) -> Iterator[Servers]:
    """The standby replaying again, and caught up, after the test."""
    yield servers
    if not (servers.folder / "standby" / "postmaster.pid").exists():
        servers.start("standby")
    with psycopg.connect(servers.url(servers.standby_port), autocommit=True) as connection:
        connection.execute("SELECT pg_wal_replay_resume()")
    caught_up(servers)


def caught_up(servers: Servers) -> None:
    with psycopg.connect(servers.primary, autocommit=True) as primary:
        (target,) = primary.execute("SELECT pg_current_wal_insert_lsn()").fetchone() or ("0/0",)
    with psycopg.connect(servers.standby, autocommit=True) as connection:
        for _ in range(600):
            (done,) = connection.execute(
                "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,)
            ).fetchone() or (False,)
            if done:
                return
            time.sleep(0.05)
    raise AssertionError("the standby did not catch up")


def pause(servers: Servers) -> None:
    with psycopg.connect(servers.standby, autocommit=True) as connection:
        connection.execute("SELECT pg_wal_replay_pause()")


def elsewhere(url: str, *facts: tuple[str, str, str]) -> None:
    """`facts` remembered by another process (this one does not wait for its writes)."""
    script = (
        "import sys; from zerolang.memory import open_memory\n"
        "with open_memory(sys.argv[1], space='default') as memory:\n"
        f"    memory.remember({list(facts)!r})\n"
    )
    subprocess.run([sys.executable, "-c", script, url], check=True, env=_without_standbys())


def _without_standbys() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if not key.startswith("ZERO_MEMORY_READ")}


def knows(memory: object, label: str) -> bool:
    from zerolang.memory import Memory

    assert isinstance(memory, Memory)
    return any(label in str(row) for row in memory.query("recall Mo").rows)


@pytest.fixture
def reading(standby: Servers, monkeypatch: pytest.MonkeyPatch) -> Servers:
    monkeypatch.setenv(READ_DB_ENV, standby.url(standby.standby_port, "memory"))
    monkeypatch.setenv(READ_WAIT_ENV, "0.5")
    monkeypatch.setenv(READ_LAG_ENV, "3600")  # no lag bound, unless a test sets one
    caught_up(standby)  # the memory's database made on the primary is on the standby too
    return standby


def test_reads_go_to_the_standby(reading: Servers) -> None:
    url = reading.url(reading.primary_port, "memory")
    with open_memory(url, space=SPACE) as memory:
        memory.remember([("Mo", "likes", "chess")])
        assert knows(memory, "chess")  # its own write: the standby replayed it first
        caught_up(reading)
        pause(reading)
        elsewhere(url, ("Mo", "plays", "go"))
        assert not knows(memory, "go")  # the standby answered: it has not replayed that write
        with psycopg.connect(reading.url(reading.standby_port), autocommit=True) as standby:
            queries = [
                row[0]
                for row in standby.execute(
                    "SELECT query FROM pg_stat_activity WHERE datname = 'memory' AND backend_type = 'client backend'"
                )
            ]
        assert any("space = $1" in query for query in queries), queries  # a store's read


def test_a_read_after_the_process_s_own_write_sees_it(
    reading: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = reading.url(reading.primary_port, "memory")
    with open_memory(url, space=SPACE) as memory:
        memory.remember([("Mo", "likes", "tea")])
        assert knows(memory, "tea")
        caught_up(reading)
        pause(reading)  # the standby cannot replay the next write: the primary answers, after the wait
        memory.remember([("Mo", "reads", "poetry")])
        assert knows(memory, "poetry")
        memory.capture(session="s1", user_said="Mo reads poetry by the window", agent_said="Noted.")
        assert "window" in memory.recall("poetry window").text  # conversations too
    with psycopg.connect(reading.url(reading.standby_port, "memory"), autocommit=True) as standby:
        (held,) = standby.execute("SELECT count(*) FROM concepts WHERE label = 'poetry'").fetchone() or (0,)
    assert held == 0  # the standby did not have it: the primary served the read


def test_a_lagging_standby_is_skipped(reading: Servers, monkeypatch: pytest.MonkeyPatch) -> None:
    url = reading.url(reading.primary_port, "memory")
    monkeypatch.setenv(READ_LAG_ENV, "0.2")
    with open_memory(url, space=SPACE) as memory:
        memory.remember([("Mo", "likes", "cake")])
        assert knows(memory, "cake")
        caught_up(reading)
        pause(reading)
        elsewhere(url, ("Mo", "bakes", "bread"))  # received by the standby, not replayed: it lags
        received(reading)
        time.sleep(0.5)  # longer than the lag bound since its last replayed transaction
        assert knows(memory, "bread")  # the primary answered


def test_a_standby_that_is_down_is_skipped(reading: Servers) -> None:
    url = reading.url(reading.primary_port, "memory")
    with open_memory(url, space=SPACE) as memory:
        memory.remember([("Mo", "likes", "jazz")])
        assert knows(memory, "jazz")
        reading.stop("standby")
        elsewhere(url, ("Mo", "sings", "blues"))
        assert knows(memory, "blues")  # no error: the primary answered


def received(servers: Servers) -> None:
    """Until the standby has received WAL it has not replayed."""
    with psycopg.connect(servers.standby, autocommit=True) as connection:
        for _ in range(600):
            (behind,) = connection.execute(
                "SELECT pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn()"
            ).fetchone() or (False,)
            if behind:
                return
            time.sleep(0.05)
    raise AssertionError("the standby received nothing")


def test_a_standby_of_another_server_is_never_read(reading: Servers, monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory is on the test server; the listed standby copies another server, which holds a
    database of the same name (empty): reads stay on the memory's own server. (Two guards hold this:
    the servers' identifiers differ, and the other standby's WAL position, far behind the test
    server's, never reaches where the test server's WAL ends.)"""
    from urllib.parse import urlsplit

    from tests.backends import scratch

    with scratch() as url:
        name = urlsplit(url).path.lstrip("/")
        if "options=" in url or not name:
            pytest.skip("needs a scratch database of its own")
        with psycopg.connect(reading.primary, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            caught_up(reading)
            monkeypatch.setenv(READ_DB_ENV, reading.url(reading.standby_port, "").rstrip("/"))
            elsewhere(url, ("Mo", "likes", "opera"))
            with open_memory(url, space=SPACE) as memory:
                assert knows(memory, "opera")
        finally:
            with psycopg.connect(reading.primary, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
