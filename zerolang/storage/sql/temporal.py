"""Bi-temporal facts in SQL: the `fact_times` rows that differ from the defaults and the `fact_events` log.

Every write here folds the rows it adds and replaces into the tables' seals
(`seals.Seals.seal_apply`), as the space log's appends do.
"""

from __future__ import annotations

from collections.abc import Sequence

from zerolang.knowledge import backend
from zerolang.knowledge.backend import FactEvent, FactTimes
from zerolang.knowledge.integrity import change
from zerolang.storage.errors import translating
from zerolang.storage.sql.seals import Seals


@translating
class Temporal(Seals, backend.Temporal):
    __slots__ = ()

    def fact_times(self, facts: Sequence[bytes]) -> dict[bytes, FactTimes]:
        rows = self.select_in(
            "SELECT fact_hash, valid_from, valid_to, retired_at, retired_by FROM fact_times WHERE space = ?",
            "fact_hash",
            sorted(set(facts)),
            [self.space],
        )
        return {bytes(r[0]): FactTimes(bytes(r[0]), r[1], r[2], r[3], r[4]) for r in rows}

    def has_fact_times(self) -> bool:
        return self.one("SELECT 1 FROM fact_times WHERE space = ? LIMIT 1", [self.space]) is not None

    def set_fact_times(self, rows: Sequence[FactTimes]) -> None:
        if not rows:
            return
        fresh = [(r.fact, r.valid_from, r.valid_to, r.retired_at, r.retired_by) for r in rows]
        with self.write():
            keys = sorted({row.fact for row in rows})
            replaced = self.sealed_rows("fact_times", keys, "fact_hash")
            for condition, values in self.in_list("fact_hash", keys):
                self.run(f"DELETE FROM fact_times WHERE space = ? AND {condition}", [self.space, *values])
            self.run_many(
                "INSERT INTO fact_times (space, fact_hash, valid_from, valid_to, retired_at, retired_by)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(self.space, *row) for row in fresh],
            )
            self.seal_apply({"fact_times": change("fact_times", fresh, replaced)})

    def add_fact_events(self, events: Sequence[FactEvent]) -> None:
        if not events:
            return
        rows = [(e.fact, e.kind, e.at, e.valid_from, e.valid_to, e.confidence, e.detail) for e in events]
        with self.write():
            self.run_many(
                "INSERT INTO fact_events (space, fact_hash, kind, at, valid_from, valid_to, confidence,"
                " detail)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(self.space, *row) for row in rows],
            )
            self.seal_apply({"fact_events": change("fact_events", rows)})

    def fact_events(self, facts: Sequence[bytes]) -> list[FactEvent]:
        rows = self.select_in(
            "SELECT id, fact_hash, kind, at, valid_from, valid_to, confidence, detail FROM fact_events"
            " WHERE space = ?",
            "fact_hash",
            sorted(set(facts)),
            [self.space],
        )
        rows.sort(key=lambda r: (r[3], r[0]))
        return [FactEvent(bytes(r[1]), r[2], r[3], r[4], r[5], r[6], r[7]) for r in rows]
