"""Full text in SQLite: the FTS5 table of conversation entries, ranked by bm25 (experiences have
the store's own postings, `zerolang.experience.ranking`, alike on every engine).

The table (`zerolang.storage.schema.experience_tables`) tokenizes with `porter unicode61`
(stems, folds case and diacritics): `convo_fts` over each conversation entry's text (by its `seq`).
A query ORs its terms, each quoted as an FTS5 string, so no term is read as an operator.
bm25 is lower for a better match: a score is its negation.
"""

from __future__ import annotations

from collections.abc import Sequence

from zerolang.storage.errors import translating
from zerolang.storage.sql.database import SqlDatabase
from zerolang.storage.sql.fulltext import Ranked


def _bm25(index: str, rows: str) -> Ranked:
    """The FTS5 table `index`, over the rows of table `rows` by their `seq`."""
    source = f"{index} JOIN {rows} ON {rows}.seq = {index}.rowid"
    return Ranked(source, f"{index} MATCH ?", f"-bm25({index})", f"{rows}.space")


@translating
class Fts5:
    """SQLite's `ExperienceText` and `EntryText` (`zerolang.storage.sql`): stateless. Every FTS5 row
    names its space (`space UNINDEXED`), as the row it indexes does."""

    __slots__ = ()

    entries_index = _bm25("convo_fts", "convo_entry")
    code_points = "BINARY"

    def query(self, terms: Sequence[str]) -> str:
        return " OR ".join(sorted({'"' + term.replace('"', '""') + '"' for term in terms if term}))

    # ---- conversation entries -------------------------------------------------------------------

    def insert_entry(
        self, db: SqlDatabase, space: str, key: str, value: str, expires_at: float | None, text: str
    ) -> None:
        db.run(
            "INSERT INTO convo_entry (key, value, expires_at, space) VALUES (?, ?, ?, ?)",
            (key, value, expires_at, space),
        )
        db.run(
            "INSERT INTO convo_fts (rowid, text, space) SELECT seq, ?, space FROM convo_entry"
            " WHERE space = ? AND key = ?",
            (text, space, key),
        )

    def unindex_entries(self, db: SqlDatabase, condition: str, args: tuple[object, ...]) -> None:
        db.run(f"DELETE FROM convo_fts WHERE rowid IN (SELECT seq FROM convo_entry WHERE {condition})", args)

    def reindex_entry(self, db: SqlDatabase, space: str, key: str, text: str) -> None:
        db.run(
            "UPDATE convo_fts SET text = ?"
            " WHERE rowid = (SELECT seq FROM convo_entry WHERE space = ? AND key = ?) AND text <> ''",
            (text, space, key),
        )

    def optimize_entries(self, db: SqlDatabase) -> None:
        db.run("INSERT INTO convo_fts (convo_fts) VALUES ('optimize')")


FTS5 = Fts5()
