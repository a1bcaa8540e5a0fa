"""The summary index over the archive (`memory_index` of seed 004): a card catalogue, not the books.

One `IndexRecord` per archived document: its summary, its hash, and coordinates:

- **t_x**, time: the day offset of the memory from *today* (0 today, -1 yesterday, +1 tomorrow).
  The record stores the calendar `day`; `t_x(today)` computes the offset when asked, so it never
  goes stale;
- **y_privacy**, public (-15) to private (+15); **z_abstraction**, abstract (-15) to physical (+15):
  integers, checked to lie in -15..15;
- `cluster_id`, `decay_score` (0..1), `reinforcement_count`, `last_accessed_at`;
- `consent_scope` (copied from the document, so the policy can decide on a summary without
  opening the archive), `consent_flags` (e.g. `revoked`), `source_session`, `source_channel`,
  `created_at`.

`IndexStore` is the small protocol an index implements: `MemoryIndex` (here, a dict) and the
memory backends' `memory_index` table (`zerolang.storage.sql.index.SqlIndex`, a
backend's `.index`, on SQLite and PostgreSQL alike, keyed by space) pass one contract suite.
No SQL lives in this package. Searching returns records, that is summaries and hashes: never a
document's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, Protocol

from zerolang.archive.document import parse_hash, parse_time
from zerolang.util.errors import ZeroError

AXIS_MIN, AXIS_MAX = -15, 15
REVOKED = "revoked"
_FLAG = re.compile(r"[a-z0-9][a-z0-9._-]*")


class IndexError_(ZeroError):
    """An index record or query that breaks the index's rules."""


def today_utc() -> date:
    return datetime.now(UTC).date()


def axis(value: object, name: str) -> int:
    """`value` if it is an integer in -15..15, else IndexError_ naming the axis."""
    if not isinstance(value, int) or isinstance(value, bool) or not AXIS_MIN <= value <= AXIS_MAX:
        raise IndexError_(f"{name} must be an integer from {AXIS_MIN} to {AXIS_MAX}, not {value!r}")
    return value


def flags(values: Iterable[str]) -> tuple[str, ...]:
    """Consent flags as stored: lower-case words, sorted, without repeats."""
    result = set()
    for value in values:
        if not isinstance(value, str) or not _FLAG.fullmatch(value):
            raise IndexError_(f"a consent flag is a lower-case word like 'revoked', not {value!r}")
        result.add(value)
    return tuple(sorted(result))


@dataclass(frozen=True, slots=True)
class IndexRecord:
    hash: str
    summary: str
    day: date
    source_channel: str
    created_at: str
    consent_scope: str
    y_privacy: int = 0
    z_abstraction: int = 0
    cluster_id: str | None = None
    decay_score: float = 1.0
    reinforcement_count: int = 0
    last_accessed_at: str | None = None
    consent_flags: tuple[str, ...] = ()
    source_session: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "hash", parse_hash(self.hash))
        if not isinstance(self.summary, str) or not self.summary.strip():
            raise IndexError_(f"index record {self.hash}: the summary must be non-empty text")
        if not isinstance(self.day, date) or isinstance(self.day, datetime):
            raise IndexError_(f"index record {self.hash}: day must be a date, not {self.day!r}")
        axis(self.y_privacy, "y_privacy")
        axis(self.z_abstraction, "z_abstraction")
        score = self.decay_score
        if not isinstance(score, int | float) or isinstance(score, bool) or not (0.0 <= score <= 1.0):
            raise IndexError_(f"decay_score must be a number from 0 to 1, not {score!r}")
        object.__setattr__(self, "decay_score", float(score))
        count = self.reinforcement_count
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise IndexError_(f"reinforcement_count must be a whole number >= 0, not {count!r}")
        if not isinstance(self.source_channel, str) or not self.source_channel:
            raise IndexError_(f"index record {self.hash}: source_channel must be a non-empty string")
        if not isinstance(self.consent_scope, str) or not self.consent_scope:
            raise IndexError_(f"index record {self.hash}: consent_scope must be a non-empty string")
        parse_time(self.created_at, "created_at")
        if self.last_accessed_at is not None:
            parse_time(self.last_accessed_at, "last_accessed_at")
        object.__setattr__(self, "consent_flags", flags(self.consent_flags))

    def t_x(self, today: date | None = None) -> int:
        """Days from `today` (default: today in UTC) to the memory's day: 0 today, -1 yesterday."""
        return (self.day - (today or today_utc())).days

    @property
    def revoked(self) -> bool:
        return REVOKED in self.consent_flags

    def to_json(self, today: date | None = None) -> dict[str, Any]:
        """The record as the seed's `memory_index` row, with t_x computed for `today`."""
        return {
            "hash": self.hash,
            "summary": self.summary,
            "t_x": self.t_x(today),
            "day": self.day.isoformat(),
            "y_privacy": self.y_privacy,
            "z_abstraction": self.z_abstraction,
            "cluster_id": self.cluster_id,
            "decay_score": self.decay_score,
            "reinforcement_count": self.reinforcement_count,
            "last_accessed_at": self.last_accessed_at,
            "consent_scope": self.consent_scope,
            "consent_flags": list(self.consent_flags),
            "source_session": self.source_session,
            "source_channel": self.source_channel,
            "created_at": self.created_at,
        }


