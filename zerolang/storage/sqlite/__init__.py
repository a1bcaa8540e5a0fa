"""The embedded backend: one SQLite file (WAL, foreign keys declared, checked by `check`) or `:memory:`.

- `backend`: `SqliteBackend`, the shared SQL on a `sqlite3` connection;
- `statements`: running the shared SQL on a `sqlite3` connection;
- `database`, `fulltext`, `experience`, `convo`: the experience database (FTS5), its two stores;
- `state`: the key-value store `zero run --state FILE` keeps `LoadState`/`SaveState` data in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.storage.sqlite.backend import SqliteBackend

__all__ = ["SqliteBackend"]


def __getattr__(name: str) -> object:
    if name == "SqliteBackend":
        from zerolang.storage.sqlite.backend import SqliteBackend

        return SqliteBackend
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
