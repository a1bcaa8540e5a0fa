"""The conversations and experiences in the memory's own SQLite file, on the memory's connection.

One memory keeps its conversations in its own database (`zerolang.memory.settings`). A forget,
restore or purge changes both halves: the memory's tables and the experience store's. Opened
apart, they are two connections and two transactions, and a crash between the commits leaves
one half done. Opened here, the experience and conversation stores run on the memory backend's
connection and take its transactions (a savepoint inside one it holds), so a forget that blocks
or erases the turns inside its own transaction commits both halves at once, or neither.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from zerolang.storage.errors import translating
from zerolang.storage.schema import CONVERSATIONS, EXPERIENCES, store_tables
from zerolang.storage.sql.conversations import SqlEntryStore
from zerolang.storage.sql.experiences import SqlExperienceStore
from zerolang.storage.sqlite.database import SqliteDatabase
from zerolang.storage.sqlite.fulltext import FTS5

if TYPE_CHECKING:
    from zerolang.storage.sqlite.backend import SqliteBackend


@translating
class SharedDatabase(SqliteDatabase):
    """The experience database that is the memory's own file, on the memory backend's connection:
    its transactions and its freed-storage erasure are the backend's; closing it leaves the
    connection to the backend."""

    __slots__ = ("_owner",)

    def __init__(self, owner: SqliteBackend) -> None:
        super().__init__(owner.connection, owner.location)
        self._owner = owner

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """The backend's transaction: a savepoint inside the one it holds (a forget's)."""
        with self._owner.transaction():
            yield

    def erase_freed(self) -> None:
        """The backend's (nothing inside a transaction: the forget erases after its commit)."""
        self._owner.erase_freed()

    def close(self) -> None:
        """Nothing: the connection is the backend's."""

    def make_conversations(self) -> None:
        """The conversation store's tables, made where missing (as opening that store apart makes them)."""
        if not self.holds(CONVERSATIONS):
            self._make_tables(CONVERSATIONS)

    def holds(self, store: str) -> bool:
        """Whether the file holds `store`'s tables as this release reads them (not an older
        release's, which the store's own opening upgrades, nor a newer one's)."""
        tables = store_tables(self.dialect, store)
        if not all(self.has_table(name) for name in tables.tables) or self._older():
            return False
        return tables.version is None or self.recorded_schema() == tables.version


def shared_stores(
    owner: SqliteBackend, space: str, *, create: bool = True
) -> tuple[SqlExperienceStore, SqlEntryStore | None] | None:
    """The experience store and the conversation store in `owner`'s file, on its connection, in
    `space`; None where the file holds no experience store this release reads as it is. The
    conversation tables are made where missing (as opening that store apart makes them), unless
    not `create` (a preview): then no conversation store where the file holds none."""
    db = SharedDatabase(owner)
    if not db.holds(EXPERIENCES):
        return None
    if create:
        db.make_conversations()  # made where missing: the file holds them now
    elif not db.holds(CONVERSATIONS):
        return SqlExperienceStore(db, FTS5, space=space), None
    entries = SqlEntryStore(db, FTS5, space=space)
    return SqlExperienceStore(db, FTS5, space=space), entries
