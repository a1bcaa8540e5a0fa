"""The storage layer's errors: one `StorageError` family, whatever engine is underneath.

A driver's own exceptions (`sqlite3.Error`, `psycopg.Error`) never leave the
layer as themselves: each engine registers its driver's base error here when it
loads (`ENGINE_ERRORS`), and `storage_errors()` turns one that escapes into an
`EngineError` with the driver's first line, so a caller catches one type.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from zerolang.util.errors import ZeroError


class StorageError(ZeroError):
    """A store could not do what was asked: not there, not a store, too new, busy, or failed."""


class UnknownEngine(StorageError):
    """No engine serves a location's scheme."""


class EngineError(StorageError):
    """The database engine failed (disk full, server gone, a constraint): its first line, as one error."""


ENGINE_ERRORS: list[type[Exception]] = []
"""Each engine's driver base error, added when the engine's module loads."""


def engine_error(error: BaseException) -> EngineError | None:
    """`error` as an `EngineError` if a driver raised it, else None."""
    if not ENGINE_ERRORS or not isinstance(error, tuple(ENGINE_ERRORS)):
        return None
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    reason = lines[0] if lines else type(error).__name__
    return EngineError(f"the memory store failed: {reason}")


@contextmanager
def storage_errors() -> Iterator[None]:
    """An error the database engine raises (disk full, server gone, ...) as one `EngineError` line."""
    try:
        yield
    except Exception as error:
        translated = engine_error(error)
        if translated is None:
            raise
        raise translated from None
