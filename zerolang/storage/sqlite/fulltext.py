"""Full text in SQLite: FTS5 tables, for experiences (kept, not ranked: recall ranks the store's own
postings, `zerolang.experience.ranking`) and conversation entries (ranked by bm25).

The tables (`zerolang.storage.schema.experience_tables`) tokenize with `porter unicode61`
(stems, folds case and diacritics): `exp_fts` over each experience (external content, by
its rowid `seq`), `exp_turn_fts` over each
turn's layers together (external content over the view `exp_turn_text`, by the turn's `seq`: a
turn's document is dropped while its rows still give it, before its layers change), `convo_fts`
over each conversation entry's text (by its `seq`).
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


_TURN = "(SELECT seq FROM exp_turn WHERE space = ? AND id = ?)"
_TURN_DELETE = (
    "INSERT INTO exp_turn_fts (exp_turn_fts, rowid, what) SELECT 'delete', seq, what FROM exp_turn_text"
    f" WHERE seq = {_TURN} AND what IS NOT NULL"
)


@translating
class Fts5:
    """SQLite's `ExperienceText` and `EntryText` (`zerolang.storage.sql`): stateless. Every FTS5 row
    names its space (`space UNINDEXED`), as the row it indexes does."""

    __slots__ = ()

    entries_index = _bm25("convo_fts", "convo_entry")
    code_points = "BINARY"

    def query(self, terms: Sequence[str]) -> str:
        return " OR ".join(sorted({'"' + term.replace('"', '""') + '"' for term in terms if term}))

    # ---- experiences ----------------------------------------------------------------------------

    def index_experiences_after(self, db: SqlDatabase, seq: int) -> None:
        db.run(
            "INSERT INTO exp_fts (rowid, who, what, space)"
            " SELECT seq, who, what, space FROM exp_experience WHERE seq > ?",
            (seq,),
        )

    def index_new_turns(self, db: SqlDatabase, space: str, turns: Sequence[tuple[str, str]]) -> None:
        db.run_many(
            f"INSERT INTO exp_turn_fts (rowid, what) VALUES ({_TURN}, ?)",
            [(space, turn, text) for turn, text in turns],
        )

    def unindex_experience(self, db: SqlDatabase, space: str, ident: str) -> None:
        # external content: FTS5 is told the indexed values it is to forget
        db.run(
            "INSERT INTO exp_fts (exp_fts, rowid, who, what, space)"
            " SELECT 'delete', seq, who, what, space FROM exp_experience WHERE space = ? AND id = ?",
            (space, ident),
        )

    def index_new_turn(self, db: SqlDatabase, space: str, turn: str, text: str) -> None:
        self.index_new_turns(db, space, [(turn, text)])

    def unindex_turn(self, db: SqlDatabase, space: str, turn: str) -> None:
        # external content: FTS5 is told the document it is to forget, which the rows still give
        db.run(_TURN_DELETE, (space, turn))

    def optimize_experiences(self, db: SqlDatabase) -> None:
        for index in ("exp_fts", "exp_turn_fts"):
            db.run(f"INSERT INTO {index} ({index}) VALUES ('optimize')")

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
