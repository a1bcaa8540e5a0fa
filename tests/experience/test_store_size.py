"""The experience store's size (issue 43): a captured transcript's SQLite store is a few times the
transcript's bytes, and every index of its tables is one a query of the store uses.

The transcript is text-dense (an OpenAI chat, ~250 bytes of text a message, the least JSON around
it of any format): its store is the largest against its bytes. `benches/bench_capture.py` measures
every format at 5, 25 and 50 MB."""

from __future__ import annotations

import re
import sqlite3
import sys
from pathlib import Path

from zerolang.experience.capture import capture_files
from zerolang.experience.forgotten import apply_forget
from zerolang.experience.ranking import full_text
from zerolang.experience.recall import recall
from zerolang.storage.sqlite.experience import SqliteExperienceStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_capture import message


def chat(path: Path, messages: int) -> None:
    """The bench's OpenAI chat (`bench_capture.message`), `messages` lines of it."""
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(message(i) + "\n" for i in range(messages))


def test_a_captured_chat_is_stored_in_under_four_times_its_bytes(tmp_path: Path) -> None:
    transcript, db = tmp_path / "chat.jsonl", tmp_path / "e.db"
    chat(transcript, 4_000)  # about 1 MB
    with SqliteExperienceStore(db) as store:
        capture_files(store, [transcript])
        assert store.counts()["edges"] > 30_000
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert db.stat().st_size < 4 * transcript.stat().st_size


def _indexes(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name LIKE 'exp\\_%' ESCAPE '\\'"
        " AND tbl_name <> 'exp_meta'"
    )
    return {str(name) for (name,) in rows}


def test_every_index_of_the_experience_tables_is_used_by_a_query(tmp_path: Path) -> None:
    """Each statement the store runs through capture, recall, the reads a surface makes and a purge,
    planned (EXPLAIN QUERY PLAN): together they use every index (the edges' primary key is their
    table, `WITHOUT ROWID`; the numbered tables' is their rowid)."""
    transcript, db = tmp_path / "chat.jsonl", tmp_path / "e.db"
    chat(transcript, 400)
    statements: list[str] = []
    with SqliteExperienceStore(db) as store:
        connection = store.db.connection  # type: ignore[attr-defined]
        connection.set_trace_callback(statements.append)
        capture_files(store, [transcript])
        hits = recall(store, "why was the parser slow before the deadline")
        turns = [turn for turn, _ in full_text(store, ["parser"], 5).turns]
        layers = store.experiences_of_turns(turns)
        store.experiences([layer.id for layer in layers])
        concepts = [concept for _, concept, _ in store.mentions_of([layer.id for layer in layers])]
        store.mentioning(concepts[:2])
        store.concept_frequency(concepts[:2])
        store.neighbour_turns(turns)
        session = store.sessions("", 5)[0].session
        store.session_turns(session, -1, 5)
        store.last_turn(session)
        apply_forget(store, "t-parser", ["parser"], purge=True)
        connection.set_trace_callback(None)
        assert hits
        used: set[str] = set()
        for sql in statements:
            if not re.match(r"\s*(SELECT|DELETE|UPDATE|INSERT)", sql, re.IGNORECASE):
                continue
            try:
                plan = connection.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
            except sqlite3.Error:  # a statement of a table the purge dropped since
                continue
            used.update(name for row in plan for name in re.findall(r"INDEX (\w+)", str(row[3])))
        names = _indexes(connection)
    keyed = ("exp_session", "exp_turn", "exp_experience", "exp_concept", "exp_cursor")
    assert names == {
        "exp_turn_session",
        "exp_experience_turn",
        "exp_edge_dst",
        *(f"sqlite_autoindex_{table}_1" for table in keyed),
    }
    assert names - used == set()
