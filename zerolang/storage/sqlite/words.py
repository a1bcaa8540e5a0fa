"""SQLite's word index (`zerolang.storage.schema.words`): FTS5 over concept labels, ranked by bm25."""

from __future__ import annotations

from collections.abc import Sequence

from zerolang.knowledge import backend
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import SqlCore

_MATCHING = (
    "SELECT w.hash, c.label, -bm25(concept_fts) AS score FROM concept_fts"
    " JOIN concept_words w ON w.id = concept_fts.rowid"
    " JOIN concepts c ON c.space = w.space AND c.hash = w.hash"
    " WHERE concept_fts MATCH ? AND w.space = ? ORDER BY score DESC, w.hash LIMIT ?"
)


@translating
class SqliteWords(SqlCore, backend.Words):
    """Each word is an FTS5 string and a prefix of one (`"car"*`), ORed; porter folds word forms."""

    __slots__ = ()

    def concepts_matching(self, words: Sequence[str], limit: int) -> list[tuple[bytes, str, float]]:
        terms = sorted({'"' + word.replace('"', "") + '"*' for word in words if word.replace('"', "")})
        if not terms or limit < 1:
            return []
        found = self.rows(_MATCHING, (" OR ".join(terms), self.space, limit))
        return [(bytes(key), label, float(score)) for key, label, score in found]

    def merge_words(self) -> None:
        """Rewrite the index without the entries of deleted labels (a purge leaves none behind)."""
        self.rows("INSERT INTO concept_fts (concept_fts) VALUES ('optimize')")
