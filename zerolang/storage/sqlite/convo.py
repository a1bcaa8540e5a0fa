"""Conversation entries in SQLite (`convo_entry`, full text in `convo_fts`): the only SQL for them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

from zerolang.experience.forgotten import Forgotten, entry_text, scrub
from zerolang.util.errors import ZeroError

SCHEMA = """
CREATE TABLE IF NOT EXISTS convo_entry (
    seq INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, value TEXT NOT NULL, expires_at REAL
);
CREATE VIRTUAL TABLE IF NOT EXISTS convo_fts USING fts5(
    text, tokenize='porter unicode61 remove_diacritics 2'
)
"""


def _like(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class SqliteEntryStore:
    def __init__(self, path: str | Path = ":memory:", *, create: bool = True) -> None:
        self.path = str(path)
        if self.path != ":memory:" and not create and not Path(self.path).is_file():
            raise ZeroError(f"{self.path}: no database here (store a conversation first, or pass --db)")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA busy_timeout = 10000")
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")
            with self._transaction():
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise ZeroError(f"{self.path}: not a usable database ({error})") from None

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

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SqliteEntryStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _remove(self, seqs: list[int]) -> None:
        for seq in seqs:
            self._db.execute("DELETE FROM convo_fts WHERE rowid = ?", (seq,))
            self._db.execute("DELETE FROM convo_entry WHERE seq = ?", (seq,))

    def put(self, key: str, value: dict[str, Any], *, text: str, expires_at: float | None) -> None:
        with self._transaction():
            old = [
                int(row[0]) for row in self._db.execute("SELECT seq FROM convo_entry WHERE key = ?", (key,))
            ]
            self._remove(old)
            cursor = self._db.execute(
                "INSERT INTO convo_entry (key, value, expires_at) VALUES (?, ?, ?)",
                (key, json.dumps(value, ensure_ascii=False), expires_at),
            )
            self._db.execute("INSERT INTO convo_fts (rowid, text) VALUES (?, ?)", (cursor.lastrowid, text))

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        row = self._db.execute(
            "SELECT seq, value, expires_at FROM convo_entry WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            return None
        if row[2] is not None and row[2] <= now:
            with self._transaction():
                self._remove([int(row[0])])
            return None
        value = json.loads(row[1])
        return value if isinstance(value, dict) else None

    def keys(self, prefix: str, *, now: float) -> list[str]:
        rows = self._db.execute(
            "SELECT key FROM convo_entry WHERE key LIKE ? ESCAPE '\\' "
            "AND (expires_at IS NULL OR expires_at > ?) ORDER BY key",
            (_like(prefix), now),
        )
        return [str(row[0]) for row in rows]

    def cleanup(self, prefix: str, *, now: float) -> int:
        with self._transaction():
            seqs = [
                int(row[0])
                for row in self._db.execute(
                    "SELECT seq FROM convo_entry WHERE key LIKE ? ESCAPE '\\' AND expires_at <= ?",
                    (_like(prefix), now),
                )
            ]
            self._remove(seqs)
        return len(seqs)

    def delete(self, prefix: str) -> int:
        with self._transaction():
            seqs = [
                int(row[0])
                for row in self._db.execute(
                    "SELECT seq FROM convo_entry WHERE key LIKE ? ESCAPE '\\'", (_like(prefix),)
                )
            ]
            self._remove(seqs)
        return len(seqs)

    def search(self, prefix: str, words: list[str], limit: int, *, now: float) -> list[tuple[str, float]]:
        quoted = sorted({'"' + word.replace('"', '""') + '"' for word in words if word})
        if not quoted:
            return []
        rows = self._db.execute(
            "SELECT e.key, bm25(convo_fts) AS rank FROM convo_fts "
            "JOIN convo_entry e ON e.seq = convo_fts.rowid "
            "WHERE convo_fts MATCH ? AND e.key LIKE ? ESCAPE '\\' "
            "AND (e.expires_at IS NULL OR e.expires_at > ?) ORDER BY rank, e.key LIMIT ?",
            (" OR ".join(quoted), _like(prefix), now, limit),
        )
        return [(str(key), -float(rank)) for key, rank in rows]

    # ---- forgetting: the terms live in the experience store's `exp_forgotten` (same file) ----

    def forgotten_terms(self) -> list[tuple[str, int]]:
        if not self._db.execute("SELECT 1 FROM sqlite_schema WHERE name = 'exp_forgotten'").fetchone():
            return []
        rows = self._db.execute("SELECT DISTINCT term, words FROM exp_forgotten ORDER BY term")
        return [(str(term), int(words)) for term, words in rows]

    def erase_mentioning(self, forgotten: Forgotten) -> int:
        """Drop the messages that mention a forgotten term from every entry (the whole entry when its
        other fields do), full text included; then rebuild the index and vacuum. How many entries changed."""
        if not forgotten:
            return 0
        changed = 0
        with self._transaction():
            rows = self._db.execute("SELECT seq, value, expires_at FROM convo_entry ORDER BY seq").fetchall()
            for seq, raw, expires_at in rows:
                value = json.loads(raw)
                if not isinstance(value, dict):
                    continue
                kept = scrub(value, forgotten)
                if kept is value:
                    continue
                changed += 1
                if kept is None:
                    self._remove([int(seq)])
                    continue
                old = self._db.execute("SELECT text FROM convo_fts WHERE rowid = ?", (seq,)).fetchone()
                self._db.execute(
                    "UPDATE convo_entry SET value = ?, expires_at = ? WHERE seq = ?",
                    (json.dumps(kept, ensure_ascii=False), expires_at, seq),
                )
                self._db.execute("DELETE FROM convo_fts WHERE rowid = ?", (seq,))
                text = entry_text(kept) if old is not None and old[0] else ""
                self._db.execute("INSERT INTO convo_fts (rowid, text) VALUES (?, ?)", (seq, text))
            self._db.execute("INSERT INTO convo_fts (convo_fts) VALUES ('optimize')")
        if self.path != ":memory:":
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return changed
