"""The PostgreSQL engine as the registry sees it: a shared server (psycopg 3, the `postgres` extra)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerolang.storage.errors import StorageError
from zerolang.util.locations import Location

if TYPE_CHECKING:
    from zerolang.knowledge.backend import MemoryBackend
    from zerolang.runtime.ports import StateStore
    from zerolang.storage.postgres.backend import PostgresBackend
    from zerolang.storage.postgres.convo import PostgresEntryStore
    from zerolang.storage.postgres.experience import PostgresExperienceStore
    from zerolang.storage.sql.conversations import SqlEntryStore
    from zerolang.storage.sql.experiences import SqlExperienceStore


class PostgresEngine:
    """Opens stores on a PostgreSQL server, one schema of one database per URL."""

    name = "postgresql"

    def memory(self, location: Location, *, space: str, create: bool) -> PostgresBackend:
        from zerolang.storage.postgres.backend import PostgresBackend

        return PostgresBackend.connect(location.target, space=space, create=create)

    def experiences(self, location: Location, *, space: str, create: bool) -> PostgresExperienceStore:
        from zerolang.storage.postgres.experience import PostgresExperienceStore

        return PostgresExperienceStore(location.target, space=space)

    def conversations(self, location: Location, *, space: str, create: bool) -> PostgresEntryStore:
        from zerolang.storage.postgres.convo import PostgresEntryStore

        return PostgresEntryStore(location.target, space=space)

    def shared_conversations(
        self, backend: MemoryBackend, *, space: str, create: bool = True
    ) -> tuple[SqlExperienceStore, SqlEntryStore | None] | None:
        from zerolang.storage.postgres.backend import PostgresBackend
        from zerolang.storage.postgres.sharing import shared_stores

        # nothing made either way: the conversation tables are the memory's own on PostgreSQL
        return shared_stores(backend, space) if isinstance(backend, PostgresBackend) else None

    def state(self, location: Location) -> StateStore:
        raise StorageError(f"{location.display}: `zero run --state` keeps run state in a SQLite file")


ENGINE = PostgresEngine()
