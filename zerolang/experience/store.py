"""The one interface experiential memory stores through.

Capture writes a `CaptureBatch`; recall reads through the narrow queries below.
`zerolang.storage.sql.experiences.SqlExperienceStore` implements it once for every engine.
The store keeps recall's full text as postings in its own tables (the same terms on every
engine, `words.index_terms`); `ranking` scores them in one place, so a question ranks
alike on SQLite and PostgreSQL. Ids are hex SHA-256 strings.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from types import TracebackType
from typing import Protocol, Self

from zerolang.experience.forgotten import ForgettingStore
from zerolang.experience.model import Added, CaptureBatch, Experience, Posting, SessionRow, TermTotals


class ExperienceStore(ForgettingStore, Protocol):
    """An experience store: capture writes, recall reads, forgetting blocks and erases; closed on exit."""

    def add(self, batch: CaptureBatch) -> Added:
        """Write the batch in one transaction; return what was not there before."""
        ...

    def add_all(self, batches: Iterable[CaptureBatch], *, expected_turns: int = 0) -> Added:
        """Write every batch in one transaction, each as it comes (a generator builds the next after
        the last is stored); return what was not there before. `expected_turns`, how many turns the
        batches hold when the caller knows, lets a store write a large capture in bulk."""
        ...

    def postings(self, terms: Collection[str]) -> list[Posting]:
        """Every posting of the index terms `terms` (`words.index_terms`), in no particular order:
        the store keeps recall's full text; `ranking` scores it, alike on every engine."""
        ...

    def term_totals(self) -> TermTotals:
        """How many experiences and turns the full text holds, and their words."""
        ...

    def turn_lengths(self, turn_ids: Collection[str]) -> dict[str, int]:
        """How many words the `what` of each turn's layers hold together (absent: no layer)."""
        ...

    def experiences(self, ids: Collection[str]) -> dict[str, Experience]: ...

    def experiences_of_turns(self, turn_ids: Collection[str]) -> list[Experience]: ...

    def neighbour_turns(self, turn_ids: Collection[str]) -> list[tuple[str, str]]:
        """`(turn, neighbour)` for every NEXT edge touching one of `turn_ids`, either direction."""
        ...

    def mentions_of(self, experience_ids: Collection[str]) -> list[tuple[str, str, float]]:
        """`(experience, concept, weight)` for the concepts these experiences mention."""
        ...

    def mentioning(self, concept_ids: Collection[str]) -> list[tuple[str, str]]:
        """`(experience, concept)` for every experience that mentions one of `concept_ids`."""
        ...

    def concept_frequency(self, concept_ids: Collection[str]) -> dict[str, int]:
        """How many experiences mention each concept (absent: none)."""
        ...

    def concept_labels(self, concept_ids: Collection[str]) -> dict[str, str]: ...

    def last_turn(self, session: str) -> tuple[str, int] | None:
        """The id and position of the session's latest turn, if it has any."""
        ...

    def cursor(self, transcript: str) -> str | None:
        """Where incremental capture stopped in `transcript` (what a batch's `cursor` kept), if known."""
        ...

    def known_turns(self, ids: Collection[str]) -> set[str]:
        """Those of the turn `ids` the store holds."""
        ...

    def sessions(self, after: str, limit: int) -> list[SessionRow]:
        """Up to `limit` sessions, the latest turn's time newest first (sessions with no times last,
        equal times by name), starting after the session `after` ("" for the first)."""
        ...

    def session_turns(self, session: str, after: int, limit: int) -> list[tuple[str, int]]:
        """Up to `limit` turns of `session` after position `after` (-1 for the first): id and position."""
        ...

    def counts(self) -> dict[str, int]:
        """How many turns, experiences, concepts and edges the store holds."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None: ...
