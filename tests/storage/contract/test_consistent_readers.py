"""Readers see one snapshot (issue 28, point 2): `check`, `export`, `checkpoint`, `bundle` and `migrate`
run in a loop beside a writer (its own connection) that ingests and forgets, on both backends.

Before the readers took one read transaction (SQLite) or a `REPEATABLE READ` one (PostgreSQL),
`check` failed about half of such runs ("seal: facts: 2053 rows where 2163 were written") and an
export taken across a forget's commit was refused as "a damaged store". Every run here must pass,
and every export taken that way must import into a store that checks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.storage.contract.helpers import make_input
from zerolang import storage
from zerolang.cli.app import app
from zerolang.memory import MemoryStore, ingest

runner = CliRunner()
ROUNDS = 6


def _writer(location: str, space: str, stop: threading.Event, errors: list[BaseException]) -> None:
    """Ingest records and forget some of them again, each its own commit, until told to stop."""
    from zerolang.knowledge.forget import Selector, forget

    try:
        with storage.open_store(location, space=space) as store:
            n = 0
            while not stop.is_set():
                batch = [
                    make_input(
                        (f"w{n}-{k}", "likes", f"thing{(n + k) % 7}", 0.5 + k / 20),
                        (f"w{n}-{k}", "knows", "ann", 0.8),
                        event_time=f"2026-02-{1 + (n + k) % 28:02}T00:00:00Z",
                        scope=f"scope{n % 3}",
                    )
                    for k in range(8)
                ]
                ingest(store, batch, now=f"2026-03-{1 + n % 28:02}T00:00:00.000Z", batch_size=3)
                if n % 2:
                    forget(
                        store, Selector("concept", f"w{n - 1}-3"), at=f"2026-04-{1 + n % 28:02}T00:00:00.000Z"
                    )
                n += 1
    except BaseException as error:  # reported by the test
        errors.append(error)


def _zero(*arguments: str) -> Any:
    result = runner.invoke(app, list(arguments))
    assert "Traceback" not in result.output
    return result


@pytest.mark.slow
def test_readers_see_one_snapshot_beside_a_writer(
    open_store: Callable[..., MemoryStore], location: str, space: str, backend: str, tmp_path: Path
) -> None:
    seed = open_store()
    ingest(seed, [make_input(("ann", "likes", "tea", 0.9))], now="2026-03-01T00:00:00.000Z")
    key = tmp_path / "key.pem"
    assert _zero("keygen", str(key)).exit_code == 0
    at = ["--db", location, "--space", space]
    stop, errors = threading.Event(), list[BaseException]()
    thread = threading.Thread(target=_writer, args=(location, space, stop, errors), daemon=True)
    thread.start()
    try:
        for round_ in range(ROUNDS):
            checked = _zero("memory", "check", *at)
            assert checked.exit_code == 0, checked.output
            exported = _zero("memory", "export", *at)
            assert exported.exit_code == 0, exported.output
            copy = tmp_path / f"import-{round_}.db"
            imported = runner.invoke(app, ["memory", "import", "-", "--db", str(copy)], input=exported.stdout)
            assert imported.exit_code == 0, imported.output
            assert _zero("memory", "check", "--db", str(copy)).exit_code == 0
            taken = _zero("memory", "checkpoint", *at)
            assert taken.exit_code == 0, taken.output
            bundle = tmp_path / f"bundle-{round_}.json"
            made = _zero("memory", "bundle", "--key", str(key), "-o", str(bundle), *at)
            assert made.exit_code == 0, made.output
            received = tmp_path / f"received-{round_}.db"
            got = _zero("memory", "receive", str(bundle), "--trust", str(key), "--db", str(received))
            assert got.exit_code == 0, got.output
            assert _zero("memory", "check", "--db", str(received)).exit_code == 0
            migrated = tmp_path / f"migrated-{round_}.db"
            moved = _zero("memory", "migrate", location, str(migrated), "--space", space)
            assert moved.exit_code == 0, moved.output
            assert "MISMATCH" not in moved.output
            assert _zero("memory", "check", "--db", str(migrated), "--space", space).exit_code == 0
    finally:
        stop.set()
        thread.join(120)
    assert not errors, errors
    assert open_store().check().ok
    assert backend in ("sqlite", "postgres", "postgres-pgbouncer")


def test_a_snapshot_does_not_see_what_commits_after_its_first_read(
    open_store: Callable[..., MemoryStore], location: str, space: str
) -> None:
    reader = open_store()
    ingest(reader, [make_input(("ann", "likes", "tea", 0.9))], now="2026-03-01T00:00:00.000Z")
    with storage.open_store(location, space=space) as writer, reader.snapshot():
        before = reader.counts()
        ingest(writer, [make_input(("bob", "likes", "jam", 0.9))], now="2026-03-02T00:00:00.000Z")
        assert reader.counts() == before  # the writer's commit is not seen inside the snapshot
        with reader.snapshot():  # nested: the same snapshot
            assert reader.counts() == before
    assert reader.counts().facts == before.facts + 1
    assert reader.check().ok
