"""Where `zero capture` and `zero recall` keep experiences: `--db` (`options.EXPERIENCE_DB`, which
reads `$ZERO_EXPERIENCE_DB`), or the default.

The default is `experiences.db` in the per-user data directory (next to the
0-memory's `memory.db`, e.g. `~/.local/share/zerolang/experiences.db`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.experience.store import ExperienceStore
    from zerolang.util.locations import Location


def default_path() -> Path:
    from zerolang.util.locations import user_data

    return user_data("experiences.db")


def store_location(option: str | Path | None, *, create: bool) -> Location:
    """Where an experience or conversation store lives: `--db` as typed (a SQLite file or a server
    URL), else `experiences.db` in the per-user data directory, its folder prepared when `create`."""
    from zerolang.cli.stores import prepare_folder
    from zerolang.util.locations import parse_location

    given = option is not None and str(option) != ""
    location = parse_location(option if given else default_path())  # type: ignore[arg-type]
    if create:
        prepare_folder(location, given=given)
    return location


def open_store(option: str | Path | None, *, create: bool) -> ExperienceStore:
    """The experience store `--db` names (a SQLite file, or a server URL with its engine's extra)."""
    from zerolang.storage import open_experiences

    return open_experiences(store_location(option, create=create), create=create)
