"""What an engine's full text gives the shared SQL: how an index finds and ranks rows (`Ranked`).

The experience and conversation stores write each search once
(`SELECT <key>, <score> AS score FROM <source> WHERE <match> ... ORDER BY score DESC, <tie> LIMIT ?`);
an engine says what its index puts in the three places, and which column names a row's
space: a search reads one space's rows alone. The query (the terms, as the engine's
`query` spells them) is the statement's first argument: it stands in `source` or in
`match`, before any other placeholder; the space is the second.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ranked:
    """A full-text index as a search reads it; the columns of the indexed rows are unqualified."""

    source: str  # FROM: the indexed rows and the index (and the query, where the engine takes it there)
    match: str  # WHERE: the rows the query matches
    score: str  # how well a row matches: higher is better
    space: str  # the column naming the space of a row (qualified: the index may hold one too)

    def search(self, key: str, tie: str, conditions: str = "") -> str:
        """The rows' `key` and score, best first, then by `tie`; the rows of one space (the argument
        after the query) only, and `conditions` narrow them (`AND ...`)."""
        return (
            f"SELECT {key}, {self.score} AS score FROM {self.source} WHERE {self.match}"
            f" AND {self.space} = ?{conditions} ORDER BY score DESC, {tie} LIMIT ?"
        )
