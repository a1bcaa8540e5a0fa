"""The conversation store (`zerolang.convo.store.EntryStore`) in the shared SQL: table `convo_entry`.

The only SQL for conversation entries: keyed JSON values with an optional expiry and a
text that search matches. It runs on an experience database (`database.SqlDatabase`) and
leaves the full text to the engine's `EntryText` (SQLite FTS5 ranked by bm25, PostgreSQL
`tsvector`s ranked by `ts_rank`). A key prefix is matched with `LIKE`, its wildcards escaped;
an expired entry is never read, and is deleted where it is met (`get`, `cleanup`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from zerolang.experience.forgotten import Forgotten, entry_text, scrub
from zerolang.storage.errors import translating
from zerolang.storage.sql.database import DatabaseStore, SqlDatabase
from zerolang.storage.sql.experiences import blocked_terms, purged_terms
from zerolang.storage.sql.fulltext import Ranked

_UNDER = "key LIKE ? ESCAPE '\\'"
_KEY = "space = ? AND key = ?"
_LIVE = "(expires_at IS NULL OR expires_at > ?)"


class EntryText(Protocol):
    """How an engine indexes and searches the conversation entries' full text."""

    entries_index: Ranked
    """The entries (`convo_entry`) by their text."""

    code_points: str
    """The collation that orders text by code point (how `keys` are sorted)."""

    def query(self, terms: Sequence[str]) -> str:
        """The search that matches any of `terms`, as the engine's full text reads it ("" for none)."""
        ...

    def insert_entry(
        self, db: SqlDatabase, space: str, key: str, value: str, expires_at: float | None, text: str
    ) -> None:
        """Insert an entry of `space` (there is none with its key there) and index `text` for it."""
        ...

    def unindex_entries(self, db: SqlDatabase, condition: str, args: tuple[object, ...]) -> None:
        """Drop the text of the entries `condition` selects (it names their space) from the index
        (before their rows go)."""
        ...

    def reindex_entry(self, db: SqlDatabase, space: str, key: str, text: str) -> None:
        """Index `text` for the entry in place of what it had, unless it had no text (it keeps none)."""
        ...

    def optimize_entries(self, db: SqlDatabase) -> None:
        """At the end of an erasure's transaction: rewrite the index so no erased text stays in it."""
        ...


def _like(prefix: str) -> str:
    """The `LIKE` pattern of the keys under `prefix` (its `\\`, `%` and `_` taken literally)."""
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


@translating
class SqlEntryStore(DatabaseStore[EntryText]):
    """A conversation entry store on an experience database (closing it closes the database)."""

    __slots__ = ()

    def _remove(self, condition: str, args: tuple[object, ...]) -> int:
        """Delete the entries of the store's space `condition` selects, text and all (inside a
        transaction); how many."""
        where, values = f"space = ? AND {condition}", (self.space, *args)
        self.text.unindex_entries(self.db, where, values)
        return self.db.run(f"DELETE FROM convo_entry WHERE {where}", values)

    def put(self, key: str, value: dict[str, Any], *, text: str, expires_at: float | None) -> None:
        with self.db.transaction():
            self._remove("key = ?", (key,))
            self.text.insert_entry(
                self.db, self.space, key, json.dumps(value, ensure_ascii=False), expires_at, text
            )

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        row = self.db.one(f"SELECT value, expires_at FROM convo_entry WHERE {_KEY}", (self.space, key))
        if row is None:
            return None
        if row[1] is not None and row[1] <= now:
            with self.db.transaction():
                self._remove("key = ? AND expires_at <= ?", (key, now))
            return None
        value = json.loads(row[0])
        return value if isinstance(value, dict) else None

    def keys(self, prefix: str, *, now: float) -> list[str]:
        rows = self.db.rows(
            f"SELECT key FROM convo_entry WHERE space = ? AND {_UNDER} AND {_LIVE}"
            f" ORDER BY key COLLATE {self.text.code_points}",
            (self.space, _like(prefix), now),
        )
        return [str(key) for (key,) in rows]

    def cleanup(self, prefix: str, *, now: float) -> int:
        with self.db.transaction():
            return self._remove(f"{_UNDER} AND expires_at <= ?", (_like(prefix), now))

    def delete(self, prefix: str, *, erase: bool = False) -> int:
        with self.db.transaction():
            gone = self._remove(_UNDER, (_like(prefix),))
            if erase and gone:
                self.text.optimize_entries(self.db)
            return gone

    def search(self, prefix: str, words: list[str], limit: int, *, now: float) -> list[tuple[str, float]]:
        """Best first, ties by key."""
        query = self.text.query(words)
        if not query:
            return []
        sql = self.text.entries_index.search("key", "key", f" AND {_UNDER} AND {_LIVE}")
        rows = self.db.rows(sql, (query, self.space, _like(prefix), now, limit))
        return [(str(key), float(score)) for key, score in rows]

    # ---- forgetting: the terms live in the experience store's `exp_forgotten` (same database) ----

    def forgotten_terms(self) -> list[tuple[str, int]]:
        return blocked_terms(self.db, self.space) if self.db.has_table("exp_forgotten") else []

    def purged_terms(self) -> list[tuple[str, int]]:
        """The terms purges blocked (`zerolang.experience.forgotten.PURGED`): stored messages leave out
        what mentions them."""
        return purged_terms(self.db, self.space)

    def erase_mentioning(self, forgotten: Forgotten) -> int:
        """Drop the messages that mention a forgotten term from every entry (the whole entry when its
        other fields do), full text included; then leave no freed storage holding the text. How many
        entries changed."""
        if not forgotten:
            return 0
        changed = 0
        with self.db.transaction():
            for key, kept in self._mentioning(forgotten):
                changed += 1
                if kept is None:
                    self._remove("key = ?", (key,))
                    continue
                self.db.run(
                    f"UPDATE convo_entry SET value = ? WHERE {_KEY}",
                    (json.dumps(kept, ensure_ascii=False), self.space, key),
                )
                self.text.reindex_entry(self.db, self.space, key, entry_text(kept))
            self.text.optimize_entries(self.db)
        self.db.erase_freed()
        return changed

    def count_mentioning(self, forgotten: Forgotten) -> int:
        """How many entries mention a forgotten term (those `erase_mentioning` changes), read only."""
        return len(self._mentioning(forgotten)) if forgotten else 0

    def _mentioning(self, forgotten: Forgotten) -> list[tuple[str, dict[str, Any] | None]]:
        """The entries of the space that mention a forgotten term: `(key, what is left of it)` (None:
        the whole entry goes)."""
        found = []
        rows = self.db.rows("SELECT key, value FROM convo_entry WHERE space = ? ORDER BY key", (self.space,))
        for key, raw in rows:
            value = json.loads(raw)
            if isinstance(value, dict) and (kept := scrub(value, forgotten)) is not value:
                found.append((str(key), kept))
        return found
