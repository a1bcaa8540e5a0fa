"""Replayable recall: the same state, query and --now give the same bytes, in any process, on either backend."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from zerolang import storage
from zerolang.knowledge.ingest import ingest, parse_inputs

from .conftest import inputs

NOW = "2026-04-01T00:00:00Z"
QUERIES = [
    'recall "c0" depth 3 limit 20',
    'recall "c1" depth 2 limit 15 rank by activation',
    "recall c2 depth 2 limit 10 where confidence > 0.2 order by label",
    "match (?x p1 ?y), (?y ?q ?z) limit 40",
    "match (?x ?p ?y) where observations >= 2 order by ?x",
    "match (?x ?p ?y) as of 2026-02-10 known at 2026-03-15",
    "recall c0 depth 2 limit 5 as L1",
]
DRIVER = """
import json, sys
from typer.testing import CliRunner
from zerolang.cli.app import app
db, space, now, queries = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
runner = CliRunner()
for flags in (["--json"], []):
    for query in queries:
        result = runner.invoke(app, ["query", query, "--db", db, "--space", space, "--now", now, "--no-touch", *flags])
        sys.stdout.write(f"== {query} {flags} exit={result.exit_code}\\n{result.output}")
"""


def data(days: range) -> str:
    rng = random.Random(12)
    groups = []
    for day in days:
        tuples = [
            (
                f"c{rng.randrange(12)}",
                f"p{rng.randrange(4)}",
                f"c{rng.randrange(12)}",
                round(rng.uniform(0.1, 1), 2),
            )
            for _ in range(6)
        ]
        groups.append(
            (f"2026-02-{day:02d}T{rng.randrange(24):02d}:00:00Z", f"s{day % 3}", f"scope{day % 2}", tuples)
        )
    return inputs(*groups)


def run_twice(location: str, space: str) -> list[bytes]:
    env = {**os.environ, "PYTHONHASHSEED": "random"}
    outputs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", DRIVER, location, space, NOW, json.dumps(QUERIES)],
            capture_output=True,
            env=env,
            check=True,
            timeout=600,
        )
        outputs.append(done.stdout)
    return outputs


@pytest.mark.slow
def test_same_state_query_and_now_give_the_same_bytes(tmp_path: Path, postgres_url: str) -> None:
    space = f"replay-{os.getpid()}"
    results = []
    for location in (str(tmp_path / "m.db"), postgres_url):
        with storage.open_store(location, space=space, single_valued=["p3"]) as store:
            ingest(store, parse_inputs(data(range(1, 14))), now="2026-03-01T00:00:00.000Z")
            ingest(store, parse_inputs(data(range(1, 28))), now="2026-03-20T00:00:00.000Z")
        first, second = run_twice(location, space)
        assert first == second
        assert first.count(b"exit=0") == 2 * len(QUERIES)
        results.append(first)
    assert results[0] == results[1]  # SQLite and PostgreSQL answer alike, byte for byte
    assert b'"c0"' in results[0] or b"c0" in results[0]
