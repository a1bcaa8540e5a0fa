"""SQLite's word index (`zerolang.storage.schema.words`): FTS5 over concept labels, ranked by bm25."""

from __future__ import annotations

import unicodedata
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
        kept: dict[str, str] = {}
        for word in sorted(word.replace('"', "") for word in words):
            if word:
                kept.setdefault(_as_indexed(word), word)  # spellings the tokenizer folds together: one
        terms = ['"' + word + '"*' for word in kept.values()]
        if not terms or limit < 1:
            return []
        found = self.rows(_MATCHING, (" OR ".join(terms), self.space, limit))
        return [(bytes(key), label, float(score)) for key, label, score in found]

    def indexed_form(self, word: str) -> str:
        return _as_indexed(word)

    def merge_words(self) -> None:
        """Rewrite the index without the entries of deleted labels (a purge leaves none behind)."""
        self.rows("INSERT INTO concept_fts (concept_fts) VALUES ('optimize')")


def _as_indexed(word: str) -> str:
    """`word` as the index's tokenizer (`unicode61 remove_diacritics 2`) reads a Latin letter with a
    diacritic that decomposes (`ò` is `o`; `ø` and `ł`, which do not, stay): two spellings it folds
    alike ask the index the same thing, so they cost one prefix search, not one each."""
    if word.isascii():
        return word
    return "".join(
        _plain(character) if "\u00c0" <= character <= "\u024f" else character for character in word
    )


def _plain(character: str) -> str:
    decomposed = unicodedata.normalize("NFD", character)
    return "".join(part for part in decomposed if not unicodedata.combining(part)) or character
