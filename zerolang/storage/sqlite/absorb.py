"""Moving an older release's separate experience file into the memory's database (SQLite).

Releases before one location kept a memory's conversations and experiences in a file of their
own beside it (`NAME.experiences.db`, the per-user `experiences.db`). `absorb_experiences`
moves every space's turns, experiences, concepts, edges, blocked terms, cursors and conversation
entries into the memory's file, their full text with them, in one transaction (recall's own
terms are indexed afresh after it), and removes the older file: afterwards one file holds the
whole memory. A row the memory's file holds already
(the same key in the same space) is kept as it is.
"""

from __future__ import annotations

from pathlib import Path

from zerolang.storage.errors import StorageError
from zerolang.storage.sql.experiences import SqlExperienceStore
from zerolang.storage.sqlite.convo import SqliteEntryStore
from zerolang.storage.sqlite.database import SqliteDatabase
from zerolang.storage.sqlite.experience import SqliteExperienceStore
from zerolang.storage.sqlite.fulltext import FTS5

# Tables copied row for row (today's schema on both sides: the older file is upgraded first).
_SAME = ("exp_turn", "exp_concept", "exp_edge", "exp_forgotten", "exp_cursor")
_EXPERIENCE = "id, layer, who, what, at, session, turn, position, ordinal, affect, sources, space"


def absorb_experiences(older: Path, into: str | Path) -> int:
    """Move what the experience file `older` holds into the database at `into` (made where missing),
    then remove `older`; how many turns and conversation entries moved."""
    if Path(older).resolve() == Path(into).resolve():
        raise StorageError(f"{older}: already the memory's own database")
    for store in (SqliteExperienceStore(older, create=False), SqliteEntryStore(older, create=False)):
        store.close()  # brought to today's schema
    experiences = SqliteExperienceStore(into)
    SqliteEntryStore(into).close()
    db = experiences.db
    assert isinstance(db, SqliteDatabase)
    try:
        db.run("ATTACH DATABASE ? AS older", (str(older),))
        try:
            with db.transaction():
                moved = _move(db)
        finally:
            db.run("DETACH DATABASE older")
        for (space,) in db.rows("SELECT DISTINCT space FROM exp_experience ORDER BY space"):
            SqlExperienceStore(db, FTS5, space=str(space))  # opening indexes the moved rows' terms
    finally:
        experiences.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{older}{suffix}").unlink(missing_ok=True)
    return moved


def _move(db: SqliteDatabase) -> int:
    turns = db.one("SELECT count(*) FROM older.exp_turn")
    entries = db.one("SELECT count(*) FROM older.convo_entry")
    for table in _SAME:
        db.run(f"INSERT INTO main.{table} SELECT * FROM older.{table} WHERE true ON CONFLICT DO NOTHING")
    db.run(
        f"INSERT INTO main.exp_experience ({_EXPERIENCE}) SELECT {_EXPERIENCE} FROM older.exp_experience"
        " WHERE true ORDER BY seq ON CONFLICT DO NOTHING"
    )
    db.run("INSERT INTO main.exp_fts (exp_fts) VALUES ('rebuild')")  # external content: from the rows
    db.run(
        "INSERT INTO main.exp_turn_fts (turn, what, space) SELECT o.turn, o.what, o.space"
        " FROM older.exp_turn_fts o WHERE NOT EXISTS (SELECT 1 FROM main.exp_turn_fts m"
        " WHERE m.turn = o.turn AND m.space = o.space)"
    )
    db.run(
        "INSERT INTO main.convo_entry (key, value, expires_at, space)"
        " SELECT key, value, expires_at, space FROM older.convo_entry WHERE true ORDER BY seq"
        " ON CONFLICT DO NOTHING"
    )
    db.run(
        "INSERT INTO main.convo_fts (rowid, text, space) SELECT m.seq, f.text, o.space"
        " FROM older.convo_entry o JOIN older.convo_fts f ON f.rowid = o.seq"
        " JOIN main.convo_entry m ON m.space = o.space AND m.key = o.key"
        " WHERE NOT EXISTS (SELECT 1 FROM main.convo_fts g WHERE g.rowid = m.seq)"
    )
    return int(turns[0] if turns else 0) + int(entries[0] if entries else 0)
