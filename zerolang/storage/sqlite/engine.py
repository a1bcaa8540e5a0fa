"""The SQLite engine as the registry sees it: every kind of store, in a file or in memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerolang.util.locations import Location

if TYPE_CHECKING:
    from zerolang.knowledge.backend import MemoryBackend
    from zerolang.storage.sql.conversations import SqlEntryStore
    from zerolang.storage.sql.experiences import SqlExperienceStore
    from zerolang.storage.sqlite.backend import SqliteBackend
    from zerolang.storage.sqlite.convo import SqliteEntryStore
    from zerolang.storage.sqlite.experience import SqliteExperienceStore
    from zerolang.storage.sqlite.state import SqliteStateStore


class SqliteEngine:
    """Opens SQLite stores: `sqlite3` from the standard library, nothing to install."""

    name = "sqlite"

    def memory(self, location: Location, *, space: str, create: bool) -> SqliteBackend:
        from zerolang.storage.sqlite.backend import SqliteBackend

        return SqliteBackend.open(location.target, space=space, create=create)

    def experiences(self, location: Location, *, space: str, create: bool) -> SqliteExperienceStore:
        from zerolang.storage.sqlite.experience import SqliteExperienceStore

        return SqliteExperienceStore(location.target, create=create, space=space)

    def conversations(self, location: Location, *, space: str, create: bool) -> SqliteEntryStore:
        from zerolang.storage.sqlite.convo import SqliteEntryStore

        return SqliteEntryStore(location.target, create=create, space=space)

    def shared_conversations(
        self, backend: MemoryBackend, *, space: str, create: bool = True
    ) -> tuple[SqlExperienceStore, SqlEntryStore | None] | None:
        from zerolang.storage.sqlite.backend import SqliteBackend
        from zerolang.storage.sqlite.sharing import shared_stores

        return shared_stores(backend, space, create=create) if isinstance(backend, SqliteBackend) else None

    def state(self, location: Location) -> SqliteStateStore:
        from zerolang.storage.sqlite.state import SqliteStateStore

        return SqliteStateStore(location.target)


ENGINE = SqliteEngine()
