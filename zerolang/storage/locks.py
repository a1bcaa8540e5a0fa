"""How long a writer waits for another one's transaction, what it says when it starts waiting
(to whoever asked to be told: the CLI prints it on stderr) and when it gives up."""

from __future__ import annotations

from zerolang.storage.errors import StorageError, StoreBusy
from zerolang.util.waits import tell

LOCK_TIMEOUT_S = 60.0  # how long a writer waits for another one; $ZERO_MEMORY_LOCK_TIMEOUT overrides
LOCK_TIMEOUT_ENV = "ZERO_MEMORY_LOCK_TIMEOUT"


def lock_timeout() -> float:
    """Seconds a writer waits for another writer's transaction: `$ZERO_MEMORY_LOCK_TIMEOUT`, else 60."""
    import os

    text = os.environ.get(LOCK_TIMEOUT_ENV, "").strip()
    if not text:
        return LOCK_TIMEOUT_S
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 86_400:
        raise StorageError(f"${LOCK_TIMEOUT_ENV}: not a number of seconds between 0 and 86400: {text!r}")
    return seconds


def lock_timeout_error(location: str, seconds: float) -> StoreBusy:
    """What a writer says when another one held the store longer than it waits."""
    return StoreBusy(
        f"{location}: another process has held a write transaction for over {seconds:g} s;"
        f" try again when it is done (or wait longer: ${LOCK_TIMEOUT_ENV}=SECONDS)"
    )


NOTICE_AFTER_S = 0.5  # a wait this short says nothing; a longer one says what it waits for, once


def waiting(location: str, what: str, seconds: float) -> None:
    """A store at `location` waits, up to `seconds`, for `what` (another writer, ...): say so to whoever
    asked (`zerolang.util.waits.tell_waits`)."""
    tell(f"waiting for {what} on {location} (up to {seconds:g} s; ${LOCK_TIMEOUT_ENV} sets it)")
