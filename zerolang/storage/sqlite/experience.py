"""Experiential memory in SQLite: tables `exp_*` and an FTS5 index ranked by bm25.

The only module that writes SQL for experiences. Two FTS5 indexes tokenize
with `porter unicode61` (stems, folds case and diacritics): `exp_fts` over
each experience (`who` and `what`; bm25 weighs `what` fully, `who` at a
quarter) and `exp_turn_fts` over each turn's layers together, rebuilt when a
turn gains a layer. A file may also
hold other zerolang tables; ours carry their own schema version in `exp_meta`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from zerolang.experience.forgotten import Forgotten
from zerolang.experience.model import Added, CaptureBatch, Experience, Layer
from zerolang.util.errors import ZeroError

SCHEMA_VERSION = 1
CHUNK = 500

SCHEMA = """
CREATE TABLE IF NOT EXISTS exp_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS exp_turn (
    id TEXT PRIMARY KEY, session TEXT NOT NULL, position INTEGER NOT NULL, key TEXT NOT NULL, at TEXT
);
CREATE INDEX IF NOT EXISTS exp_turn_session ON exp_turn (session, position);
CREATE TABLE IF NOT EXISTS exp_experience (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    layer TEXT NOT NULL,
    who TEXT NOT NULL,
    what TEXT NOT NULL,
    at TEXT,
    session TEXT NOT NULL,
    turn TEXT NOT NULL,
    position INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    affect TEXT NOT NULL,
    sources TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS exp_experience_turn ON exp_experience (turn);
CREATE TABLE IF NOT EXISTS exp_concept (id TEXT PRIMARY KEY, label TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS exp_edge (
    src TEXT NOT NULL, kind TEXT NOT NULL, dst TEXT NOT NULL, weight REAL NOT NULL,
    PRIMARY KEY (src, kind, dst)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS exp_edge_dst ON exp_edge (dst, kind);
CREATE VIRTUAL TABLE IF NOT EXISTS exp_turn_fts USING fts5(
    turn UNINDEXED, what, tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS exp_fts USING fts5(
    who, what, content='exp_experience', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2'
);
"""

# Terms a memory forget blocked (hashes only, see zerolang.experience.forgotten); also read by convo.
FORGOTTEN = """
CREATE TABLE IF NOT EXISTS exp_forgotten (
    tombstone TEXT NOT NULL, term TEXT NOT NULL, words INTEGER NOT NULL, PRIMARY KEY (tombstone, term)
) WITHOUT ROWID
"""


def _chunks(items: Collection[str]) -> Iterator[list[str]]:
    values = list(items)
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


class SqliteExperienceStore:
    """An experience store in a SQLite file (WAL) or `:memory:`."""

    def __init__(self, path: str | Path = ":memory:", *, create: bool = True) -> None:
        self.path = str(path)
        in_memory = self.path == ":memory:"
        if not in_memory and not create and not Path(self.path).is_file():
            raise ZeroError(
                f"{self.path}: no experience database here (capture a transcript first, or pass --db)"
            )
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise ZeroError(f"{self.path}: cannot open the experience database ({error})") from None
        try:
            self._setup(in_memory)
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise ZeroError(f"{self.path}: not a usable experience database ({error})") from None
        except ZeroError:
            self._db.close()
            raise

    def _setup(self, in_memory: bool) -> None:
        db = self._db
        db.execute("PRAGMA busy_timeout = 10000")
        if not in_memory:
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        present = db.execute("SELECT 1 FROM sqlite_schema WHERE name = 'exp_meta'").fetchone()
        if present:
            row = db.execute("SELECT value FROM exp_meta WHERE key = 'schema'").fetchone()
            version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise ZeroError(
                    f"{self.path}: made by a newer zerolang (experience schema {version}, "
                    f"this one reads {SCHEMA_VERSION})"
                )
            if not db.execute("SELECT 1 FROM sqlite_schema WHERE name = 'exp_forgotten'").fetchone():
                db.execute(FORGOTTEN)
            return
        with self._transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(FORGOTTEN)
            db.execute("INSERT OR REPLACE INTO exp_meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ---- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        self._db.close()

    def __enter__(self) -> SqliteExperienceStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    # ---- writing ----------------------------------------------------------------------------

    def add(self, batch: CaptureBatch) -> Added:
        db = self._db
        turns = experiences = concepts = edges = 0
        with self._transaction():
            for turn in batch.turns:
                cursor = db.execute(
                    "INSERT OR IGNORE INTO exp_turn VALUES (?, ?, ?, ?, ?)",
                    (turn.id, turn.session, turn.position, turn.key, turn.when),
                )
                turns += cursor.rowcount
            for item in batch.experiences:
                cursor = db.execute(
                    "INSERT OR IGNORE INTO exp_experience "
                    "(id, layer, who, what, at, session, turn, position, ordinal, affect, sources) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        item.id,
                        item.layer.value,
                        item.who,
                        item.what,
                        item.when,
                        item.session,
                        item.turn,
                        item.position,
                        item.ordinal,
                        json.dumps(item.affect, sort_keys=True),
                        json.dumps(list(item.sources)),
                    ),
                )
                if cursor.rowcount:
                    experiences += 1
                    db.execute(
                        "INSERT INTO exp_fts (rowid, who, what) VALUES (?, ?, ?)",
                        (cursor.lastrowid, item.who, item.what),
                    )
            touched = {item.turn for item in batch.experiences}
            for turn_id in sorted(touched):
                self._index_turn(turn_id)
            for concept in batch.concepts:
                cursor = db.execute(
                    "INSERT OR IGNORE INTO exp_concept VALUES (?, ?)", (concept.id, concept.label)
                )
                concepts += cursor.rowcount
            for edge in batch.edges:
                cursor = db.execute(
                    "INSERT OR IGNORE INTO exp_edge VALUES (?, ?, ?, ?)",
                    (edge.src, edge.kind.value, edge.dst, edge.weight),
                )
                edges += cursor.rowcount
        return Added(turns, experiences, concepts, edges)

    def _index_turn(self, turn: str) -> None:
        """(Re)index a turn's text, all its layers in order, as one full-text document."""
        db = self._db
        text = "\n".join(
            str(row[0])
            for row in db.execute("SELECT what FROM exp_experience WHERE turn = ? ORDER BY seq", (turn,))
        )
        db.execute("DELETE FROM exp_turn_fts WHERE turn = ?", (turn,))
        db.execute("INSERT INTO exp_turn_fts (turn, what) VALUES (?, ?)", (turn, text))

    # ---- reading ----------------------------------------------------------------------------

    def search(self, terms: Sequence[str], limit: int) -> list[tuple[str, float]]:
        quoted = sorted({'"' + term.replace('"', '""') + '"' for term in terms if term})
        if not quoted or limit <= 0:
            return []
        rows = self._db.execute(
            "SELECT e.id, bm25(exp_fts, 0.25, 1.0) AS rank FROM exp_fts "
            "JOIN exp_experience e ON e.seq = exp_fts.rowid "
            "WHERE exp_fts MATCH ? ORDER BY rank, e.seq LIMIT ?",
            (" OR ".join(quoted), limit),
        ).fetchall()
        return [(ident, -float(rank)) for ident, rank in rows]

    def search_turns(self, terms: Sequence[str], limit: int) -> list[tuple[str, float]]:
        quoted = sorted({'"' + term.replace('"', '""') + '"' for term in terms if term})
        if not quoted or limit <= 0:
            return []
        rows = self._db.execute(
            "SELECT turn, bm25(exp_turn_fts) AS rank FROM exp_turn_fts WHERE exp_turn_fts MATCH ? "
            "ORDER BY rank, turn LIMIT ?",
            (" OR ".join(quoted), limit),
        ).fetchall()
        return [(str(turn), -float(rank)) for turn, rank in rows]

    def experiences(self, ids: Collection[str]) -> dict[str, Experience]:
        out: dict[str, Experience] = {}
        for chunk in _chunks(ids):
            for row in self._db.execute(
                f"SELECT {_COLUMNS} FROM exp_experience WHERE id IN ({_marks(chunk)})", chunk
            ):
                out[row[0]] = _experience(row)
        return out

    def experiences_of_turns(self, turn_ids: Collection[str]) -> list[Experience]:
        out: list[Experience] = []
        for chunk in _chunks(turn_ids):
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM exp_experience WHERE turn IN ({_marks(chunk)}) ORDER BY seq", chunk
            )
            out.extend(_experience(row) for row in rows)
        return out

    def neighbour_turns(self, turn_ids: Collection[str]) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for chunk in _chunks(turn_ids):
            marks = _marks(chunk)
            out.extend(
                self._db.execute(
                    f"SELECT src, dst FROM exp_edge WHERE kind = 'next' AND src IN ({marks}) "
                    f"UNION ALL SELECT dst, src FROM exp_edge WHERE kind = 'next' AND dst IN ({marks})",
                    chunk + chunk,
                ).fetchall()
            )
        return out

    def mentions_of(self, experience_ids: Collection[str]) -> list[tuple[str, str, float]]:
        out: list[tuple[str, str, float]] = []
        for chunk in _chunks(experience_ids):
            out.extend(
                self._db.execute(
                    "SELECT src, dst, weight FROM exp_edge "
                    f"WHERE kind = 'mentions' AND src IN ({_marks(chunk)})",
                    chunk,
                ).fetchall()
            )
        return out

    def mentioning(self, concept_ids: Collection[str]) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for chunk in _chunks(concept_ids):
            out.extend(
                self._db.execute(
                    f"SELECT src, dst FROM exp_edge WHERE kind = 'mentions' AND dst IN ({_marks(chunk)})",
                    chunk,
                ).fetchall()
            )
        return out

    def concept_frequency(self, concept_ids: Collection[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for chunk in _chunks(concept_ids):
            rows = self._db.execute(
                f"SELECT dst, count(*) FROM exp_edge WHERE kind = 'mentions' AND dst IN ({_marks(chunk)}) "
                "GROUP BY dst",
                chunk,
            )
            out.update((ident, int(count)) for ident, count in rows)
        return out

    def concept_labels(self, concept_ids: Collection[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for chunk in _chunks(concept_ids):
            rows = self._db.execute(f"SELECT id, label FROM exp_concept WHERE id IN ({_marks(chunk)})", chunk)
            out.update((ident, label) for ident, label in rows)
        return out

    def last_turn(self, session: str) -> tuple[str, int] | None:
        row = self._db.execute(
            "SELECT id, position FROM exp_turn WHERE session = ? ORDER BY position DESC LIMIT 1", (session,)
        ).fetchone()
        return None if row is None else (str(row[0]), int(row[1]))

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for name, table in (
            ("turns", "exp_turn"),
            ("experiences", "exp_experience"),
            ("concepts", "exp_concept"),
            ("edges", "exp_edge"),
        ):
            out[name] = int(self._db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        return out

    # ---- forgetting (zerolang.experience.forgotten) ---------------------------------------------

    def forgotten_terms(self, tombstone: str | None = None) -> list[tuple[str, int]]:
        rows = self._db.execute(
            "SELECT DISTINCT term, words FROM exp_forgotten WHERE ? IS NULL OR tombstone = ? ORDER BY term",
            (tombstone, tombstone),
        )
        return [(str(term), int(words)) for term, words in rows]

    def block_terms(self, tombstone: str, keys: Sequence[tuple[str, int]]) -> None:
        with self._transaction():
            self._db.executemany(
                "INSERT OR IGNORE INTO exp_forgotten VALUES (?, ?, ?)",
                [(tombstone, term, words) for term, words in keys],
            )

    def lift_terms(self, tombstone: str) -> int:
        with self._transaction():
            return int(
                self._db.execute("DELETE FROM exp_forgotten WHERE tombstone = ?", (tombstone,)).rowcount
            )

    def erase_mentioning(self, forgotten: Forgotten) -> int:
        """Delete the experiences and concepts that mention a forgotten term (and concepts left unmentioned),
        their edges and full text,
        the turns left empty; then rebuild the indexes and vacuum so no freed page keeps the text."""
        if not forgotten:
            return 0
        db = self._db
        with self._transaction():
            doomed = [
                (int(seq), str(ident), str(turn), str(who), str(what))
                for seq, ident, turn, who, what in db.execute(
                    "SELECT seq, id, turn, who, what FROM exp_experience ORDER BY seq"
                )
                if forgotten.mentions(str(who), str(what))
            ]
            concepts = [
                str(ident)
                for ident, label in db.execute("SELECT id, label FROM exp_concept")
                if forgotten.mentions(str(label))
            ]
            for seq, ident, _, who, what in doomed:
                db.execute(
                    "INSERT INTO exp_fts (exp_fts, rowid, who, what) VALUES ('delete', ?, ?, ?)",
                    (seq, who, what),
                )
                db.execute("DELETE FROM exp_experience WHERE seq = ?", (seq,))
                db.execute("DELETE FROM exp_edge WHERE src = ? OR dst = ?", (ident, ident))
            for ident in concepts:
                db.execute("DELETE FROM exp_concept WHERE id = ?", (ident,))
                db.execute("DELETE FROM exp_edge WHERE src = ? OR dst = ?", (ident, ident))
            for turn in sorted({turn for _, _, turn, _, _ in doomed}):
                if db.execute("SELECT 1 FROM exp_experience WHERE turn = ? LIMIT 1", (turn,)).fetchone():
                    self._index_turn(turn)
                    continue
                db.execute("DELETE FROM exp_turn_fts WHERE turn = ?", (turn,))
                db.execute("DELETE FROM exp_turn WHERE id = ?", (turn,))
                db.execute("DELETE FROM exp_edge WHERE src = ? OR dst = ?", (turn, turn))
            orphans = db.execute(
                "DELETE FROM exp_concept WHERE id NOT IN (SELECT dst FROM exp_edge WHERE kind = 'mentions')"
            ).rowcount
            for index in ("exp_fts", "exp_turn_fts"):
                db.execute(f"INSERT INTO {index} ({index}) VALUES ('optimize')")
        self.compact()
        return len(doomed) + len(concepts) + orphans

    def compact(self) -> None:
        """Rewrite the file without free pages and empty the WAL (after an erasure)."""
        if self.path == ":memory:":
            return
        self._db.execute("VACUUM")
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


_COLUMNS = "id, layer, who, what, at, session, turn, position, ordinal, affect, sources"


def _experience(row: tuple[object, ...]) -> Experience:
    ident, layer, who, what, at, session, turn, position, ordinal, affect, sources = row
    return Experience(
        id=str(ident),
        layer=Layer(str(layer)),
        who=str(who),
        what=str(what),
        when=None if at is None else str(at),
        session=str(session),
        turn=str(turn),
        position=int(str(position)),
        ordinal=int(str(ordinal)),
        affect=json.loads(str(affect)),
        sources=tuple(json.loads(str(sources))),
    )
