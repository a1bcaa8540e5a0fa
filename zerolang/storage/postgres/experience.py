"""Experiential memory in PostgreSQL: tables `exp_*` in one schema, full text by `ts_rank`.

The same `ExperienceStore` as the SQLite backend's `experience`, for a shared server. Text is
indexed as `tsvector`s with the `english` configuration (stemmed, stopwords
dropped): each experience (`who` weighted B, `what` A) and each turn's layers
together; queries OR the words. Every write is one transaction. Pass a
libpq connection string (`host=... dbname=...` or `postgresql://...`) and,
optionally, the schema to keep the tables in (created if missing).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from types import TracebackType
from typing import Any

from zerolang.experience.forgotten import Forgotten
from zerolang.experience.model import Added, CaptureBatch, Experience, Layer
from zerolang.storage.postgres.schema_connect import connect_schema

TABLES = """
CREATE TABLE IF NOT EXISTS exp_turn (
    id TEXT PRIMARY KEY, session TEXT NOT NULL, position INTEGER NOT NULL, key TEXT NOT NULL, at TEXT
);
CREATE INDEX IF NOT EXISTS exp_turn_session ON exp_turn (session, position);
CREATE TABLE IF NOT EXISTS exp_experience (
    seq BIGSERIAL PRIMARY KEY,
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
    sources TEXT NOT NULL,
    doc TSVECTOR GENERATED ALWAYS AS (
        setweight(to_tsvector('english', who), 'B') || setweight(to_tsvector('english', what), 'A')
    ) STORED
);
CREATE INDEX IF NOT EXISTS exp_experience_turn ON exp_experience (turn);
CREATE INDEX IF NOT EXISTS exp_experience_doc ON exp_experience USING GIN (doc);
CREATE TABLE IF NOT EXISTS exp_turn_doc (turn TEXT PRIMARY KEY, doc TSVECTOR NOT NULL);
CREATE INDEX IF NOT EXISTS exp_turn_doc_doc ON exp_turn_doc USING GIN (doc);
CREATE TABLE IF NOT EXISTS exp_concept (id TEXT PRIMARY KEY, label TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS exp_edge (
    src TEXT NOT NULL, kind TEXT NOT NULL, dst TEXT NOT NULL, weight DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (src, kind, dst)
);
CREATE INDEX IF NOT EXISTS exp_edge_dst ON exp_edge (dst, kind);
CREATE TABLE IF NOT EXISTS exp_forgotten (
    tombstone TEXT NOT NULL, term TEXT NOT NULL, words INTEGER NOT NULL, PRIMARY KEY (tombstone, term)
)
"""

_COLUMNS = "id, layer, who, what, at, session, turn, position, ordinal, affect, sources"


def _query(terms: Sequence[str]) -> str:
    """`a OR b OR c` for websearch_to_tsquery (quotes and operators in a word are dropped)."""
    words = sorted({re.sub(r"[^\w'-]", "", term) for term in terms} - {""})
    return " OR ".join(words)


class PostgresExperienceStore:
    def __init__(self, dsn: str, *, schema: str = "public") -> None:
        self.schema = schema
        self._conn = connect_schema(dsn, schema, TABLES)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> PostgresExperienceStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def add(self, batch: CaptureBatch) -> Added:
        db = self._conn
        turns = experiences = concepts = edges = 0
        with db.transaction():
            for turn in batch.turns:
                cursor = db.execute(
                    "INSERT INTO exp_turn VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    (turn.id, turn.session, turn.position, turn.key, turn.when),
                )
                turns += cursor.rowcount
            for item in batch.experiences:
                cursor = db.execute(
                    f"INSERT INTO exp_experience ({_COLUMNS}) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
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
                experiences += cursor.rowcount
            for turn_id in sorted({item.turn for item in batch.experiences}):
                db.execute(
                    "INSERT INTO exp_turn_doc (turn, doc) SELECT %s, to_tsvector('english', "
                    "coalesce(string_agg(what, E'\\n' ORDER BY seq), '')) FROM exp_experience "
                    "WHERE turn = %s ON CONFLICT (turn) DO UPDATE SET doc = excluded.doc",
                    (turn_id, turn_id),
                )
            for concept in batch.concepts:
                cursor = db.execute(
                    "INSERT INTO exp_concept VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    (concept.id, concept.label),
                )
                concepts += cursor.rowcount
            for edge in batch.edges:
                cursor = db.execute(
                    "INSERT INTO exp_edge VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    (edge.src, edge.kind.value, edge.dst, edge.weight),
                )
                edges += cursor.rowcount
        return Added(turns, experiences, concepts, edges)

    def search(self, terms: Sequence[str], limit: int) -> list[tuple[str, float]]:
        text = _query(terms)
        if not text or limit <= 0:
            return []
        rows = self._conn.execute(
            "SELECT id, ts_rank(doc, q) AS rank FROM exp_experience, websearch_to_tsquery('english', %s) q "
            "WHERE doc @@ q ORDER BY rank DESC, seq LIMIT %s",
            (text, limit),
        ).fetchall()
        return [(str(ident), float(rank)) for ident, rank in rows]

    def search_turns(self, terms: Sequence[str], limit: int) -> list[tuple[str, float]]:
        text = _query(terms)
        if not text or limit <= 0:
            return []
        rows = self._conn.execute(
            "SELECT turn, ts_rank(doc, q) AS rank FROM exp_turn_doc, websearch_to_tsquery('english', %s) q "
            "WHERE doc @@ q ORDER BY rank DESC, turn LIMIT %s",
            (text, limit),
        ).fetchall()
        return [(str(turn), float(rank)) for turn, rank in rows]

    def experiences(self, ids: Collection[str]) -> dict[str, Experience]:
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM exp_experience WHERE id = ANY(%s)", (list(ids),)
        ).fetchall()
        return {str(row[0]): _experience(row) for row in rows}

    def experiences_of_turns(self, turn_ids: Collection[str]) -> list[Experience]:
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM exp_experience WHERE turn = ANY(%s) ORDER BY seq", (list(turn_ids),)
        ).fetchall()
        return [_experience(row) for row in rows]

    def neighbour_turns(self, turn_ids: Collection[str]) -> list[tuple[str, str]]:
        ids = list(turn_ids)
        rows = self._conn.execute(
            "SELECT src, dst FROM exp_edge WHERE kind = 'next' AND src = ANY(%s) "
            "UNION ALL SELECT dst, src FROM exp_edge WHERE kind = 'next' AND dst = ANY(%s)",
            (ids, ids),
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def mentions_of(self, experience_ids: Collection[str]) -> list[tuple[str, str, float]]:
        rows = self._conn.execute(
            "SELECT src, dst, weight FROM exp_edge WHERE kind = 'mentions' AND src = ANY(%s)",
            (list(experience_ids),),
        ).fetchall()
        return [(str(a), str(b), float(w)) for a, b, w in rows]

    def mentioning(self, concept_ids: Collection[str]) -> list[tuple[str, str]]:
        rows = self._conn.execute(
            "SELECT src, dst FROM exp_edge WHERE kind = 'mentions' AND dst = ANY(%s)", (list(concept_ids),)
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def concept_frequency(self, concept_ids: Collection[str]) -> dict[str, int]:
        rows = self._conn.execute(
            "SELECT dst, count(*) FROM exp_edge WHERE kind = 'mentions' AND dst = ANY(%s) GROUP BY dst",
            (list(concept_ids),),
        ).fetchall()
        return {str(ident): int(count) for ident, count in rows}

    def concept_labels(self, concept_ids: Collection[str]) -> dict[str, str]:
        rows = self._conn.execute(
            "SELECT id, label FROM exp_concept WHERE id = ANY(%s)", (list(concept_ids),)
        ).fetchall()
        return {str(ident): str(label) for ident, label in rows}

    def last_turn(self, session: str) -> tuple[str, int] | None:
        row = self._conn.execute(
            "SELECT id, position FROM exp_turn WHERE session = %s ORDER BY position DESC LIMIT 1", (session,)
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
            row = self._conn.execute(f"SELECT count(*) FROM {table}").fetchone()
            out[name] = int(row[0]) if row else 0
        return out

    # ---- forgetting (zerolang.experience.forgotten) ---------------------------------------------

    def forgotten_terms(self, tombstone: str | None = None) -> list[tuple[str, int]]:
        rows = self._conn.execute(
            "SELECT DISTINCT term, words FROM exp_forgotten "
            "WHERE %(t)s::text IS NULL OR tombstone = %(t)s ORDER BY term",
            {"t": tombstone},
        ).fetchall()
        return [(str(term), int(words)) for term, words in rows]

    def block_terms(self, tombstone: str, keys: Sequence[tuple[str, int]]) -> None:
        with self._conn.transaction():
            for term, words in keys:
                self._conn.execute(
                    "INSERT INTO exp_forgotten VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                    (tombstone, term, words),
                )

    def lift_terms(self, tombstone: str) -> int:
        with self._conn.transaction():
            cursor = self._conn.execute("DELETE FROM exp_forgotten WHERE tombstone = %s", (tombstone,))
            return int(cursor.rowcount)

    def erase_mentioning(self, forgotten: Forgotten) -> int:
        """Delete the experiences and concepts that mention a forgotten term, their edges and turn text,
        the turns left empty."""
        if not forgotten:
            return 0
        db = self._conn
        with db.transaction():
            doomed = [
                (str(ident), str(turn))
                for ident, turn, who, what in db.execute(
                    "SELECT id, turn, who, what FROM exp_experience ORDER BY seq"
                ).fetchall()
                if forgotten.mentions(str(who), str(what))
            ]
            concepts = [
                str(ident)
                for ident, label in db.execute("SELECT id, label FROM exp_concept").fetchall()
                if forgotten.mentions(str(label))
            ]
            for ident in [ident for ident, _ in doomed] + concepts:
                db.execute("DELETE FROM exp_experience WHERE id = %s", (ident,))
                db.execute("DELETE FROM exp_concept WHERE id = %s", (ident,))
                db.execute("DELETE FROM exp_edge WHERE src = %s OR dst = %s", (ident, ident))
            for turn in sorted({turn for _, turn in doomed}):
                db.execute("DELETE FROM exp_turn_doc WHERE turn = %s", (turn,))
                if db.execute("SELECT 1 FROM exp_experience WHERE turn = %s LIMIT 1", (turn,)).fetchone():
                    db.execute(
                        "INSERT INTO exp_turn_doc (turn, doc) SELECT %s, to_tsvector('english', "
                        "string_agg(what, E'\\n' ORDER BY seq)) FROM exp_experience WHERE turn = %s",
                        (turn, turn),
                    )
                    continue
                db.execute("DELETE FROM exp_turn WHERE id = %s", (turn,))
                db.execute("DELETE FROM exp_edge WHERE src = %s OR dst = %s", (turn, turn))
            orphans = db.execute(
                "DELETE FROM exp_concept WHERE id NOT IN (SELECT dst FROM exp_edge WHERE kind = 'mentions')"
            ).rowcount
        return len(doomed) + len(concepts) + orphans


def _experience(row: Any) -> Experience:
    ident, layer, who, what, at, session, turn, position, ordinal, affect, sources = row
    return Experience(
        id=str(ident),
        layer=Layer(str(layer)),
        who=str(who),
        what=str(what),
        when=None if at is None else str(at),
        session=str(session),
        turn=str(turn),
        position=int(position),
        ordinal=int(ordinal),
        affect=json.loads(str(affect)),
        sources=tuple(json.loads(str(sources))),
    )
