"""A writer holding the store (issue 15, point 7): others wait a bounded time, then say so; never exit 3.

A subprocess opens a write transaction on the store and keeps it. Meanwhile
`zero query` answers at once (readers never wait), a second `zero memory
ingest` waits for the lock and succeeds once it is released (the 6 s hold is
longer than the 5 s that used to end in "database is locked"), and with
`$ZERO_MEMORY_LOCK_TIMEOUT` below the hold it stops with one clear line, exit 1.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.storage.contract.helpers import EXAMPLE, example
from zerolang import storage
from zerolang.memory import ingest, load_inputs
from zerolang.storage.locks import LOCK_TIMEOUT_ENV
from zerolang.util.errors import ZeroError

ROOT = Path(__file__).resolve().parents[3]

HOLD_SQLITE = textwrap.dedent(
    """
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE contexts SET scope = scope")
    print("held", flush=True)
    seconds = float(sys.argv[2])
    if seconds > 0:
        time.sleep(seconds)
    else:
        sys.stdin.read()  # until the test closes our stdin
    db.execute("COMMIT")
    """
)


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **extra}
    env.pop(LOCK_TIMEOUT_ENV, None)
    env.update(extra)
    return env


@contextmanager
def holding(db: Path, seconds: float) -> Iterator[subprocess.Popen[str]]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_SQLITE, str(db), str(seconds)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        if holder.stdin is not None:
            holder.stdin.close()
        holder.wait(timeout=120)


def zero(*arguments: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "zerolang", *arguments]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    with storage.open_store(path) as store:
        example(store)
    return path


@pytest.mark.slow
def test_a_reader_and_a_second_writer_get_through_a_long_write(db: Path, tmp_path: Path) -> None:
    more = tmp_path / "more.json"
    more.write_text(EXAMPLE.read_text(encoding="utf-8").replace("2026-02-1", "2026-04-1"), encoding="utf-8")
    with holding(db, 6.0):
        query = zero("query", "match (?a needs ?b)", "--db", str(db), env=_env())
        assert query.returncode == 0, query.stderr
        assert "agent" in query.stdout
        second = zero("memory", "ingest", str(more), "--db", str(db), env=_env())
    assert second.returncode == 0, second.stderr
    assert "7 new episodes" in second.stdout
    assert zero("memory", "check", "--db", str(db), env=_env()).returncode == 0


def test_a_writer_waiting_longer_than_its_timeout_says_so(db: Path) -> None:
    with holding(db, 0):
        result = zero(
            "memory", "ingest", str(EXAMPLE), "--db", str(db), env=_env(**{LOCK_TIMEOUT_ENV: "0.5"})
        )
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "another process has held a write transaction for over 0.5 s" in result.stderr
    assert LOCK_TIMEOUT_ENV in result.stderr


def test_a_bad_timeout_is_refused(db: Path) -> None:
    result = zero("memory", "stats", "--db", str(db), env=_env(**{LOCK_TIMEOUT_ENV: "soon"}))
    assert result.returncode == 1 and "ZERO_MEMORY_LOCK_TIMEOUT" in result.stderr
    assert "Traceback" not in result.stderr


def test_postgres_writers_wait_a_bounded_time(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    import psycopg

    space = f"t-{secrets.token_hex(6)}"
    with storage.open_store(postgres_url, space=space) as store:
        example(store)
    monkeypatch.setenv(LOCK_TIMEOUT_ENV, "0.5")
    with psycopg.connect(postgres_url) as holder:  # a transaction holding the space's write lock
        holder.execute("SELECT 1 FROM zero_spaces WHERE space = %s FOR UPDATE", (space,))
        with storage.open_store(postgres_url, space=space) as store:
            assert store.counts().episodes == 9  # readers never wait
            inputs = load_inputs(EXAMPLE)
            with pytest.raises(ZeroError, match=r"held a write transaction for over 0\.5 s"):
                ingest(store, inputs)
        holder.rollback()
    with storage.open_store(postgres_url, space=space) as store:
        assert store.check().ok


HOLD_READ = textwrap.dedent(
    """
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN")
    db.execute("SELECT count(*) FROM contexts").fetchall()  # a read snapshot: the WAL stays
    print("held", flush=True)
    sys.stdin.read()  # until the test closes our stdin
    db.execute("COMMIT")
    """
)


def _says_it_waits(command: list[str], release: Callable[[], None], env: dict[str, str]) -> str:
    """Run `zero COMMAND` while another connection holds the store: its first line on stderr, read
    before the other lets go (then it must finish, exit 0); the rest of its stderr must be empty."""
    waiter = subprocess.Popen(
        [sys.executable, "-m", "zerolang", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert waiter.stderr is not None
    first = waiter.stderr.readline()
    release()
    out, rest = waiter.communicate(timeout=120)
    assert waiter.returncode == 0, first + rest
    assert rest == "" and "purged" in out
    return first


@pytest.mark.parametrize("holder", ["writer", "reader"])
def test_a_purge_waiting_for_another_connection_says_what_it_waits_for(db: Path, holder: str) -> None:
    script = HOLD_SQLITE if holder == "writer" else HOLD_READ
    held = subprocess.Popen(
        [sys.executable, "-c", script, str(db), "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert held.stdout is not None and held.stdout.readline().strip() == "held"
    assert held.stdin is not None
    line = _says_it_waits(["memory", "forget", "agent", "--purge", "--db", str(db)], held.stdin.close, _env())
    held.wait(timeout=120)
    what = "another writer" if holder == "writer" else "other connections to finish"
    assert line == f"zero: waiting for {what}" + line.split(what, 1)[1]
    assert f" on {db} (up to 60 s; ${LOCK_TIMEOUT_ENV} sets it)\n" in line
    with storage.open_store(db, create=False) as store:
        assert store.find_concept("agent") is None and store.check().ok


def test_a_postgres_purge_waiting_for_another_writer_says_so(postgres_url: str) -> None:
    import secrets

    import psycopg

    space = f"t-{secrets.token_hex(6)}"
    with storage.open_store(postgres_url, space=space) as store:
        example(store)
    holder = psycopg.connect(postgres_url)  # a transaction holding the space's write lock
    holder.execute("SELECT 1 FROM zero_spaces WHERE space = %s FOR UPDATE", (space,))
    try:
        line = _says_it_waits(
            ["memory", "forget", "agent", "--purge", "--db", postgres_url, "--space", space],
            holder.rollback,
            _env(),
        )
    finally:
        holder.close()
    assert line.startswith(f"zero: waiting for another writer of space {space} on postgresql://")
    with storage.open_store(postgres_url, space=space) as store:
        assert store.find_concept("agent") is None and store.check().ok
