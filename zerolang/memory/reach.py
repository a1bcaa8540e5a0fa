"""Every place a purge reaches beside the memory (`zerolang.memory.erasure.Reach`), opened for one purge.

`Memory.forget(purge=True)` and `Memory.purge` take it from here, and so, through them, do
`zero memory forget --purge`, `zero memory purge`, the MCP `forget` tool and `zero explore --write`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zerolang.experience.forgotten import ErasingStore, ForgettingStore
    from zerolang.knowledge.store import MemoryStore
    from zerolang.memory.erasure import Reach
    from zerolang.memory.settings import Stores


@contextmanager
def reach(
    stores: Stores,
    store: MemoryStore,
    experiences: ForgettingStore | None,
    entries: ErasingStore | None,
) -> Iterator[Reach]:
    """The places a purge in `store` reaches: the experience and conversation stores given, the
    archive in `stores.archive` when that folder is one, and every summary index that may hold its
    summaries: the memory store's own, an index named apart from it, `memory.index.sql.dsn`, and the
    `index.db` an older Python API kept in the archive folder. The indexes opened here are closed after."""
    from zerolang.archive.settings import memory_settings_for
    from zerolang.archive.store import MARKER, Archive
    from zerolang.memory.erasure import Reach
    from zerolang.memory.settings import LEGACY_INDEX
    from zerolang.storage import open_index
    from zerolang.storage.registry import index_of
    from zerolang.util.locations import parse_location

    folder = stores.archive
    archive = Archive(folder) if (folder / MARKER).is_file() else None
    named = str(stores.index.target) if stores.index_given is not None and archive is not None else None
    legacy = folder / LEGACY_INDEX
    candidates = (
        named,
        memory_settings_for(stores.cwd).index_sql_dsn,
        f"sqlite:///{legacy}" if legacy.is_file() else None,
    )
    seen = {parse_location(store.backend.location).display}
    indexes: list[Any] = [index_of(store)]
    try:
        for other in candidates:
            if other and parse_location(other).display not in seen:
                seen.add(parse_location(other).display)
                indexes.append(open_index(other, space=store.space, create=False))
        yield Reach(store, experiences, entries, archive, tuple(indexes))
    finally:
        for index in indexes[1:]:
            index.close()
