"""`Temporal`: facts' validity periods, the claims they are derived from, their history, and what a
space declared."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from zerolang.knowledge.backend.rows import ClaimRow, Declaration, FactEvent, PeriodRow


class Temporal(Protocol):
    """The stored side of `zerolang.knowledge.temporal`: periods are appended, and closed by
    recording when and by what; nothing else of a period ever changes."""

    __slots__ = ()

    def periods(self, facts: Sequence[bytes]) -> list[PeriodRow]:
        """Every stored period of the facts, open and closed, in the order they were recorded."""

    def has_periods(self) -> bool:
        """Whether any fact of the space has stored periods (else every fact holds from its first
        episode's event time on, as recorded when it was learned)."""

    def record_periods(
        self, opened: Sequence[PeriodRow], closed: Sequence[tuple[PeriodRow, str, str]]
    ) -> None:
        """Append `opened`; close each `(period, at, by)` of `closed` (a stored row) at `at`."""

    def replace_periods(self, rows: Sequence[PeriodRow], facts: Sequence[bytes] | None = None) -> None:
        """Replace the periods of `facts` (None: of every fact of the space) by `rows`: a copy's, or
        a history recorded again because a write was told at a store time before others."""

    def claims(self, facts: Sequence[bytes]) -> list[ClaimRow]:
        """The facts' episodes, kept and pruned, as claims on their validity: by fact, then store
        time, then episode hash (the same order whichever table, engine or page holds them)."""

    def add_fact_events(self, events: Sequence[FactEvent]) -> None: ...
    def fact_events(self, facts: Sequence[bytes]) -> list[FactEvent]:
        """The facts' history, oldest first."""

    def declarations(self) -> list[Declaration]:
        """What the space declared and undeclared, oldest first."""

    def declare(self, rows: Sequence[Declaration]) -> None: ...
