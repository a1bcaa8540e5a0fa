"""PostgreSQL's word index (`zerolang.storage.schema.words`): `concepts.words`, ranked by ts_rank."""

from __future__ import annotations

import re
from collections.abc import Sequence

from zerolang.knowledge import backend
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import SqlCore

_MATCHING = (
    "SELECT hash, label, ts_rank(words, q) AS score FROM concepts, to_tsquery('english', ?) q"
    " WHERE space = ? AND words @@ q ORDER BY score DESC, hash LIMIT ?"
)


@translating
class PostgresWords(SqlCore, backend.Words):
    """Each word is a lexeme and a prefix of one (`car:*`), ORed; the `english` stemmer folds forms."""

    __slots__ = ()

    def concepts_matching(self, words: Sequence[str], limit: int) -> list[tuple[bytes, str, float]]:
        terms = sorted({self.indexed_form(word) for word in words} - {""})
        if not terms or limit < 1:
            return []
        found = self.rows(_MATCHING, (" | ".join(f"{term}:*" for term in terms), self.space, limit))
        return [(bytes(key), label, float(score)) for key, label, score in found]

    def indexed_form(self, word: str) -> str:
        return re.sub(r"[\W_]", "", word.lower())  # its lexemes keep every diacritic
