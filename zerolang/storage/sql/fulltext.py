"""What an engine's full text gives the shared SQL: how an index finds and ranks rows (`Ranked`).

The experience and conversation stores write each search once
(`SELECT <key>, <score> AS score FROM <source> WHERE <match> ... ORDER BY score DESC, <tie> LIMIT ?`);
an engine says what its index puts in the three places. The query (the terms, as
the engine's `query` spells them) is the statement's first argument: it stands in
`source` or in `match`, before any other placeholder.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ranked:
    """A full-text index as a search reads it; the columns of the indexed rows are unqualified."""

    source: str  # FROM: the indexed rows and the index (and the query, where the engine takes it there)
    match: str  # WHERE: the rows the query matches
    score: str  # how well a row matches: higher is better

    def search(self, key: str, tie: str, conditions: str = "") -> str:
        """The rows' `key` and score, best first, then by `tie`; `conditions` narrow them (`AND ...`)."""
        return (
            f"SELECT {key}, {self.score} AS score FROM {self.source} WHERE {self.match}{conditions}"
            f" ORDER BY score DESC, {tie} LIMIT ?"
        )