@dataclass(frozen=True, slots=True)
class IndexQuery:
    """What to look for. Every given condition must hold; `text` words must all occur in the summary."""

    text: str = ""
    channels: tuple[str, ...] | None = None
    session: str | None = None
    privacy_max: int | None = None
    privacy_min: int | None = None
    abstraction_min: int | None = None
    abstraction_max: int | None = None
    t_min: int | None = None  # day offsets, relative to `today`
    t_max: int | None = None
    cluster_id: str | None = None
    include_revoked: bool = False
    limit: int = 20
    today: date | None = None
    words: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        for name in ("privacy_max", "privacy_min", "abstraction_min", "abstraction_max"):
            value = getattr(self, name)
            if value is not None:
                axis(value, name)
        if not isinstance(self.limit, int) or self.limit < 1:
            raise IndexError_(f"limit must be a whole number >= 1, not {self.limit!r}")
        object.__setattr__(self, "words", tuple(self.text.casefold().split()))


def matches(record: IndexRecord, query: IndexQuery, today: date) -> bool:
    """Whether one record satisfies a query (the rule every IndexStore follows)."""
    summary = record.summary.casefold()
    t_x = record.t_x(today)
    checks = (
        all(word in summary for word in query.words),
        query.channels is None or record.source_channel in query.channels,
        query.session is None or record.source_session == query.session,
        query.privacy_max is None or record.y_privacy <= query.privacy_max,
        query.privacy_min is None or record.y_privacy >= query.privacy_min,
        query.abstraction_min is None or record.z_abstraction >= query.abstraction_min,
        query.abstraction_max is None or record.z_abstraction <= query.abstraction_max,
        query.t_min is None or t_x >= query.t_min,
        query.t_max is None or t_x <= query.t_max,
        query.cluster_id is None or record.cluster_id == query.cluster_id,
        query.include_revoked or not record.revoked,
    )
    return all(checks)


def order_key(record: IndexRecord) -> tuple[int, str, str]:
    """Newest day first, then newest created_at, then hash: one order for every store."""
    return (-record.day.toordinal(), _descending(record.created_at), record.hash)


def _descending(text: str) -> str:
    return "".join(chr(0x10FFFF - ord(character)) for character in text)


class IndexStore(Protocol):
    """The index as the archive, the gate and compaction need it."""

    def put(self, record: IndexRecord) -> None:
        """Insert or replace the record of `record.hash`."""

    def get(self, hash_text: str) -> IndexRecord | None: ...

    def delete(self, hash_text: str) -> bool: ...

    def search(self, query: IndexQuery) -> list[IndexRecord]: ...

    def touch(self, hash_text: str, at: str) -> IndexRecord | None:
        """Record an access: `last_accessed_at = at`, `reinforcement_count += 1`."""

    def set_flags(self, hash_text: str, consent_flags: Iterable[str]) -> IndexRecord | None: ...

    def count(self) -> int: ...

    def close(self) -> None: ...


class MemoryIndex:
    """An IndexStore in a dict: for tests, tools and short-lived sessions."""

    def __init__(self) -> None:
        self._records: dict[str, IndexRecord] = {}

    def put(self, record: IndexRecord) -> None:
        self._records[record.hash] = record

    def get(self, hash_text: str) -> IndexRecord | None:
        return self._records.get(parse_hash(hash_text))

    def delete(self, hash_text: str) -> bool:
        return self._records.pop(parse_hash(hash_text), None) is not None

    def search(self, query: IndexQuery) -> list[IndexRecord]:
        today = query.today or today_utc()
        found = sorted((r for r in self._records.values() if matches(r, query, today)), key=order_key)
        return found[: query.limit]

    def touch(self, hash_text: str, at: str) -> IndexRecord | None:
        record = self.get(hash_text)
        if record is None:
            return None
        updated = replace(record, last_accessed_at=at, reinforcement_count=record.reinforcement_count + 1)
        self._records[record.hash] = updated
        return updated

    def set_flags(self, hash_text: str, consent_flags: Iterable[str]) -> IndexRecord | None:
        record = self.get(hash_text)
        if record is None:
            return None
        updated = replace(record, consent_flags=flags(consent_flags))
        self._records[record.hash] = updated
        return updated

    def count(self) -> int:
        return len(self._records)

    def close(self) -> None:
        pass
