"""A SQLite step that may wait for another connection: tried for `NOTICE_AFTER_S` first, then, if the
file is still busy, the wait is said (`storage.locks.waiting`) and the step tried again with the
whole timeout. SQLite waits inside the step (its busy timeout) and calls back nothing meanwhile."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

from zerolang.storage.locks import NOTICE_AFTER_S, waiting

T = TypeVar("T")

# What each kind of step waits for, as the notice says it.
WRITER = "another writer"
READERS = "other connections to finish (erasing rewrites the file)"


def busy(error: sqlite3.OperationalError) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def said_if_waiting(
    connection: sqlite3.Connection, step: Callable[[], T], *, location: str, seconds: float, what: str
) -> tuple[bool, T | None]:
    """Try `step` for up to `NOTICE_AFTER_S` (or `seconds`, if less): (True, its result), or, when
    the file stayed busy that long, (False, None) after the wait is said. The connection's busy
    timeout is `seconds` again after it, for the step tried again."""
    quick = min(NOTICE_AFTER_S, seconds)
    connection.execute(f"PRAGMA busy_timeout = {round(quick * 1000)}")
    try:
        return True, step()
    except sqlite3.OperationalError as error:
        if not busy(error) or quick >= seconds:
            raise
    finally:
        connection.execute(f"PRAGMA busy_timeout = {round(seconds * 1000)}")
    waiting(location, what, seconds)
    return False, None


def checkpoint(connection: sqlite3.Connection) -> None:
    """Empty the WAL into the file (`wal_checkpoint(TRUNCATE)`). SQLite waits its busy timeout for
    the readers it would overtake, then reports them in the result, not as an error: raised as
    the busy error here, so a caller waits for them as for a writer."""
    row = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if row is not None and row[0]:
        raise sqlite3.OperationalError("database is busy: a reader holds the WAL")
