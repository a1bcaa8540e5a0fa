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
    from zerolang.experience.store import ExperienceStore
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
    """The experience store `--db` names (a SQLite file, or a server URL with its engine's extra)."""
    from zerolang.storage import open_experiences

    return open_experiences(store_location(option, create=create), create=create)
