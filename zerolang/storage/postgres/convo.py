"""The conversation store in PostgreSQL: the shared SQL (`zerolang.storage.sql.conversations`) on
tsvectors."""

from __future__ import annotations

from zerolang.storage.postgres.database import SCHEMA, PostgresDatabase
from zerolang.storage.postgres.fulltext import TSVECTOR
from zerolang.storage.schema import CONVERSATIONS
from zerolang.storage.sql.conversations import SqlEntryStore
from zerolang.util.spaces import DEFAULT_SPACE


class PostgresEntryStore(SqlEntryStore):
    """Conversation entries in a schema of a PostgreSQL database, usually the experience database's."""

    __slots__ = ("_conn",)

    def __init__(self, dsn: str, *, schema: str = SCHEMA, space: str = DEFAULT_SPACE) -> None:
        db = PostgresDatabase.connect(dsn, schema, CONVERSATIONS)
        super().__init__(db, TSVECTOR, space=space)
        self._conn = db.connection  # the psycopg connection (tests drop their scratch schema through it)
