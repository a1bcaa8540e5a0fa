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
from collections.abc import Iterator
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
        holder.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (0x5A4D, space))
        with storage.open_store(postgres_url, space=space) as store:
            assert store.counts().episodes == 9  # readers never wait
            inputs = load_inputs(EXAMPLE)
            with pytest.raises(ZeroError, match=r"held a write transaction for over 0\.5 s"):
                ingest(store, inputs)
        holder.rollback()
    with storage.open_store(postgres_url, space=space) as store:
        assert store.check().ok
