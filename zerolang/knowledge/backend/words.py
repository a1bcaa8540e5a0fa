"""`Words`: the concepts whose labels hold a question's words (the store's word index)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Words(Protocol):
    """The word index over concept labels (and so over fact values and observations)."""

    __slots__ = ()

    def concepts_matching(self, words: Sequence[str], limit: int) -> list[tuple[bytes, str, float]]:
        """Concepts of this space whose label holds one of `words` (lower-case letters and digits of
        any script) in any form the engine's stemmer folds together, or a word starting with one;
        best first, as `(hash, label, score)` (higher is better), at most `limit`."""

    def indexed_form(self, word: str) -> str:
        """`word` (lower case) as the index reads it, diacritics and all: two words of one form ask
        the index the same thing (SQLite's folds `ò` to `o` but keeps `ø`; PostgreSQL's keeps both)."""
        ...
