"""Bi-temporal facts in SQL: `fact_periods` (appended; a period is closed by recording when), the
claims they are derived from (episodes kept and pruned, with their contexts), the `fact_events`
history and a space's `declarations`.

Every write here folds the rows it adds and replaces into the tables' seals
(`seals.Seals.seal_apply`), as the space log's appends do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from zerolang.knowledge import backend
from zerolang.knowledge.backend import ClaimRow, Declaration, FactEvent, PeriodRow
from zerolang.knowledge.integrity import change
from zerolang.storage.errors import translating
from zerolang.storage.sql.memo import remembered
from zerolang.storage.sql.seals import Seals

_PERIOD_COLUMNS = "fact_hash, valid_from, valid_to, ended_by, recorded_at, recorded_by, closed_at, closed_by"


def _sealed(row: PeriodRow) -> tuple[object, ...]:
    return (
        row.fact,
        row.valid_from,
        row.valid_to,
        row.ended_by,
        row.recorded_at,
        row.recorded_by,
        row.closed_at,
        row.closed_by,
    )


@translating
class Temporal(Seals, backend.Temporal):
    __slots__ = ()

    def periods(self, facts: Sequence[bytes]) -> list[PeriodRow]:
        rows = self.select_in(
            f"SELECT id, {_PERIOD_COLUMNS} FROM fact_periods WHERE space = ?",
            "fact_hash",
            sorted(set(facts)),
            [self.space],
        )
        rows.sort(key=lambda r: r[0])
        return [PeriodRow(bytes(r[1]), r[2], r[3], r[4], r[5], r[6], r[7], r[8], int(r[0])) for r in rows]

    def ensure_periods(self) -> None:
        """A store migrated from one validity interval a fact (schema step 13) records its facts'
        periods again from the whole log, once, when first opened (`temporal.rederive`)."""
        marker = ["", "*pending:periods*"]
        if self.one("SELECT 1 FROM table_seals WHERE space = ? AND tbl = ?", marker) is None:
            return
        from zerolang.knowledge.temporal import rederive

        with self.transaction():
            self.exclude_writers()
            for space in self.spaces():
                rederive(self.in_space(space))  # type: ignore[arg-type]
            self.run("DELETE FROM table_seals WHERE space = ? AND tbl = ?", marker)

    def has_periods(self) -> bool:
        return remembered(
            self.write_memo(),
            self.space,
            "fact_periods",
            "has_periods",
            lambda: self.one("SELECT 1 FROM fact_periods WHERE space = ? LIMIT 1", [self.space]) is not None,
        )

    def record_periods(
        self, opened: Sequence[PeriodRow], closed: Sequence[tuple[PeriodRow, str, str]]
    ) -> None:
        if not opened and not closed:
            return
        with self.write():
            ended = [(row, replace(row, closed_at=at, closed_by=by)) for row, at, by in closed]
            self.run_many(
                "UPDATE fact_periods SET closed_at = ?, closed_by = ?"
                " WHERE space = ? AND id = ? AND closed_at IS NULL",
                [(new.closed_at, new.closed_by, self.space, old.id) for old, new in ended],
            )
            self.run_many(
                f"INSERT INTO fact_periods (space, {_PERIOD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(self.space, *_sealed(row)) for row in opened],
            )
            fresh = [_sealed(new) for _, new in ended] + [_sealed(row) for row in opened]
            self.seal_apply(
                {"fact_periods": change("fact_periods", fresh, [_sealed(old) for old, _ in ended])}
            )

    def replace_periods(self, rows: Sequence[PeriodRow], facts: Sequence[bytes] | None = None) -> None:
        with self.write():
            if facts is None:
                old = self.rows(f"SELECT {_PERIOD_COLUMNS} FROM fact_periods WHERE space = ?", [self.space])
                self.delete_rows("fact_periods")
            else:
                keys = sorted(set(facts))
                old = self.sealed_rows("fact_periods", keys, "fact_hash")
                self.delete_rows("fact_periods", "fact_hash", keys)
            self.run_many(
                f"INSERT INTO fact_periods (space, {_PERIOD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(self.space, *_sealed(row)) for row in rows],
            )
            self.seal_apply({"fact_periods": change("fact_periods", [_sealed(r) for r in rows], old)})

    def claims(self, facts: Sequence[bytes]) -> list[ClaimRow]:
        out: list[ClaimRow] = []
        for table in ("episodes", "pruned_episodes"):
            rows = self.select_in(
                f"SELECT e.fact_hash, e.hash, e.created_at, c.event_time, c.metadata FROM {table} e"
                " JOIN contexts c ON c.space = e.space AND c.hash = e.context_hash WHERE e.space = ?",
                "e.fact_hash",
                sorted(set(facts)),
                [self.space],
            )
            out += [ClaimRow(bytes(r[0]), bytes(r[1]), r[2], r[3], r[4]) for r in rows]
        out.sort(key=lambda row: (row.fact, row.created_at, row.episode))  # not the tables' order
        return out

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

    def declarations(self) -> list[Declaration]:
        def read() -> tuple[Declaration, ...]:
            sql = "SELECT at, setting, value, declared FROM declarations WHERE space = ? ORDER BY seq"
            rows = self.rows(sql, [self.space])
            return tuple(Declaration(r[0], r[1], r[2], bool(r[3])) for r in rows)

        return list(remembered(self.write_memo(), self.space, "declarations", "declarations", read))

    def declare(self, rows: Sequence[Declaration]) -> None:
        if not rows:
            return
        fresh = [(r.at, r.setting, r.value, int(r.declared)) for r in rows]
        with self.write():
            self.run_many(
                "INSERT INTO declarations (space, at, setting, value, declared) VALUES (?, ?, ?, ?, ?)",
                [(self.space, *row) for row in fresh],
            )
            self.seal_apply({"declarations": change("declarations", fresh)})
