"""An ingest killed mid-file keeps every record it committed; `check` passes; a rerun completes the rest."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.knowledge.conftest import ROOT
from zerolang.cli.app import app
from zerolang.memory import ingest, load_inputs
from zerolang.storage import open_store

pytestmark = pytest.mark.slow
runner = CliRunner()

WORDS = ["agent", "memory", "graph", "tuple", "context", "episode", "fact", "store", "recall", "hash"]
PREDICATES = ["needs", "has part", "feeds", "is a", "stores"]

# Ingests FILE into DB with the library, and SIGKILLs itself once KILL_AT records have been applied
# but before they are committed: in the middle of a transaction.
KILLER = """
import os, signal, sys
from zerolang.memory import ingest, load_inputs
from zerolang.storage import open_store

path, db, kill_at, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
inputs = load_inputs(path)

def progress(state):
    if state.done == kill_at and state.committed < state.done:
        print(state.committed, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

ingest(open_store(db), inputs, batch_size=batch, progress=progress)
"""


def write_inputs(path: Path, records: int, tuples: int, seed: int = 11) -> None:
    """JSON Lines of `records` inputs; a few facts recur across records (Bayesian updates)."""
    rng = random.Random(seed)
    lines = []
    for index in range(records):
        items = [
            {
                "subject": f"{rng.choice(WORDS)} {rng.randrange(200)}",
                "predicate": rng.choice(PREDICATES),
                "object": f"{rng.choice(WORDS)} {rng.randrange(200)}",
                "confidence": round(rng.random(), 3),
            }
            for _ in range(tuples)
        ]
        context = {
            "event_time": f"2026-02-18T00:00:{index % 60:02d}Z",
            "source": "kill-test",
            "scope": f"r{index}",
        }
        lines.append(json.dumps({"tuples": items, "context": context}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def reference_counts(path: Path) -> dict[str, int]:
    with open_store() as store:
        ingest(store, load_inputs(path))
        return store.counts().to_json()


def episode_hashes(db: Path | str) -> set[bytes]:
    connection = sqlite3.connect(db)
    try:
        return {row[0] for row in connection.execute("SELECT hash FROM episodes")}
    finally:
        connection.close()


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


@pytest.mark.slow
def test_killed_in_the_middle_of_a_batch(tmp_path: Path) -> None:
    source, db = tmp_path / "big.jsonl", tmp_path / "memory.db"
    write_inputs(source, records=600, tuples=5)
    done = subprocess.run(
        [sys.executable, "-c", KILLER, str(source), str(db), "300", "100"],
        capture_output=True,
        text=True,
        env=environment(),
        check=False,
        timeout=120,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert done.stdout.strip() == "200"  # records 201..300 were applied but not committed

    with open_store(db, create=False) as store:
        assert store.check().ok, store.check().problems
        survived = store.counts()
    first_200 = tmp_path / "first.jsonl"
    first_200.write_text(
        "".join(source.read_text(encoding="utf-8").splitlines(keepends=True)[:200]), encoding="utf-8"
    )
    assert survived.to_json() == reference_counts(first_200)

    rerun = runner.invoke(app, ["memory", "ingest", str(source), "--db", str(db), "--json"])
    assert rerun.exit_code == 0, rerun.output
    totals = json.loads(rerun.stdout)
    assert totals["duplicates"] == 200 * 5
    assert totals["new_episodes"] == 400 * 5
    with open_store(db, create=False) as store:
        assert store.counts().to_json() == reference_counts(source)
        assert store.check().ok


def test_zero_memory_ingest_killed_from_outside(tmp_path: Path) -> None:
    source, db = tmp_path / "big.jsonl", tmp_path / "memory.db"
    write_inputs(source, records=1000, tuples=8)
    expected = reference_counts(source)
    total = expected["episodes"]
    command = [
        sys.executable,
        "-m",
        "zerolang",
        "memory",
        "ingest",
        str(source),
        "--db",
        str(db),
        "--batch-size",
        "20",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment())
    deadline = time.monotonic() + 120
    try:
        while process.poll() is None and time.monotonic() < deadline:
            if committed_episodes(db) > 0:
                process.send_signal(signal.SIGKILL)
                break
            time.sleep(0.005)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == -signal.SIGKILL, process.stderr.read() if process.stderr else ""
    process.stdout.close()  # type: ignore[union-attr]
    process.stderr.close()  # type: ignore[union-attr]

    kept = committed_episodes(db)
    assert 0 < kept < total
    check = runner.invoke(app, ["memory", "check", "--db", str(db)])
    assert check.exit_code == 0, check.output
    survivors = episode_hashes(db)

    rerun = runner.invoke(app, ["memory", "ingest", str(source), "--db", str(db), "--json"])
    assert rerun.exit_code == 0, rerun.output
    totals = json.loads(rerun.stdout)
    assert totals["duplicates"] == kept
    assert totals["new_episodes"] == total - kept
    assert survivors <= episode_hashes(db)
    stats = runner.invoke(app, ["memory", "stats", "--db", str(db), "--json"])
    assert json.loads(stats.stdout) == expected
    assert runner.invoke(app, ["memory", "check", "--db", str(db)]).exit_code == 0


def committed_episodes(db: Path) -> int:
    """What a reader sees: only committed rows (0 before the database or its tables exist)."""
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return 0
    try:
        return int(connection.execute("SELECT count(*) FROM episodes").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        connection.close()
