"""The one place a store is opened: a location (path or URL) to the engine that serves its scheme.

The CLI, the Python API and the MCP server open every store through these
functions, and nothing else looks at a location's scheme. An engine is a
dialect package with an `engine` module (`sqlite`, `postgres`); adding one is
that package plus a line in `_ENGINES` (CONTRIBUTING.md says what else).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from zerolang.storage.errors import UnknownEngine
from zerolang.util.locations import IN_MEMORY, Location, parse_location
from zerolang.util.spaces import DEFAULT_SPACE, check_space

if TYPE_CHECKING:
    from zerolang.archive.index import IndexStore
    from zerolang.convo.store import EntryStore
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.backend import MemoryBackend
    from zerolang.knowledge.store import MemoryStore
    from zerolang.runtime.ports import StateStore
    from zerolang.storage.tokens import TokenStore

Where = str | Path | Location


class Engine(Protocol):
    """What a storage engine opens; each method gets a location whose scheme the engine serves."""

    name: str

    def memory(self, location: Location, *, space: str, create: bool) -> MemoryBackend: ...
    def experiences(self, location: Location, *, space: str, create: bool) -> ExperienceStore: ...
    def conversations(self, location: Location, *, space: str, create: bool) -> EntryStore: ...
    def shared_conversations(
        self, backend: MemoryBackend, *, space: str, create: bool = True
    ) -> tuple[ExperienceStore, EntryStore | None] | None: ...
    def state(self, location: Location) -> StateStore: ...


def _sqlite() -> Engine:
    from zerolang.storage.sqlite.engine import ENGINE

    return ENGINE


def _postgres() -> Engine:
    from zerolang.storage.postgres.engine import ENGINE

    return ENGINE


_ENGINES: dict[str, Callable[[], Engine]] = {
    "sqlite": _sqlite,
    "postgresql": _postgres,
    "postgres": _postgres,
}
"""Every scheme a location may name, and the engine that serves it (imported when first used)."""


def engine_for(where: Where) -> tuple[Engine, Location]:
    """The engine serving `where`, and `where` parsed; an unknown scheme is an `UnknownEngine`."""
    location = parse_location(where)
    loader = _ENGINES.get(location.scheme)
    if loader is None:
        known = ", ".join(f"{scheme}://" for scheme in _ENGINES if scheme != "sqlite")
        raise UnknownEngine(
            f"{location.display}: no storage engine serves {location.scheme}:// "
            f"(a SQLite path, :memory:, or {known})"
        )
    return loader(), location


def open_backend(where: Where, *, space: str = DEFAULT_SPACE, create: bool = True) -> MemoryBackend:
    """The memory backend at `where`, seen from `space`; `create=False` refuses to create a store."""
    check_space(space)
    engine, location = engine_for(where)
    return engine.memory(location, space=space, create=create)


def open_store(
    where: Where = IN_MEMORY,
    *,
    space: str = DEFAULT_SPACE,
    create: bool = True,
    single_valued: Iterable[str] | None = None,
) -> MemoryStore:
    """A `MemoryStore` on the backend at `where` (default: a fresh in-memory SQLite store)."""
    from zerolang.knowledge.store import MemoryStore

    return MemoryStore(open_backend(where, space=space, create=create), single_valued=single_valued)


MEMORY_INDEX = "memory:"
"""The summary index location that is a throwaway dict (tests, dry runs), not a store."""


def open_index(where: Where, *, space: str = DEFAULT_SPACE, create: bool = True) -> IndexStore:
    """The archive's summary index in the memory store at `where`, seen from `space`; closing the
    index closes the store it opened. `memory:` is a throwaway in-memory index."""
    if str(where) == MEMORY_INDEX:
        from zerolang.archive.index import MemoryIndex

        return MemoryIndex()
    from zerolang.storage.sql.core import SqlCore
    from zerolang.storage.sql.index import SqlIndex

    backend = open_backend(where, space=space, create=create)
    assert isinstance(backend, SqlCore)  # every engine speaks the shared SQL
    return SqlIndex(backend, owner=True)


def index_of(store: MemoryStore) -> IndexStore:
    """The archive's summary index in an open memory store, in its space, on its connection (closing
    the index leaves the store open)."""
    from zerolang.storage.sql.core import SqlCore
    from zerolang.storage.sql.index import SqlIndex

    assert isinstance(store.backend, SqlCore)  # every engine speaks the shared SQL
    return SqlIndex(store.backend)


def tokens_of(store: MemoryStore) -> TokenStore:
    """The access tokens (`zero mcp token`) of an open memory store, every space's, on its connection
    (closing the store closes them)."""
    from zerolang.storage.sql.core import SqlCore
    from zerolang.storage.sql.tokens import SqlTokens

    assert isinstance(store.backend, SqlCore)  # every engine speaks the shared SQL
    return SqlTokens(store.backend)


def open_experiences(where: Where, *, space: str = DEFAULT_SPACE, create: bool = True) -> ExperienceStore:
    """The experience store (`zero capture`, `zero recall`) at `where`, seen from `space`: it reads,
    counts, writes and forgets that space's turns alone."""
    check_space(space)
    engine, location = engine_for(where)
    return engine.experiences(location, space=space, create=create)


