"""Moving an older release's separate experience file into the memory's database (SQLite).

Releases before one location kept a memory's conversations and experiences in a file of their
own beside it (`NAME.experiences.db`, the per-user `experiences.db`). `absorb_experiences`
moves every space's turns, experiences, concepts, edges, blocked terms, cursors and conversation
entries into the memory's file, their full text with them (recall's own terms indexed afresh by
the rows' new numbers), in one transaction, and removes the older file: afterwards one file holds
the whole memory. A row the memory's file holds already (the same key in the same space) is kept
as it is.
"""

from __future__ import annotations

from pathlib import Path

from zerolang.storage.errors import StorageError
from zerolang.storage.schema import EDGE_ENDS, EDGE_KINDS
from zerolang.storage.sql.experiences import index_terms_of
from zerolang.storage.sqlite.convo import SqliteEntryStore
from zerolang.storage.sqlite.database import SqliteDatabase
from zerolang.storage.sqlite.experience import SqliteExperienceStore

# Tables copied row for row (today's schema on both sides: the older file is upgraded first).
_SAME = ("exp_forgotten", "exp_cursor")
# Rows numbered in their file (`seq`): they come in numbered anew, each reference to one (an
# experience's turn, an edge's ends) made again through its hash.
_NUMBERED = {"exp_session": "id, space", "exp_concept": "id, label, space"}
_TURN = "id, position, key, at, space"
_EXPERIENCE = "id, layer, who, what, at, ordinal, affect, sources, space"


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
    for table, columns in _NUMBERED.items():
        db.run(
            f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM older.{table}"
            " WHERE true ORDER BY seq ON CONFLICT DO NOTHING"
        )
    turn = ", ".join(f"o.{column}" for column in _TURN.split(", "))
    db.run(
        f"INSERT INTO main.exp_turn ({_TURN}, session) SELECT {turn}, m.seq"
        " FROM older.exp_turn o JOIN older.exp_session s ON s.seq = o.session"
        " JOIN main.exp_session m ON m.space = s.space AND m.id = s.id"
        " WHERE true ORDER BY o.seq ON CONFLICT DO NOTHING"
    )
    top = db.one("SELECT max(seq) FROM main.exp_experience")
    before = int(top[0]) if top is not None and top[0] is not None else 0
    picked = ", ".join(f"o.{column}" for column in _EXPERIENCE.split(", "))
    db.run(
        f"INSERT INTO main.exp_experience ({_EXPERIENCE}, turn) SELECT {picked}, m.seq"
        " FROM older.exp_experience o JOIN older.exp_turn t ON t.seq = o.turn"
        " JOIN main.exp_turn m ON m.space = t.space AND m.id = t.id"
        " WHERE true ORDER BY o.seq ON CONFLICT DO NOTHING"
    )
    for kind, (sources, targets) in EDGE_ENDS.items():
        db.run(
            "INSERT INTO main.exp_edge (src, kind, dst, weight) SELECT ms.seq, g.kind, md.seq, g.weight"
            f" FROM older.exp_edge g JOIN older.{sources} os ON os.seq = g.src"
            f" JOIN older.{targets} od ON od.seq = g.dst"
            f" JOIN main.{sources} ms ON ms.space = os.space AND ms.id = os.id"
            f" JOIN main.{targets} md ON md.space = od.space AND md.id = od.id"
            " WHERE g.kind = ? ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING",
            (EDGE_KINDS[kind],),
        )
    index_terms_of(  # recall's own full text of the rows moved (numbered after those held before)
        db,
        (
            (int(seq), str(who), str(what), str(space))
            for seq, who, what, space in db.rows(
                "SELECT seq, who, what, space FROM main.exp_experience WHERE seq > ? ORDER BY seq", (before,)
            )
        ),
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
