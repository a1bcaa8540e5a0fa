"""The experience database on one connection, and a store on it: what the two stores' shared SQL runs on.

The experience store (`experiences`) and the conversation store (`conversations`) keep
their tables in one database, a SQLite file or a PostgreSQL schema; each engine opens it
its own way (`zerolang.storage.sqlite.database`, `zerolang.storage.postgres.database`) and
the stores run the same SQL on it, written with `?` placeholders (`core.SqlStatements`),
with the engine's full text beside it.
"""

from __future__ import annotations

from abc import abstractmethod
from contextlib import AbstractContextManager, nullcontext
from typing import Generic, Self, TypeVar

from zerolang.storage.errors import translating
from zerolang.storage.sql.statements import SqlStatements
from zerolang.util.spaces import DEFAULT_SPACE, check_space

Text = TypeVar("Text")


class SqlDatabase(SqlStatements):
    """An open experience database: statements, transactions, and what an engine does apart."""

    __slots__ = ()

    dialect: str  # the engine's name in the rendered schema (`zerolang.storage.schema`)

    @abstractmethod
    def has_table(self, name: str) -> bool:
        """Whether the database holds table `name` (where the stores look)."""

    def recorded_schema(self) -> int | None:
        """The experience schema recorded in `exp_meta` (None where it records none; the table must
        be there)."""
        row = self.one("SELECT value FROM exp_meta WHERE key = 'schema'")
        return None if row is None else int(row[0])

    @abstractmethod
    def erase_freed(self) -> None:
        """After an erasure's transaction: leave no freed storage holding the erased text, where the
        engine can (SQLite rewrites its file and empties the WAL; a server keeps its own)."""

    def index_deferred(self, store: str, index: str) -> AbstractContextManager[None]:
        """Inside a transaction, around a write that adds more rows than the table holds: `index`
        made once at the end (one sort) where the engine gains by it, not updated row by row."""
        return nullcontext()

    def roomy_cache(self, kib: int) -> AbstractContextManager[None]:
        """Around a large write: the engine's page cache for this connection at least `kib` KiB, where
        the engine keeps one (a B-tree keyed by hashes that outgrows it is read back page by page)."""
        return nullcontext()

    @abstractmethod
    def close(self) -> None: ...


@translating
class DatabaseStore(Generic[Text]):
    """A store on an experience database seen from one space, `text` its engine's full text; closing
    it closes the database. Every row it reads, counts, writes or erases is of `space`: spaces share
    the tables, never their rows (each table's key begins with the space)."""

    __slots__ = ("db", "space", "text")

    def __init__(self, db: SqlDatabase, text: Text, *, space: str = DEFAULT_SPACE) -> None:
        self.db = db
        self.text = text
        self.space = check_space(space)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()
