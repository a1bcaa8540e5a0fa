"""Full text in PostgreSQL: each conversation entry's `tsvector`, ranked by `ts_rank` (experiences
have the store's own postings, `zerolang.experience.ranking`, alike on every engine).

Text is indexed with the `english` configuration (stemmed, stopwords dropped), in a column with a
GIN index (`zerolang.storage.schema.experience_tables`): each conversation entry's text is its
`doc`. A query ORs its words for
`websearch_to_tsquery` (quotes and operators in a word are dropped).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zerolang.storage.errors import translating
from zerolang.storage.sql.database import SqlDatabase
from zerolang.storage.sql.fulltext import Ranked


def _ts_rank(table: str) -> Ranked:
    """The `doc` column of `table`."""
    return Ranked(
        f"{table}, websearch_to_tsquery('english', ?) q", "doc @@ q", "ts_rank(doc, q)", f"{table}.space"
    )


@translating
class TsVector:
    """PostgreSQL's `ExperienceText` and `EntryText` (`zerolang.storage.sql`): stateless. Where the
    text lives in the row itself, indexing and dropping it take nothing more."""

    __slots__ = ()

    entries_index = _ts_rank("convo_entry")
    code_points = '"C"'

    def query(self, terms: Sequence[str]) -> str:
        return " OR ".join(sorted({re.sub(r"[^\w'-]", "", term) for term in terms} - {""}))

    # ---- conversation entries -------------------------------------------------------------------

    def insert_entry(
        self, db: SqlDatabase, space: str, key: str, value: str, expires_at: float | None, text: str
    ) -> None:
        db.run(
            "INSERT INTO convo_entry (key, value, expires_at, doc, space)"
            " VALUES (?, ?, ?, to_tsvector('english', ?), ?)",
            (key, value, expires_at, text, space),
        )

    def unindex_entries(self, db: SqlDatabase, condition: str, args: tuple[object, ...]) -> None:
        """Nothing: an entry's `doc` goes with its row."""

    def reindex_entry(self, db: SqlDatabase, space: str, key: str, text: str) -> None:
        db.run(
            "UPDATE convo_entry SET doc = to_tsvector('english', ?)"
            " WHERE space = ? AND key = ? AND doc <> ''::tsvector",
            (text, space, key),
        )

    def optimize_entries(self, db: SqlDatabase) -> None:
        """Nothing to rewrite: the text is in the rows, and the server vacuums the dead ones."""


TSVECTOR = TsVector()
