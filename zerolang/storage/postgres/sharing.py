"""The conversations and experiences in the memory's own PostgreSQL database, on the memory's connection.

A server URL names one database for all of a memory's stores (`zerolang.memory.settings`). Opened
apart, the experience and conversation stores hold a connection of their own, and a forget's
two halves are two transactions. Opened here, they run on the memory backend's connection, in
the schema they are kept in (`database.SCHEMA`) when that is the memory's own, and take its
transactions (a savepoint inside one it holds): a forget's tombstone and the turns' block (or
erasure) commit together, or neither does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerolang.storage.errors import translating
from zerolang.storage.postgres.database import SCHEMA, PostgresDatabase
from zerolang.storage.postgres.fulltext import TSVECTOR
from zerolang.storage.schema import CONVERSATIONS, EXPERIENCES, GRANTS, SPACE, store_tables
from zerolang.storage.sql.conversations import SqlEntryStore
from zerolang.storage.sql.experiences import SqlExperienceStore

if TYPE_CHECKING:
    from zerolang.storage.postgres.backend import PostgresBackend


@translating
class SharedDatabase(PostgresDatabase):
    """The experience database on the memory backend's connection: closing it leaves the
    connection to the backend. Its transactions nest in the backend's (psycopg's savepoints)."""

    __slots__ = ()

    def close(self) -> None:
        """Nothing: the connection is the backend's."""

    def holds(self, store: str) -> bool:
        """Whether the memory's schema is the stores' and holds `store`'s tables as this release
        reads them, secured as the stores' own opening leaves them (else that opening runs)."""
        tables = store_tables(self.dialect, store)
        if self.one("SELECT current_schema()") != (SCHEMA,):
            return False
        if not all(self.has_table(name) for name in tables.tables):
            return False
        if not self.has_column(tables.keyed, SPACE):  # an older release's: its opening upgrades it
            return False
        if self.has_table(GRANTS) and self.unsecured(tables.keyed):  # its opening secures it
            return False
        if self.one("SELECT to_regprocedure(?)", (f"zero_{store}_privileges(text)",)) == (None,):
            return False
        return tables.version is None or self.recorded_schema() == tables.version


def shared_stores(
    owner: PostgresBackend, space: str
) -> tuple[SqlExperienceStore, SqlEntryStore | None] | None:
    """The experience store and the conversation store (None where the database holds no
    conversation tables) on `owner`'s connection, in `space`; None where the memory's schema holds
    no experience store this release reads as it is."""
    db = SharedDatabase(owner.connection)
    if not db.holds(EXPERIENCES):
        return None
    entries = SqlEntryStore(db, TSVECTOR, space=space) if db.holds(CONVERSATIONS) else None
    return SqlExperienceStore(db, TSVECTOR, space=space), entries
