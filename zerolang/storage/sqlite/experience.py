"""The experience store in a SQLite file: the shared SQL (`zerolang.storage.sql.experiences`) on FTS5."""

from __future__ import annotations

from pathlib import Path

from zerolang.storage.schema import EXPERIENCES
from zerolang.storage.sql.experiences import SqlExperienceStore
from zerolang.storage.sqlite.database import IN_MEMORY, SqliteDatabase
from zerolang.storage.sqlite.fulltext import FTS5
from zerolang.util.spaces import DEFAULT_SPACE


class SqliteExperienceStore(SqlExperienceStore):
    """An experience store in a SQLite file (WAL) or `:memory:` (one a newer zerolang made is refused)."""

    __slots__ = ()

    def __init__(
        self, path: str | Path = IN_MEMORY, *, create: bool = True, space: str = DEFAULT_SPACE
    ) -> None:
        super().__init__(SqliteDatabase.open(path, create=create, store=EXPERIENCES), FTS5, space=space)
