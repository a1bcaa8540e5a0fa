"""The experience store in PostgreSQL: the shared SQL (`zerolang.storage.sql.experiences`) on tsvectors.

The same `ExperienceStore` as SQLite's, for a shared server. Pass a libpq connection
string (`host=... dbname=...` or `postgresql://...`) and, optionally, the schema to keep
the tables in (created if missing, as are the tables).
"""

from __future__ import annotations

from zerolang.storage.postgres.database import SCHEMA, PostgresDatabase
from zerolang.storage.postgres.fulltext import TSVECTOR
from zerolang.storage.schema import EXPERIENCES
from zerolang.storage.sql.experiences import SqlExperienceStore
from zerolang.util.spaces import DEFAULT_SPACE


class PostgresExperienceStore(SqlExperienceStore):
    """An experience store in a schema of a PostgreSQL database."""

    __slots__ = ("_conn",)

    def __init__(self, dsn: str, *, schema: str = SCHEMA, space: str = DEFAULT_SPACE) -> None:
        db = PostgresDatabase.connect(dsn, schema, EXPERIENCES)
        super().__init__(db, TSVECTOR, space=space)
        self._conn = db.connection  # the psycopg connection (tests drop their scratch schema through it)
