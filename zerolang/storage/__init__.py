"""Storage backends behind `zerolang.knowledge.backend.MemoryBackend`.

- `sqlite`: the embedded default, one file (or `:memory:`);
- `postgres`: a shared PostgreSQL server (psycopg 3, the `postgres` extra);
- `sql`: the SQL both speak, written once with `?` placeholders.

`open_backend` picks one by location: a `postgresql://` or `postgres://` URL
is PostgreSQL, anything else is a SQLite file path.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.knowledge.backend import MemoryBackend

URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(location: str | Path) -> bool:
    return str(location).startswith(URL_SCHEMES)


def open_backend(location: str | Path, *, space: str = "default", create: bool = True) -> MemoryBackend:
    """The backend at `location`, seen from `space`; `create=False` refuses to create a missing store."""
    from zerolang.knowledge.backend import check_space

    check_space(space)
    if is_url(location):
        from zerolang.storage.postgres import PostgresBackend

        return PostgresBackend.connect(str(location), space=space, create=create)
    from zerolang.storage.sqlite import SqliteBackend

    return SqliteBackend.open(location, space=space, create=create)


def display(location: str | Path) -> str:
    """A location as messages show it: a URL without its password."""
    text = str(location)
    if not is_url(text):
        return text
    scheme, _, rest = text.partition("://")
    credentials, at, host = rest.rpartition("@")
    if at and ":" in credentials:
        credentials = credentials.split(":", 1)[0] + ":***"
    return f"{scheme}://{credentials}{at}{host}"


ENGINE_ERRORS: list[type[Exception]] = []  # each backend adds its driver's base error when loaded


@contextmanager
def storage_errors() -> Iterator[None]:
    """An error the database engine raises (disk full, server gone, ...) as one `ZeroError` line."""
    try:
        yield
    except Exception as error:
        if not isinstance(error, tuple(ENGINE_ERRORS)):
            raise
        from zerolang.util.errors import ZeroError

        lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
        reason = lines[0] if lines else type(error).__name__
        raise ZeroError(f"the memory store failed: {reason}") from None