def open_conversations(where: Where, *, space: str = DEFAULT_SPACE, create: bool = True) -> EntryStore:
    """The conversation store (`zero convo`) at `where`, seen from `space` (its entries alone)."""
    check_space(space)
    engine, location = engine_for(where)
    return engine.conversations(location, space=space, create=create)


def conversations_on(
    store: MemoryStore, where: Where, *, create: bool = True
) -> tuple[ExperienceStore, EntryStore | None] | None:
    """The experience and conversation stores at `where`, in `store`'s space, on `store`'s own
    connection, when `where` is `store`'s own database (its SQLite file, its server URL) and holds
    them as this release reads them (`zerolang.storage.sqlite.sharing`,
    `zerolang.storage.postgres.sharing`): their writes then commit in `store`'s transactions, so a
    forget's two halves commit together. None otherwise (another database, one that holds no
    experience store yet, or one an older release made): open them apart (`open_experiences`).
    The conversation store is None where the database holds none (its tables are made where missing,
    unless not `create`: a preview). Closing them leaves `store` open."""
    backend = store.backend
    mine, theirs = parse_location(getattr(backend, "location", "")), parse_location(where)
    if not _same_database(mine, theirs):
        return None
    engine, _ = engine_for(theirs)
    return engine.shared_conversations(backend, space=store.space, create=create)


def _same_database(mine: Location, theirs: Location) -> bool:
    """Whether two locations name one database: the same SQLite file, or the same server URL (as
    shown: a memory backend keeps its URL without the password)."""
    import os

    if mine.is_url or theirs.is_url:
        return mine.is_url and theirs.is_url and mine.display == theirs.display
    if not (mine.is_file and theirs.is_file):
        return False
    try:
        return os.path.samefile(mine.path, theirs.path)
    except OSError:  # one of them is not there
        return False


def holds_conversations(where: Where) -> bool:
    """Whether the SQLite file at `where` holds captured turns or conversation entries, of any space
    (read only; a file that is missing, unreadable or not a database holds none). Where releases
    before one location kept a memory's conversations apart (`zerolang.memory.settings.beside`)."""
    location = parse_location(where)
    if not location.is_file or not location.path.is_file():
        return False
    from zerolang.storage.sqlite.database import holds_rows

    return holds_rows(location.path, ("exp_turn", "convo_entry"))


def holds_purges(where: Where, space: str) -> bool:
    """Whether the memory at `where` may hold purges of `space` (rows of `forgotten_keys`), read only,
    without opening it as a store: False only where it provably holds none (nothing stored there yet,
    a SQLite file without such a row); a server's memory, or a file that cannot be read so, may."""
    location = parse_location(where)
    if location.holds_nothing_yet:
        return False
    if not location.is_file:
        return True
    from zerolang.storage.sqlite.database import holds_space_rows

    return holds_space_rows(location.path, "forgotten_keys", space)


def absorb_experiences(older: Where, into: Where) -> int:
    """Move the conversations and experiences of an older release's separate SQLite file `older`
    (every space) into the memory's SQLite database `into`, full text and all, and remove `older`;
    how many turns and conversation entries moved. Nothing to move (no such file): 0."""
    source, target = parse_location(older), parse_location(into)
    if not source.is_file or not source.path.is_file():
        return 0
    if not target.is_file:
        raise UnknownEngine(f"{target.display}: conversations move into a SQLite memory file only")
    from zerolang.storage.sqlite.absorb import absorb_experiences as absorb

    return absorb(source.path, target.path)


def open_state(where: Where) -> StateStore:
    """The run state store (`zero run --state FILE`) at `where`."""
    engine, location = engine_for(where)
    return engine.state(location)
