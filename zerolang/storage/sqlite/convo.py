"""The conversation store in a SQLite file: the shared SQL (`zerolang.storage.sql.conversations`) on FTS5."""

from __future__ import annotations

from pathlib import Path

from zerolang.storage.schema import CONVERSATIONS
from zerolang.storage.sql.conversations import SqlEntryStore
from zerolang.storage.sqlite.database import IN_MEMORY, SqliteDatabase
from zerolang.storage.sqlite.fulltext import FTS5
from zerolang.util.spaces import DEFAULT_SPACE


class SqliteEntryStore(SqlEntryStore):
    """Conversation entries in a SQLite file (WAL) or `:memory:`, usually the experience database's."""

    __slots__ = ()

    def __init__(
        self, path: str | Path = IN_MEMORY, *, create: bool = True, space: str = DEFAULT_SPACE
    ) -> None:
        super().__init__(SqliteDatabase.open(path, create=create, store=CONVERSATIONS), FTS5, space=space)
