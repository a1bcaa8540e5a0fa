"""Full text in PostgreSQL: `tsvector`s, for experiences (kept, not ranked: recall ranks the store's
own postings, `zerolang.experience.ranking`) and conversation entries (ranked by `ts_rank`).

Text is indexed with the `english` configuration (stemmed, stopwords dropped), in columns
with GIN indexes (`zerolang.storage.schema.experience_tables`): each experience's `doc` is
generated from its `who` (weight B) and `what` (A), each turn's layers together are one
`exp_turn_doc`, and each conversation entry's text is its `doc`. A query ORs its words for
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


_TURN_DOC = (
    "INSERT INTO exp_turn_doc (turn, doc, space) VALUES (?, to_tsvector('english', ?), ?)"
    " ON CONFLICT (space, turn) DO UPDATE SET doc = excluded.doc"
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

    # ---- experiences ----------------------------------------------------------------------------

    def index_experiences_after(self, db: SqlDatabase, seq: int) -> None:
        """Nothing: `exp_experience.doc` is generated."""

    def index_new_turns(self, db: SqlDatabase, space: str, turns: Sequence[tuple[str, str]]) -> None:
        db.run_many(_TURN_DOC, [(turn, text, space) for turn, text in turns])

    def unindex_experience(self, db: SqlDatabase, space: str, ident: str) -> None:
        """Nothing: `exp_experience.doc` goes with its row."""

    def index_new_turn(self, db: SqlDatabase, space: str, turn: str, text: str) -> None:
        db.run(_TURN_DOC, (turn, text, space))  # keyed by turn: replacing is an index look-up anyway

    def unindex_turn(self, db: SqlDatabase, space: str, turn: str) -> None:
        db.run("DELETE FROM exp_turn_doc WHERE space = ? AND turn = ?", (space, turn))

    def optimize_experiences(self, db: SqlDatabase) -> None:
        """Nothing to rewrite: the text is in the rows, and the server vacuums the dead ones."""

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
