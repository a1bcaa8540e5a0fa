"""Where `zero capture` and `zero recall` keep experiences: `--db` (`options.EXPERIENCE_DB`, which
reads `$ZERO_EXPERIENCE_DB`), else beside the memory store, as every surface resolves it
(`zerolang.memory.settings`).

With neither `$ZERO_MEMORY_DB` nor an option, that is `experiences.db` in the per-user data
directory (next to the 0-memory's `memory.db`, e.g. `~/.local/share/zerolang/experiences.db`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.experience.forgotten import ForgettingStore
    from zerolang.experience.store import ExperienceStore
    from zerolang.memory.erasure import Blocks
    from zerolang.util.locations import Location


def default_path() -> Path:
    from zerolang.memory.settings import default_experiences

    return default_experiences()


def store_location(option: str | Path | None, *, create: bool) -> Location:
    """Where an experience or conversation store lives: `--db` as typed (a SQLite file or a server
    URL), else `$ZERO_EXPERIENCE_DB`, else beside the memory store (`zerolang.memory.settings`), its
    folder prepared when `create`."""
    from zerolang.memory.settings import prepare_folder, resolve_stores

    stores = resolve_stores(experiences=option)
    location = stores.experiences
    if create:
        prepare_folder(location, given=stores.experiences_named or stores.memory_named)
    return location


def open_store(option: str | Path | None, *, create: bool) -> ExperienceStore:
    """The experience store `--db` names (a SQLite file, or a server URL with its engine's extra).
    Opened to write (`create`), it first takes the memory's purges (`carry_purges`)."""
    from zerolang.memory.settings import resolve_stores
    from zerolang.storage import open_experiences

    space = resolve_stores().space  # the configured space ($ZERO_MEMORY_SPACE, the project's, default)
    store = open_experiences(store_location(option, create=create), space=space, create=create)
    if create:
        try:
            carry_purges_into(store)
        except BaseException:
            store.close()
            raise
    return store


def carry_purges_into(store: ForgettingStore) -> None:
    """Block in `store` the terms the memory store's purges blocked (`zerolang.memory.erasure.carry_purges`):
    the memory `$ZERO_MEMORY_DB` names (in `$ZERO_MEMORY_SPACE`), else the per-user default one, when it
    exists. What is written after a purge stores nothing that mentions its label, whichever surface
    writes it and whether or not the purge reached this database."""
    blocks = memory_purges()
    if blocks:  # without a memory, or purges, a hook's capture loads none of the memory's code
        from zerolang.memory.erasure import carry_blocks

        carry_blocks(blocks, store)


def read_hiding_purges(store: ExperienceStore) -> ExperienceStore:
    """`store` as a reader sees it: with the memory's purges hidden as well, writing nothing
    (`zerolang.memory.erasure.PurgesHidden`), so `zero recall` shows nothing a purge erased even
    from a database the purge never reached."""
    from typing import cast

    from zerolang.memory.erasure import PurgesHidden

    blocks = memory_purges()
    return store if not blocks else cast("ExperienceStore", PurgesHidden(store, lambda: blocks))


def memory_purges() -> Blocks:
    """The term keys the purges of the memory `$ZERO_MEMORY_DB` names (in `$ZERO_MEMORY_SPACE`;
    else the per-user default one) blocked, when that memory exists
    (`zerolang.memory.erasure.purges_of`); read only."""
    from zerolang.memory.settings import resolve_stores

    stores = resolve_stores()
    if stores.memory.holds_nothing_yet:
        return {}  # no memory, no purges: a hook's capture loads none of the memory's code
    from zerolang.memory.erasure import purges_of

    return purges_of(stores)
