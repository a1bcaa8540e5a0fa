"""Time as the stores write it: UTC, milliseconds, a `Z` (so it sorts as text), and clocks.

Every layer that stamps or reads a stored time uses these, so a fact, an episode,
a log entry and a graph run write the same form.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
"""A duration's units as every surface writes them (`since 7d` in a query, `--expires 30d`), in seconds."""

Clock = Callable[[], datetime]
"""What every time-dependent operation takes, so that tests (and `--now`) pin time."""


def system_clock() -> datetime:
    return datetime.now(UTC)


def format_time(moment: datetime) -> str:
    """The store's timestamp format: UTC, milliseconds, `Z` (sorts as text)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def utc_now() -> str:
    """Now, as the store's timestamps are written."""
    return format_time(system_clock())


def parse_time(text: str) -> float:
    """An ISO 8601 time as POSIX seconds; a time without an offset is UTC."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
