"""`--experiences` (`zerolang.cli.options.ALSO_EXPERIENCES`): forget, restore and purge also reach an
experience database.

Experiences (`zero capture`) and conversation entries (`zero convo`) live in their own database,
not the memory's. Given one (`--experiences PATH` or `$ZERO_EXPERIENCE_DB`, a SQLite file or a
`postgresql://` URL), a forget records the hashes of the forgotten concepts' labels and aliases
there, so `zero recall` and `zero convo restore|turns|search` leave out what mentions them;
`--purge` (or a later `zero memory purge`) erases those experiences, turns and messages for real;
`zero memory restore` lifts the block. See `zerolang.experience.forgotten`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.experience.forgotten import ErasingStore, ForgettingStore
    from zerolang.knowledge.store import MemoryStore
    from zerolang.memory.erasure import Reach


@contextmanager
def experience_stores(option: Path | None) -> Iterator[tuple[ForgettingStore, ErasingStore] | None]:
    """The experience and conversation stores at `option` (which must exist), open for the block;
    None without `--experiences`. Opened before the memory is touched, so a missing or unreadable
    experience database stops the command before anything is forgotten, restored or purged."""
    from zerolang.cli.convo_cmd import _store
    from zerolang.cli.experience_store import open_store

    if option is None:
        yield None
        return
    experiences = open_store(option, create=False)
    try:
        entries = _store(option, create=False)
        try:
            yield experiences, entries
        finally:
            entries.close()
    finally:
        experiences.close()


def purged_experiences(option: Path | None) -> Path | None:
    """The experience database a purge reaches: `--experiences`, else the per-user default one when
    it exists (a purge erases every copy; it creates no database)."""
    if option is not None:
        return option
    from zerolang.cli.experience_store import default_path

    path = default_path()
    return path if path.is_file() else None


@contextmanager
def purge_reach(
    store: MemoryStore, reached: tuple[ForgettingStore, ErasingStore] | None, root: Path | None
) -> Iterator[Reach]:
    """Every place a purge in `store` reaches (`zerolang.memory.erasure`): the experience and
    conversation stores `reached`, the archive at `--root` (or its default folder, when it is an
    archive), the summary index in the memory store and the configured one."""
    from zerolang.archive.settings import memory_settings_for
    from zerolang.archive.store import MARKER, Archive
    from zerolang.cli.archive_cmd import resolve_root
    from zerolang.memory.erasure import Reach
    from zerolang.storage import open_index
    from zerolang.storage.registry import index_of
    from zerolang.util.locations import parse_location

    folder = resolve_root(root)
    archive = Archive(folder) if (folder / MARKER).is_file() else None
    indexes = [index_of(store)]
    configured = memory_settings_for().index_sql_dsn
    mine = parse_location(store.backend.location).display
    beside = folder / "index.db"  # where the Python API keeps an archive's index by default
    for other in (configured, f"sqlite:///{beside}" if beside.is_file() else None):
        if other and parse_location(other).display != mine:
            indexes.append(open_index(other, space=store.space, create=False))
    try:
        yield Reach(
            store,
            None if reached is None else reached[0],
            None if reached is None else reached[1],
            archive,
            tuple(indexes),
        )
    finally:
        for index in indexes[1:]:
            index.close()
