"""The space's append-only event log in SQL (`space_log`), sealed as every other table."""

from __future__ import annotations

from zerolang.knowledge import backend
from zerolang.knowledge.backend import LogEntry
from zerolang.knowledge.integrity import change
from zerolang.storage.errors import translating
from zerolang.storage.sql.seals import Seals


@translating
class Log(Seals, backend.Log):
    __slots__ = ()

    def append_log(self, at: str, kind: str, subject: bytes, detail: str = "") -> None:
        with self.write():
            self.run(
                "INSERT INTO space_log (space, at, kind, subject, detail) VALUES (?, ?, ?, ?, ?)",
                [self.space, at, kind, subject, detail],
            )
            self.seal_apply({"space_log": change("space_log", [(at, kind, subject, detail)])})

    def log_entries(self, limit: int | None = None) -> list[LogEntry]:
        rows = self.rows(
            "SELECT seq, at, kind, subject, detail FROM space_log WHERE space = ? ORDER BY seq",
            [self.space],
        )
        entries = [LogEntry(int(r[0]), r[1], r[2], bytes(r[3]), r[4]) for r in rows]
        return entries if limit is None else entries[-limit:]
