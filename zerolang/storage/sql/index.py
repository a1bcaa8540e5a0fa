"""The archive's summary index (`memory_index`, seed 004) in SQL, as both backends speak it.

`SqlIndex` implements `zerolang.archive.index.IndexStore` over a backend's connection, in the
backend's space (the space leads the table's key, as in every other table). The time axis is
stored as the calendar `day` (ISO date) and `t_x` is computed against today when a record is
read, never stored. Privacy, abstraction, the decay score and the count carry CHECK constraints
in both schemas (migration `MEMORY_INDEX` of each backend); `IndexRecord` validates the same
rules in Python first, so a bad value is a clear error before any SQL runs.

SQL decides a search's channel, session, axes, days, cluster and consent exactly and orders the
rows as `order_key` does; a search without words reads just its LIMIT. The summary's words are
matched case-folded in Python (`zerolang.archive.index.matches`, the one rule), over pages of
rows until enough match, so every IndexStore answers alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, timedelta
from typing import Any

from zerolang.archive.document import parse_hash
from zerolang.archive.index import REVOKED, IndexQuery, IndexRecord, flags, matches, today_utc
from zerolang.knowledge import integrity
from zerolang.knowledge.integrity import change
from zerolang.knowledge.terms import Forgotten
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import Row, SqlCore
from zerolang.storage.sql.seals import Seals

COLUMNS = (
    "hash, summary, day, y_privacy, z_abstraction, cluster_id, decay_score, reinforcement_count,"
    " last_accessed_at, consent_scope, consent_flags, source_session, source_channel, created_at"
)
TABLE = "memory_index"
_UPDATES = ", ".join(f"{column.strip()} = excluded.{column.strip()}" for column in COLUMNS.split(",")[1:])


@translating
class SqlIndex:
    """An IndexStore in a memory backend's `memory_index` table, seen from the backend's space.

    `owner`: closing the index closes the backend (an index opened on its own, e.g. by
    `zerolang.archive.index.open_index`); a backend's `.index` leaves the backend open.
    """

    __slots__ = ("_backend", "_owner")

    def __init__(self, backend: SqlCore, *, owner: bool = False) -> None:
        self._backend = backend
        self._owner = owner

    @property
    def space(self) -> str:
        return self._backend.space

    @property
    def location(self) -> str:
        return self._backend.location

    def put(self, record: IndexRecord) -> None:
        with self._sealed([record.hash]):
            self._backend.run(
                f"INSERT INTO memory_index (space, {COLUMNS}) VALUES ({', '.join('?' * 15)})"
                f" ON CONFLICT (space, hash) DO UPDATE SET {_UPDATES}",
                (self.space, *_row(record)),
            )

    @contextmanager
    def _sealed(self, hashes: Sequence[str]) -> Iterator[None]:
        """A write of this space's rows of `hashes`, folded into the space's seal of `memory_index`."""
        backend = _seals(self._backend)
        with backend.write():
            before = self._sealed_rows(hashes)
            yield
            after = self._sealed_rows(hashes)
            backend.seal_apply({TABLE: change(TABLE, after, before)})

    def _sealed_rows(self, hashes: Sequence[str]) -> list[Row]:
        return self._backend.select_in(
            f"SELECT {integrity.columns(TABLE)} FROM {TABLE} WHERE space = ?", "hash", hashes, [self.space]
        )

    def get(self, hash_text: str) -> IndexRecord | None:
        row = self._backend.one(
            f"SELECT {COLUMNS} FROM memory_index WHERE space = ? AND hash = ?",
            (self.space, parse_hash(hash_text)),
        )
        return None if row is None else _record(row)

    def delete(self, hash_text: str) -> bool:
        digest = parse_hash(hash_text)
        with self._sealed([digest]):
            changed = self._backend.delete_rows("memory_index", "hash", [digest])
        return changed > 0

    def search(self, query: IndexQuery) -> list[IndexRecord]:
        today = query.today or today_utc()
        where, parameters = _conditions(query, today)
        sql = f"SELECT {COLUMNS} FROM memory_index WHERE {' AND '.join(['space = ?', *where])}"
        sql += " ORDER BY day DESC, created_at DESC, hash LIMIT ? OFFSET ?"
        arguments = [self.space, *parameters]
        if not query.words:  # SQL decides every other condition exactly: read only what is returned
            return [_record(row) for row in self._backend.rows(sql, [*arguments, query.limit, 0])]
        found: list[IndexRecord] = []
        offset, page = 0, max(4 * query.limit, 200)
        while True:  # words are matched case-folded in Python: read pages until enough match
            rows = self._backend.rows(sql, [*arguments, page, offset])
            for row in rows:
                summary = row[1].casefold()
                if not all(word in summary for word in query.words):
                    continue  # the words test of `matches`, before building (and validating) a record
                record = _record(row)
                if matches(record, query, today):  # the one rule; SQL only narrows the rows read
                    found.append(record)
                    if len(found) == query.limit:
                        return found
            if len(rows) < page:
                return found
            offset, page = offset + page, min(page * 2, 10_000)

    def touch(self, hash_text: str, at: str) -> IndexRecord | None:
        from zerolang.archive.document import parse_time

        digest = parse_hash(hash_text)
        parse_time(at, "last_accessed_at")
        with self._sealed([digest]):
            self._backend.run(
                "UPDATE memory_index SET last_accessed_at = ?, reinforcement_count = reinforcement_count + 1"
                " WHERE space = ? AND hash = ?",
                (at, self.space, digest),
            )
            return self.get(digest)

    def set_flags(self, hash_text: str, consent_flags: Iterable[str]) -> IndexRecord | None:
        digest = parse_hash(hash_text)
        text = _flags_text(consent_flags)
        with self._sealed([digest]):
            self._backend.run(
                "UPDATE memory_index SET consent_flags = ? WHERE space = ? AND hash = ?",
                (text, self.space, digest),
            )
            return self.get(digest)

    def forgotten_terms(self) -> Forgotten:
        """The terms the space's purges erased (`zerolang.archive.archiving` refuses what mentions them)."""
        read = getattr(self._backend, "blocked_terms", None)
        found = read() if read is not None else None
        return found if isinstance(found, Forgotten) else Forgotten()

    def mentioning(self, forgotten: Forgotten) -> list[str]:
        """The hashes of the rows, in every space, whose summary mentions a forgotten term (those
        `erase` drops for it), read only."""
        if not forgotten:
            return []
        rows = self._backend.rows("SELECT hash, summary FROM memory_index ORDER BY hash", ())
        return sorted({digest for digest, summary in rows if forgotten.mentions(summary)})

    def erase(self, forgotten: Forgotten, hashes: Iterable[str] = ()) -> list[str]:
        """Drop, in every space, the rows of `hashes` and the rows whose summary mentions a forgotten
        term; the hashes of the rows dropped (sorted)."""
        wanted = {parse_hash(text) for text in hashes}
        rows = self._backend.rows("SELECT space, hash, summary FROM memory_index ORDER BY space, hash", ())
        doomed = [
            (space, digest)
            for space, digest, summary in rows
            if digest in wanted or forgotten.mentions(summary)
        ]
        if doomed:
            backend = _seals(self._backend)
            with backend.transaction():
                backend.exclude_writers()  # the seals of every space it deletes from
                for space, digests in _by_space(doomed).items():
                    gone = backend.select_in(
                        f"SELECT {integrity.columns(TABLE)} FROM {TABLE} WHERE space = ?",
                        "hash",
                        digests,
                        [space],
                    )
                    backend.delete_rows(TABLE, "hash", digests, space)
                    backend.seal_apply({TABLE: change(TABLE, [], gone)}, space)
            if self._owner:  # a store of its own: no freed page keeps the summaries (else its owner's purge)
                erase = getattr(self._backend, "erase_freed", None)
                if erase is not None:
                    erase()
        return sorted({digest for _space, digest in doomed})

    def count(self) -> int:
        row = self._backend.one("SELECT count(*) FROM memory_index WHERE space = ?", (self.space,))
        return 0 if row is None else int(row[0])

    def close(self) -> None:
        if self._owner:
            close = getattr(self._backend, "close", None)
            if close is not None:
                close()

    def __repr__(self) -> str:
        return f"SqlIndex({self.location!r}, space={self.space!r})"


