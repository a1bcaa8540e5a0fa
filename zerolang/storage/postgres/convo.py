"""Conversation entries in PostgreSQL (`convo_entry` with a tsvector of each entry's text)."""

from __future__ import annotations

import json
import re
from types import TracebackType
from typing import Any

from zerolang.experience.forgotten import Forgotten, entry_text, scrub
from zerolang.storage.postgres.schema_connect import connect_schema

TABLES = """
CREATE TABLE IF NOT EXISTS convo_entry (
    key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at DOUBLE PRECISION, doc TSVECTOR NOT NULL
);
CREATE INDEX IF NOT EXISTS convo_entry_doc ON convo_entry USING GIN (doc)
"""


def _like(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class PostgresEntryStore:
    def __init__(self, dsn: str, *, schema: str = "public") -> None:
        self._conn = connect_schema(dsn, schema, TABLES)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> PostgresEntryStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def put(self, key: str, value: dict[str, Any], *, text: str, expires_at: float | None) -> None:
        with self._conn.transaction():
            self._conn.execute(
                "INSERT INTO convo_entry VALUES (%s, %s, %s, to_tsvector('english', %s)) ON CONFLICT (key) "
                "DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at, doc = excluded.doc",
                (key, json.dumps(value, ensure_ascii=False), expires_at, text),
            )

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        row = self._conn.execute(
            "SELECT value, expires_at FROM convo_entry WHERE key = %s", (key,)
        ).fetchone()
        if row is None:
            return None
        if row[1] is not None and row[1] <= now:
            with self._conn.transaction():
                self._conn.execute("DELETE FROM convo_entry WHERE key = %s AND expires_at <= %s", (key, now))
            return None
        value = json.loads(row[0])
        return value if isinstance(value, dict) else None

    def keys(self, prefix: str, *, now: float) -> list[str]:
        rows = self._conn.execute(
            "SELECT key FROM convo_entry WHERE key LIKE %s AND (expires_at IS NULL OR expires_at > %s) "
            'ORDER BY key COLLATE "C"',
            (_like(prefix), now),
        ).fetchall()
        return [str(row[0]) for row in rows]

    def cleanup(self, prefix: str, *, now: float) -> int:
        with self._conn.transaction():
            cursor = self._conn.execute(
                "DELETE FROM convo_entry WHERE key LIKE %s AND expires_at <= %s", (_like(prefix), now)
            )
        return cursor.rowcount

    def delete(self, prefix: str) -> int:
        with self._conn.transaction():
            cursor = self._conn.execute("DELETE FROM convo_entry WHERE key LIKE %s", (_like(prefix),))
        return cursor.rowcount

    def search(self, prefix: str, words: list[str], limit: int, *, now: float) -> list[tuple[str, float]]:
        text = " OR ".join(sorted({re.sub(r"[^\w'-]", "", word) for word in words} - {""}))
        if not text:
            return []
        rows = self._conn.execute(
            "SELECT key, ts_rank(doc, q) AS rank FROM convo_entry, websearch_to_tsquery('english', %s) q "
            "WHERE doc @@ q AND key LIKE %s AND (expires_at IS NULL OR expires_at > %s) "
            "ORDER BY rank DESC, key LIMIT %s",
            (text, _like(prefix), now, limit),
        ).fetchall()
        return [(str(key), float(rank)) for key, rank in rows]

    # ---- forgetting: the terms live in the experience store's `exp_forgotten` (same schema) ----

    def forgotten_terms(self) -> list[tuple[str, int]]:
        if self._conn.execute("SELECT to_regclass('exp_forgotten')").fetchone() in (None, (None,)):
            return []
        rows = self._conn.execute("SELECT DISTINCT term, words FROM exp_forgotten ORDER BY term").fetchall()
        return [(str(term), int(words)) for term, words in rows]

    def erase_mentioning(self, forgotten: Forgotten) -> int:
        """Drop the messages that mention a forgotten term from every entry (the whole entry when its
        other fields do), full text included. How many entries changed."""
        if not forgotten:
            return 0
        changed = 0
        with self._conn.transaction():
            rows = self._conn.execute("SELECT key, value FROM convo_entry ORDER BY key").fetchall()
            for key, raw in rows:
                value = json.loads(raw)
                if not isinstance(value, dict):
                    continue
                kept = scrub(value, forgotten)
                if kept is value:
                    continue
                changed += 1
                if kept is None:
                    self._conn.execute("DELETE FROM convo_entry WHERE key = %s", (key,))
                    continue
                self._conn.execute(
                    "UPDATE convo_entry SET value = %s, doc = CASE WHEN doc = ''::tsvector THEN doc "
                    "ELSE to_tsvector('english', %s) END WHERE key = %s",
                    (json.dumps(kept, ensure_ascii=False), entry_text(kept), key),
                )
        return changed
