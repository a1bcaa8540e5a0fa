"""Opening a memory's conversations and experiences: the one way every surface does it.

The conversations and experiences of a memory live where `Stores.experiences` says (the memory's
own database unless an override or an older release's file says otherwise), in the memory's
space. Opened to write, a store first takes the memory's purges (`carry_purges_into`): terms a
purge blocked in the memory are blocked there too, so nothing written after a purge mentions
them, even in a database the purge never reached. This is the one place purges are carried;
`Memory` opens its stores through it, and so does every surface that opens them (through
`Memory`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerolang.memory.settings import Stores, prepare_folder

if TYPE_CHECKING:
    from zerolang.convo.store import EntryStore
    from zerolang.experience.forgotten import ForgettingStore
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.store import MemoryStore


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


def open_conversations_of(
    stores: Stores, *, create: bool = True, memory: MemoryStore | None = None
) -> EntryStore:
    """The conversation store (`zero convo`, the agent adapters) of the memory `stores` name, in its
    space. Opened to write, the memory's purges reach its database first (its blocked terms live
    with the experiences: `open_experiences_of`)."""
    from zerolang.storage import open_conversations

    if create:
        open_experiences_of(stores, create=True, memory=memory).close()
    return open_conversations(stores.experiences, space=stores.space, create=create)


def carry_purges_into(store: ForgettingStore, stores: Stores, *, memory: MemoryStore | None = None) -> int:
    """Block in `store` every term the memory's purges blocked that it does not block yet: from
    `memory` when it is open in the space of `stores`, else from the memory `stores` name (when it
    exists: nothing else is created). How many terms were added."""
    from zerolang.memory.erasure import carry_blocks, purged_blocks, purges_of

    if memory is not None and memory.space == stores.space:
        return carry_blocks(purged_blocks(memory), store)
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
