"""How a surface opens the stores of one memory: the one door from a `--db`/`--space` to the storage.

The `zero` commands, the hooks, `zero mcp`, `zero explore` and the framework adapters resolve
what they were given once (`zerolang.memory.settings.resolve_stores`: a `Stores`) and open
through these functions or a `Memory` (`zerolang.memory.api`: `open_memory`, or `open_memory_of`
on a `Stores` already resolved), never through `zerolang.storage`
(an import-linter contract in pyproject.toml holds them to it). A `db` or `space` parameter so
walks surface -> memory -> storage and no further up.

- `open_facts` / `facts_or_undone`: the fact store in the space `Stores` name;
- `open_experiences_of`: the experience store, in the memory's space, which takes the memory's
  purges before it is written (`carry_purges_into`: the one place purges are carried);
  `reading_experiences` reads one with the purges hidden, writing nothing;
- `open_conversations_of`: conversation entries, in the experience store's database and space;
  `conversations_in_memory`: both on the memory's own connection, when they share its file;
- `move_conversations`: an older release's `NAME.experiences.db` moved into the memory's own file;
- `open_run_state`: `zero run --state`'s store; `copy_memory`: `zero memory migrate`;
- `storage_errors`: the storage layer's error boundary (the lock-wait notice is `zerolang.util.waits`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, cast

from zerolang.memory.settings import Stores, prepare_folder, resolve_stores

if TYPE_CHECKING:
    from zerolang.convo.store import EntryStore
    from zerolang.experience.forgotten import ForgettingStore
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.store import MemoryStore
    from zerolang.runtime.ports import StateStore
    from zerolang.storage.copy import CopyProgress as CopyProgress
    from zerolang.storage.copy import SpaceCopy as SpaceCopy

__all__ = [
    "carry_purges_into",
    "conversations_in_memory",
    "copy_memory",
    "facts_or_undone",
    "move_conversations",
    "open_conversations_of",
    "open_experiences_of",
    "open_facts",
    "open_run_state",
    "reading_experiences",
    "storage_errors",
]


def open_facts(
    db: str | Path | None = None, *, space: str | None = None, create: bool, stores: Stores | None = None
) -> MemoryStore:
    """The fact store `db` names (else `$ZERO_MEMORY_DB`, else the per-user one) in `space`; or the one
    `stores` names. Created (its folder prepared) when `create`."""
    from zerolang.storage import open_store

    chosen = resolve_stores(db, space=space) if stores is None else stores
    if create:
        prepare_folder(chosen.memory, given=chosen.memory_named)
    return open_store(chosen.memory, space=chosen.space, create=create)


@contextmanager
def facts_or_undone(db: str | Path | None = None, *, space: str | None = None) -> Iterator[MemoryStore]:
    """The fact store at `db`, created if there is none; a SQLite file created here is removed again
    when the block fails, so a refused write leaves no new empty store behind (a server's database
    is never created: the block's transaction leaves its space as it was)."""
    location = resolve_stores(db, space=space).memory
    fresh = location.is_file and not location.path.exists()
    try:
        with open_facts(db, space=space, create=True) as store:
            yield store
    except BaseException:
        if fresh:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{location.path}{suffix}").unlink(missing_ok=True)
        raise


def open_experiences_of(
    stores: Stores, *, create: bool = True, memory: MemoryStore | None = None
) -> ExperienceStore:
    """The experience store of the memory `stores` name, in its space. Opened to write (`create`:
    its database and tables are made where missing), it first takes the memory's purges
    (`carry_purges_into`; from `memory` when it is open in that space, else read from `stores`)."""
    from zerolang.storage import open_experiences

    location = stores.experiences
    if create:
        prepare_folder(location, given=stores.experiences_named or stores.memory_named)
    store = open_experiences(location, space=stores.space, create=create)
    if create:
        try:
            carry_purges_into(store, stores, memory=memory)
        except BaseException:
            store.close()
            raise
    return store


def reading_experiences(
    stores: Stores, store: ExperienceStore, *, memory: MemoryStore | None = None
) -> ExperienceStore:
    """`store` as a reader sees it: the purges of the memory `stores` name hidden as well, writing
    nothing (`zerolang.memory.erasure.PurgesHidden`), so a recall shows nothing a purge erased even
    from a database the purge never reached. With `memory` (held open by a long-lived reader, `zero
    explore`), its purges are read again at each use; else once, now."""
    from zerolang.memory.erasure import PurgesHidden, purged_blocks, purges_of

    if memory is not None:
        return cast("ExperienceStore", PurgesHidden(store, lambda: purged_blocks(memory)))
    blocks = purges_of(stores)
    return store if not blocks else cast("ExperienceStore", PurgesHidden(store, lambda: blocks))


def open_conversations_of(
    stores: Stores, *, create: bool = True, memory: MemoryStore | None = None, carried: bool = False
) -> EntryStore:
    """The conversation store (`zero convo`, the agent adapters) of the memory `stores` name, kept in
    its experience database, in its space. Opened to write, the memory's purges reach that database
    first (its blocked terms live with the experiences: `open_experiences_of`), unless the caller
    `carried` them there already (it holds that experience store open)."""
    from zerolang.storage import open_conversations

    if create and not carried:
        open_experiences_of(stores, create=True, memory=memory).close()
    elif create:
        prepare_folder(stores.experiences, given=stores.experiences_named or stores.memory_named)
    return open_conversations(stores.experiences, space=stores.space, create=create)


def conversations_in_memory(
    memory: MemoryStore, stores: Stores, *, create: bool = True
) -> tuple[ExperienceStore, EntryStore | None] | None:
    """The experience and conversation stores of `stores` on `memory`'s own connection, when they are
    in its SQLite file and hold this release's tables (`zerolang.storage.conversations_on`): what
    they write then commits in the memory's transactions, so a forget's two halves are one. None
    otherwise (open them apart: `open_experiences_of`). Only the conversation tables beside them
    are made where missing, unless not `create` (a preview)."""
    from zerolang.storage import conversations_on

    if memory.space != stores.space:
        return None
    return conversations_on(memory, stores.experiences, create=create)


def carry_purges_into(store: ForgettingStore, stores: Stores, *, memory: MemoryStore | None = None) -> int:
    """Block in `store` every term the memory's purges blocked that it does not block yet: from
    `memory` when it is open in the space of `stores`, else from the memory `stores` name (when it
    exists: nothing else is created). How many terms were added. A memory that holds no purge in
    that space (`holds_purges`: one read) is not opened, nor the code that reads purges loaded."""
    if memory is not None and memory.space == stores.space:
        from zerolang.memory.erasure import carry_blocks, purged_blocks

        return carry_blocks(purged_blocks(memory), store)
    from zerolang.storage import holds_purges

    if not holds_purges(stores.memory, stores.space):
        return 0
    from zerolang.memory.erasure import carry_blocks, purges_of

    return carry_blocks(purges_of(stores), store)


def move_conversations(stores: Stores) -> int:
    """Move the conversations and experiences an older release kept beside the memory `stores` name
    (`NAME.experiences.db`, the per-user `experiences.db`: `zerolang.memory.settings.beside`) into
    the memory's own database, every space's, and remove that file: one location for one memory.
    How many turns and conversation entries moved (0: nothing to move). A memory on a server
    already holds its conversations; an override (`$ZERO_EXPERIENCE_DB`) is left where it is."""
    from zerolang.memory.settings import beside
    from zerolang.storage import absorb_experiences

    memory = stores.memory
    if not memory.is_file or stores.experiences_named:
        return 0
    prepare_folder(memory, given=stores.memory_named)
    return absorb_experiences(beside(memory), memory)


def open_run_state(where: str | Path) -> StateStore:
    """The state store `zero run --state` keeps a graph's runs in."""
    from zerolang.storage import open_state

    return open_state(where)


def copy_memory(
    origin: MemoryStore,
    destination: MemoryStore,
    *,
    space: str | None,
    seen: Callable[[CopyProgress], None] | None,
) -> list[SpaceCopy]:
    """Copy one `space` of a fact store into another, or every space (None), telling `seen` how far it
    got (`zero memory migrate`)."""
    from zerolang.storage.copy import copy_store

    return copy_store(origin, destination, None if space is None else [space], seen)


def storage_errors() -> AbstractContextManager[None]:
    """A block whose database engine's own errors (disk full, server gone) become `StorageError`s."""
    from zerolang.storage import storage_errors as translating

    return translating()