def _seals(backend: SqlCore) -> Seals:
    """The backend's seals: every memory backend keeps them (an index is a memory backend's table)."""
    if not isinstance(backend, Seals):
        raise TypeError(f"{type(backend).__name__} keeps no table seals")
    return backend


def _by_space(rows: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for space, digest in rows:
        found.setdefault(space, []).append(digest)
    return found


def _flags_text(values: Iterable[str]) -> str:
    """Flags as stored: each between spaces (` a  b `), so one LIKE finds a whole flag."""
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


def _record(row: Sequence[Any]) -> IndexRecord:
    return IndexRecord(
        hash=row[0],
        summary=row[1],
        day=date.fromisoformat(row[2]),
        y_privacy=int(row[3]),
        z_abstraction=int(row[4]),
        cluster_id=row[5],
        decay_score=float(row[6]),
        reinforcement_count=int(row[7]),
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
            add("1 = 0")
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
        add("consent_flags NOT LIKE ?", f"% {REVOKED} %")
    return where, parameters


def every_record(backend: SqlCore) -> list[IndexRecord]:
    """Every index row the store holds, in any space."""
    return [_record(row) for row in backend.rows(f"SELECT {COLUMNS} FROM memory_index ORDER BY hash, space")]


def clear_index(backend: SqlCore) -> None:
    """Delete every index row the store holds, in every space."""
    sealed = _seals(backend)
    with sealed.transaction():
        sealed.exclude_writers()  # the seals of every space
        spaces = [row[0] for row in sealed.rows("SELECT DISTINCT space FROM memory_index")]
        for space in spaces:
            gone = sealed.rows(f"SELECT {integrity.columns(TABLE)} FROM {TABLE} WHERE space = ?", [space])
            sealed.seal_apply({TABLE: change(TABLE, [], gone)}, space)
            sealed.delete_rows(TABLE, space=space)


def holds_only_an_index(backend: SqlCore) -> bool:
    """Whether the store holds nothing but index rows: no concept, context or pruned episode in any space."""
    row = backend.one(
        "SELECT (SELECT count(*) FROM concepts) + (SELECT count(*) FROM contexts)"
        " + (SELECT count(*) FROM pruned_episodes)"
    )
    return row is not None and int(row[0]) == 0
