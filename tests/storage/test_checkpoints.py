"""A bulk write's WAL checkpoint runs in a helper thread (`backends.sqlite.checkpoints`), and so does
every commit's of a serving store (`serving`)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from zerolang.memory import CompilerInput, ContextMeta, SemanticTuple, ingest
from zerolang.storage import open_store
from zerolang.storage.sql.alongside import MIN_ROWS
from zerolang.storage.sqlite.backend import AUTOCHECKPOINT, BULK_CACHE_KIB, SERVING_CACHE_KIB
from zerolang.storage.sqlite.checkpoints import BACKSTOP, Checkpointer


def _inputs(records: int) -> list[CompilerInput]:
    return [
        CompilerInput(
            tuple(SemanticTuple(f"thing {r}", "needs", f"part {r} {t}", 0.8) for t in range(5)),
            ContextMeta("2026-02-18T10:00:00Z", "test", f"r{r}"),
        )
        for r in range(records)
    ]


def _checkpoint_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "zero-checkpoint"]


def test_a_bulk_commit_leaves_its_checkpoint_to_a_helper_that_close_stops(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    before = len(_checkpoint_threads())
    store = open_store(path)
    try:
        result = ingest(store, _inputs(MIN_ROWS // 5 + 10))
        assert result.new_episodes >= MIN_ROWS
        assert len(_checkpoint_threads()) == before + 1  # the helper took the checkpoint
        connection = store.backend.connection  # type: ignore[attr-defined]
        assert connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == AUTOCHECKPOINT
    finally:
        store.close()
    assert len(_checkpoint_threads()) == before  # no thread outlives its store
    assert not (tmp_path / "memory.db-wal").exists()  # the last connection closed: WAL folded, removed
    with open_store(path) as again:
        assert again.counts().episodes == result.new_episodes
        assert again.check().ok


def test_the_helper_checkpoints_the_file_opened_wherever_the_process_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    with open_store("memory.db") as store:  # a relative path
        monkeypatch.chdir(tmp_path / "there")
        ingest(store, _inputs(MIN_ROWS // 5 + 10))
    assert list((tmp_path / "there").iterdir()) == []  # no stray database where the process went
    assert not (tmp_path / "here" / "memory.db-wal").exists()
    with open_store(tmp_path / "here" / "memory.db") as again:
        assert again.counts().episodes >= MIN_ROWS and again.check().ok


def test_a_small_write_checkpoints_as_sqlite_does(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    before = len(_checkpoint_threads())
    with open_store(path) as store:
        ingest(store, _inputs(3))
        assert len(_checkpoint_threads()) == before
        assert store.counts().episodes == 15


def test_the_helper_checkpoints_when_asked_and_stops_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "plain.db"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE t (x)")
    writer.executemany("INSERT INTO t VALUES (?)", [(bytes(1000),) for _ in range(200)])
    before = path.stat().st_size  # the rows are in the WAL only
    helper = Checkpointer(str(path), 5.0)
    helper.close()  # never started: nothing to stop
    helper.ask()
    for _ in range(500):
        if path.stat().st_size > before + 200 * 1000:
            break
        threading.Event().wait(0.01)
    assert path.stat().st_size > before + 200 * 1000  # the helper copied the pages into the file
    helper.close()
    assert not _checkpoint_threads()
    assert writer.execute("SELECT count(*) FROM t").fetchone()[0] == 200
    writer.close()


def test_a_serving_store_leaves_every_checkpoint_to_the_helper(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    before = len(_checkpoint_threads())
    store = open_store(path)
    try:
        cache = store.backend.connection.execute("PRAGMA cache_size").fetchone()[0]  # type: ignore[attr-defined]
        assert cache == -BULK_CACHE_KIB  # until it serves: an ingest's batches keep every page
        store.backend.serving()
        store.backend.serving()  # once is enough: again changes nothing
        connection = store.backend.connection  # type: ignore[attr-defined]
        assert connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == BACKSTOP
        # a small page cache: a commit's cost grows with the pages cached
        assert connection.execute("PRAGMA cache_size").fetchone()[0] == -SERVING_CACHE_KIB
        size = path.stat().st_size
        for r in range(20):  # small commits, each asking the helper
            ingest(store, [_inputs(r + 1)[r]])
        assert len(_checkpoint_threads()) == before + 1
        for _ in range(500):
            if path.stat().st_size > size:
                break
            threading.Event().wait(0.01)
        assert path.stat().st_size > size  # the helper copied the commits' pages into the file
        ingest(store, _inputs(MIN_ROWS // 5 + 10))  # a bulk commit keeps the serving backstop
        assert connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == BACKSTOP
    finally:
        store.close()
    assert len(_checkpoint_threads()) == before
    with open_store(path) as again:
        assert again.counts().episodes == (MIN_ROWS // 5 + 10) * 5  # the bulk write repeats the 20 records
        assert again.check().ok


def test_a_store_in_memory_serves_as_it_is() -> None:
    with open_store(":memory:") as store:
        store.backend.serving()
        ingest(store, _inputs(2))
        assert store.counts().episodes == 10
