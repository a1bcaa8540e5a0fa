"""`Log`: the space's append-only event log (ingest, forget, restore, purge, retract, receive)."""

from __future__ import annotations

from typing import Protocol

from zerolang.knowledge.backend.rows import LogEntry


class Log(Protocol):
    """Appending to the space's log and reading it back: hashes and counts, never labels."""

    __slots__ = ()

    def append_log(self, at: str, kind: str, subject: bytes, detail: str = "") -> None: ...
    def log_entries(self, limit: int | None = None) -> list[LogEntry]:
        """The space's log, oldest first (the last `limit` entries when given)."""
