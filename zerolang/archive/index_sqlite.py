"""The summary index in SQLite: the one place in the archive package that writes SQL.

One table, `memory_index`, with the seed's columns. The time axis is stored as the calendar
`day` (ISO date); `t_x` is computed against today when a record is read, never stored. The axes,
the decay score and the counts carry CHECK constraints, so even a hand-edited database cannot
hold a privacy of 99. Each write is one transaction; WAL lets readers run beside a writer.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from zerolang.archive.document import parse_hash
from zerolang.archive.index import (
    REVOKED,
    IndexError_,
    IndexQuery,
    IndexRecord,
    flags,
    matches,
    today_utc,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS memory_index (
    hash                TEXT PRIMARY KEY CHECK (length(hash) = 64),
    summary             TEXT NOT NULL,
    day                 TEXT NOT NULL,
    y_privacy           INTEGER NOT NULL CHECK (y_privacy BETWEEN -15 AND 15),
    z_abstraction       INTEGER NOT NULL CHECK (z_abstraction BETWEEN -15 AND 15),
    cluster_id          TEXT,
    decay_score         REAL NOT NULL CHECK (decay_score BETWEEN 0 AND 1),
    reinforcement_count INTEGER NOT NULL CHECK (reinforcement_count >= 0),
    last_accessed_at    TEXT,
    consent_scope       TEXT NOT NULL,
    consent_flags       TEXT NOT NULL,
    source_session      TEXT,
    source_channel      TEXT NOT NULL,
    created_at          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_index_channel ON memory_index (source_channel, day);
CREATE INDEX IF NOT EXISTS memory_index_day ON memory_index (day, created_at);
"""
COLUMNS = (
    "hash, summary, day, y_privacy, z_abstraction, cluster_id, decay_score, reinforcement_count,"
    " last_accessed_at, consent_scope, consent_flags, source_session, source_channel, created_at"
)


class SqliteIndex:
    """An IndexStore in a SQLite file (or `:memory:`)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            self._db.execute("PRAGMA busy_timeout = 30000")
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as error:
            raise IndexError_(f"{self.path}: cannot open the summary index ({error})") from None

    def _write(self, sql: str, parameters: tuple[Any, ...]) -> int:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                changed = self._db.execute(sql, parameters).rowcount
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            raise IndexError_(f"{self.path}: index write failed ({error})") from None
        return changed

    def put(self, record: IndexRecord) -> None:
        self._write(
            f"INSERT OR REPLACE INTO memory_index ({COLUMNS}) VALUES ({', '.join('?' * 14)})", _row(record)
        )

    def get(self, hash_text: str) -> IndexRecord | None:
        row = self._db.execute(
            f"SELECT {COLUMNS} FROM memory_index WHERE hash = ?", (parse_hash(hash_text),)
        ).fetchone()
        return None if row is None else _record(row)

    def delete(self, hash_text: str) -> bool:
        return self._write("DELETE FROM memory_index WHERE hash = ?", (parse_hash(hash_text),)) > 0

    def search(self, query: IndexQuery) -> list[IndexRecord]:
        today = query.today or today_utc()
        where, parameters = _conditions(query, today)
        sql = f"SELECT {COLUMNS} FROM memory_index"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY day DESC, created_at DESC, hash"
        found: list[IndexRecord] = []
        for row in self._db.execute(sql, parameters):
            record = _record(row)
            if matches(record, query, today):  # the one rule; SQL only narrows the rows read
                found.append(record)
                if len(found) == query.limit:
                    break
        return found

    def touch(self, hash_text: str, at: str) -> IndexRecord | None:
        digest = parse_hash(hash_text)
        self._write(
            "UPDATE memory_index SET last_accessed_at = ?, reinforcement_count = reinforcement_count + 1"
            " WHERE hash = ?",
            (at, digest),
        )
        return self.get(digest)

    def set_flags(self, hash_text: str, consent_flags: Iterable[str]) -> IndexRecord | None:
        digest = parse_hash(hash_text)
        self._write(
            "UPDATE memory_index SET consent_flags = ? WHERE hash = ?", (_flags_text(consent_flags), digest)
        )
        return self.get(digest)

    def count(self) -> int:
        (count,) = self._db.execute("SELECT count(*) FROM memory_index").fetchone()
        return int(count)

    def close(self) -> None:
        self._db.close()


def _flags_text(values: Iterable[str]) -> str:
    return "".join(f" {flag} " for flag in flags(values))


def _row(record: IndexRecord) -> tuple[Any, ...]:
    return (
        record.hash,
        record.summary,
        record.day.isoformat(),
        record.y_privacy,
        record.z_abstraction,
        record.cluster_id,
        record.decay_score,
        record.reinforcement_count,
        record.last_accessed_at,
        record.consent_scope,
        _flags_text(record.consent_flags),
        record.source_session,
        record.source_channel,
        record.created_at,
    )


def _record(row: tuple[Any, ...]) -> IndexRecord:
    return IndexRecord(
        hash=row[0],
        summary=row[1],
        day=date.fromisoformat(row[2]),
        y_privacy=row[3],
        z_abstraction=row[4],
        cluster_id=row[5],
        decay_score=row[6],
        reinforcement_count=row[7],
        last_accessed_at=row[8],
        consent_scope=row[9],
        consent_flags=tuple(row[10].split()),
        source_session=row[11],
        source_channel=row[12],
        created_at=row[13],
    )


def _shifted(today: date, days: int) -> date:
    try:
        return today + timedelta(days=days)
    except OverflowError:
        return date.min if days < 0 else date.max


def _conditions(query: IndexQuery, today: date) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    parameters: list[Any] = []

    def add(condition: str, *values: Any) -> None:
        where.append(condition)
        parameters.extend(values)

    if query.channels is not None:
        if not query.channels:
            add("0")
        else:
            add(f"source_channel IN ({', '.join('?' * len(query.channels))})", *query.channels)
    if query.session is not None:
        add("source_session = ?", query.session)
    for column, bound, operator in (
        ("y_privacy", query.privacy_max, "<="),
        ("y_privacy", query.privacy_min, ">="),
        ("z_abstraction", query.abstraction_min, ">="),
        ("z_abstraction", query.abstraction_max, "<="),
    ):
        if bound is not None:
            add(f"{column} {operator} ?", bound)
    if query.t_min is not None:
        add("day >= ?", _shifted(today, query.t_min).isoformat())
    if query.t_max is not None:
        add("day <= ?", _shifted(today, query.t_max).isoformat())
    if query.cluster_id is not None:
        add("cluster_id = ?", query.cluster_id)
    if not query.include_revoked:
        add("instr(consent_flags, ?) = 0", f" {REVOKED} ")
    return where, parameters
