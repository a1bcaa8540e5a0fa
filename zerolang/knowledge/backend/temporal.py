"""`Temporal`: bi-temporal fact times where they differ from the defaults, and each fact's history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from zerolang.knowledge.backend.rows import FactEvent, FactTimes


class Temporal(Protocol):
    """Facts' validity and retirement times (`zerolang.knowledge.temporal`) and their event log."""

    __slots__ = ()

    def fact_times(self, facts: Sequence[bytes]) -> dict[bytes, FactTimes]: ...
    def has_fact_times(self) -> bool:
        """Whether any fact of the space has non-default times (else every fact is current)."""

    def set_fact_times(self, rows: Sequence[FactTimes]) -> None: ...
    def add_fact_events(self, events: Sequence[FactEvent]) -> None: ...
    def fact_events(self, facts: Sequence[bytes]) -> list[FactEvent]:
        """The facts' history, oldest first."""
