"""The interface conversation memory stores through: keyed JSON entries with an optional expiry."""

from __future__ import annotations

from types import TracebackType
from typing import Any, Protocol, Self

from zerolang.experience.forgotten import Forgotten


class EntryStore(Protocol):
    """Conversation entries; forgetting reads the blocked terms and purge erases; closed on exit."""

    def put(self, key: str, value: dict[str, Any], *, text: str, expires_at: float | None) -> None:
        """Write (or replace) an entry; `text` is what search matches."""
        ...

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        """The entry, or None; an entry past its expiry is deleted here and reads as None."""
        ...

    def keys(self, prefix: str, *, now: float) -> list[str]:
        """Live keys under `prefix`, sorted."""
        ...

    def cleanup(self, prefix: str, *, now: float) -> int:
        """Delete every expired entry under `prefix`; how many went."""
        ...

    def search(self, prefix: str, words: list[str], limit: int, *, now: float) -> list[tuple[str, float]]:
        """Live keys under `prefix` whose text matches any of `words`, best first (bm25)."""
        ...

    def delete(self, prefix: str, *, erase: bool = False) -> int:
        """Delete every entry under `prefix`, its full text with it; how many. With `erase`, the text
        also leaves the full-text index's own storage at once (SQLite's index keeps a deleted
        row's words in its segments until they merge), as a delete meant as erasure asks."""
        ...

    def forgotten_terms(self) -> list[tuple[str, int]]:
        """The terms a memory forget blocked (kept in the experience store of the same database)."""
        ...

    def erase_mentioning(self, forgotten: Forgotten) -> int:
        """Delete for real every entry whose text mentions a forgotten term; how many."""
        ...

    def count_mentioning(self, forgotten: Forgotten) -> int:
        """How many entries mention a forgotten term, read only."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None: ...
