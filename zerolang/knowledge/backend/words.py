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

    def concepts_spelled(self, words: Sequence[str], limit: int) -> list[tuple[bytes, str]]:
        """Concepts of this space with a label word that starts with one of `words` (folded: lower
        case, no diacritics) once its own diacritics are folded away (`util.folding`): "soren"
        finds `søren nielsen`, "maria" `maría josé` where the index keeps diacritics (PostgreSQL's
        does, SQLite's keeps those that do not decompose, `ø` and `ł`). A scan of the labels, not
        the index: for the few words the index did not find. By hash, at most `limit`."""
