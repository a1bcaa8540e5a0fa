"""Issue 40, point 3: with the conversations in the memory's own database (its SQLite file, or its
PostgreSQL database), a forget's two halves (the fact store's tombstone and the turns' block) are
one transaction.

A forked process forgets (or purges) and dies (`os._exit`, as kill -9 would leave it) between the
halves: just before the turns are blocked, or just after. Both are inside the one transaction, so
opened again the memory has neither half (before, the fact store committed first on SQLite: a
crash left a forgotten concept whose turns still showed), and the forget run again completes. A
purge that dies after its transaction, before the archive, is finished by `zero memory purge`
run again.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import zerolang.experience.forgotten as forgotten
import zerolang.memory
import zerolang.memory.erasure as erasure
from tests.backends import scratch

SECRET = "Zelda Quux"


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "postgres":
        with scratch() as url:
            yield url
    else:
        yield str(tmp_path / "memory.db")


def crashed(action: Callable[[], object]) -> None:
    """Run `action` in a forked child that must die inside it (exit code 9)."""
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        code = 0
        try:
            action()
        except BaseException:
            code = 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 9, status


def dying(real: Callable[..., Any], *, before: bool) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        if not before:
            real(*args, **kwargs)
        os._exit(9)

    return call


def built(db: str, root: Path) -> None:
    with zerolang.memory.open(db, archive=root) as memory:
        memory.remember([(SECRET, "works_at", "Acme"), ("Mo", "likes", "chess")])
        memory.capture(session="s-1", user_said=f"{SECRET} told me the code.", agent_said="Noted.")
        memory.archive_document(
            [{"role": "user", "content": f"A note about {SECRET}."}], channel="dm", consent_scope="personal"
        )


@contextmanager
def connected(db: str) -> Iterator[Any]:
    if db.startswith("postgresql"):
        import psycopg

        with psycopg.connect(db) as connection:
            yield connection
    else:
        with sqlite3.connect(db) as connection:
            yield connection


def halves(db: str) -> tuple[int, int]:
    """(tombstones in the fact store, terms blocked for the conversations), read from the database."""
    with connected(db) as connection:
        tombstones = connection.execute("SELECT count(*) FROM tombstones").fetchone()[0]
        blocked = connection.execute("SELECT count(*) FROM exp_forgotten").fetchone()[0]
    return int(tombstones), int(blocked)


def mentioned(db: str, root: Path) -> bool:
    """Whether the turns still say the secret, as recall reads them."""
    with zerolang.memory.open(db, archive=root) as memory:
        return any(SECRET in hit.experience.what for hit in memory.recall_turns("the code told"))


@pytest.mark.parametrize("before", [True, False], ids=["before-the-turns", "after-the-turns"])
@pytest.mark.parametrize("purge", [False, True], ids=["forget", "purge"])
def test_a_crash_between_the_halves_of_a_forget_leaves_neither(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before: bool, purge: bool
) -> None:
    root = tmp_path / "archive"
    built(db, root)
    assert halves(db) == (0, 0)
    monkeypatch.setattr(forgotten, "apply_forget", dying(forgotten.apply_forget, before=before))

    def forget() -> None:
        with zerolang.memory.open(db, archive=root) as memory:
            memory.forget("concept", SECRET, purge=purge)

    crashed(forget)
    monkeypatch.undo()
    assert halves(db) == (0, 0)  # one transaction: it died before its commit, so neither half
    assert mentioned(db, root)
    with zerolang.memory.open(db, archive=root) as memory:
        assert memory.get(SECRET) is not None
        report = memory.forget("concept", SECRET, purge=purge)  # run again, it completes
        assert memory.get(SECRET) is None and report.purged is purge
    assert not mentioned(db, root)
    tombstones, blocked = halves(db)
    assert tombstones >= 1 and blocked >= 1


def test_a_purge_that_dies_after_its_transaction_is_finished_by_purge_again(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "archive"
    built(db, root)
    monkeypatch.setattr(erasure, "erase_everywhere", dying(erasure.erase_everywhere, before=True))

    def purge() -> None:
        with zerolang.memory.open(db, archive=root) as memory:
            memory.forget("concept", SECRET, purge=True)

    crashed(purge)
    monkeypatch.undo()
    assert not mentioned(db, root)  # the transaction's half: the turns went with the facts
    documents = [path for path in root.rglob("*") if path.is_file()]
    assert any(b"zelda" in path.read_bytes().lower() for path in documents)  # the archive's to do
    with zerolang.memory.open(db, archive=root) as memory:
        assert memory.get(SECRET) is None
        (row,) = memory.store.backend.tombstones()
        _, erased = memory.purging(row.hash.hex())
    assert erased.get("archived documents") == 1, erased
    assert not [path for path in root.rglob("*") if path.is_file() and b"zelda" in path.read_bytes().lower()]
    if not db.startswith("postgresql"):
        assert not [p for p in tmp_path.glob("memory.db*") if b"zelda" in p.read_bytes().lower()]
