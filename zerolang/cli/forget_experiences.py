"""`--experiences` (`zerolang.cli.options.ALSO_EXPERIENCES`): forget, restore and purge also reach an
experience database.

Experiences (`zero capture`) and conversation entries (`zero convo`) live in the memory's own
database unless one is named apart. Given one (`--experiences PATH` or `$ZERO_EXPERIENCE_DB`, a
SQLite file or a `postgresql://` URL), a forget records the hashes of the forgotten concepts'
labels and aliases there, so `zero recall` and `zero convo restore|turns|search` leave out what mentions them;
`--purge` (or a later `zero memory purge`) erases those experiences, turns and messages for real;
`zero memory restore` lifts the block. See `zerolang.experience.forgotten`. Without it, forget,
restore and purge reach the memory's own (`zerolang.memory.settings.Stores.experiences`, the one
rule for where they are).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.experience.forgotten import ErasingStore, ForgettingStore


@contextmanager
def experience_stores(option: Path | None) -> Iterator[tuple[ForgettingStore, ErasingStore] | None]:
    """The experience and conversation stores at `option` (which must exist), open for the block;
    None without `--experiences`. Opened before the memory is touched, so a missing or unreadable
    experience database stops the command before anything is forgotten, restored or purged."""
    from zerolang.cli.experience_store import open_entries, open_store, stores_of

    if option is None:
        yield None
        return
    stores = stores_of(experiences=option)
    experiences = open_store(stores, create=False)
    try:
        entries = open_entries(stores, create=False)
        try:
            yield experiences, entries
        finally:
            entries.close()
    finally:
        experiences.close()
