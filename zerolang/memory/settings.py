"""Where 0-memory keeps things: one resolution of every store's location, for every surface.

The `zero` commands, the Python API (`zerolang.memory.open`) and `zero mcp` all call
`resolve_stores`, so what one of them writes the others read. Each location is the first of:

- **memory**: `--db` / `open(location)`, else `$ZERO_MEMORY_DB`, else the per-user `memory.db`;
- **space**: `--space` / `space=`, else `$ZERO_MEMORY_SPACE`, else `default`;
- **experiences**: `zero capture --db` / `--experiences` / `experiences=`, else `$ZERO_EXPERIENCE_DB`,
  else beside the memory (below);
- **archive folder**: `--root` / `archive=`, else `$ZERO_ARCHIVE`, else `memory.archive.path`, else
  the per-user `archive` folder;
- **archive index**: `index=`, else the memory store when one is named (`zero archive put --db`
  names it), else `memory.index.sql.dsn`, else the per-user memory store; always in `space`.

docs/settings.md shows the same as one table.

Experiences beside the memory: `NAME.experiences.db` next to a memory file `NAME.db`, the per-user
`experiences.db` next to the per-user `memory.db`, the same database for a server URL (its `exp_*`
tables sit beside the memory's), and a store in memory for `:memory:`.

The archive's summary index lives in the memory store (table `memory_index`, per space). Before
this, the Python API and `zero mcp` kept it in `index.db` inside the archive folder: the first
surface that opens the index absorbs such a file (`zerolang.storage.absorb_legacy_index`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from zerolang.util.locations import IN_MEMORY, Location, parse_location, user_data
from zerolang.util.spaces import DEFAULT_SPACE, check_space

if TYPE_CHECKING:
    from zerolang.archive.index import IndexStore
    from zerolang.knowledge.store import MemoryStore

MEMORY_ENV = "ZERO_MEMORY_DB"
SPACE_ENV = "ZERO_MEMORY_SPACE"
EXPERIENCES_ENV = "ZERO_EXPERIENCE_DB"
ARCHIVE_ENV = "ZERO_ARCHIVE"
LEGACY_INDEX = "index.db"
"""The file inside the archive folder where the Python API and `zero mcp` once kept the index."""

Given = str | Path | Location | None


def default_memory() -> Path:
    """The per-user default memory store: `<user data dir>/zerolang/memory.db`."""
    return user_data("memory.db")


def default_experiences() -> Path:
    """The experiences beside the per-user default memory: `<user data dir>/zerolang/experiences.db`."""
    return user_data("experiences.db")


def _given(value: Given) -> str | Path | Location | None:
    """A value an option or argument gives, or None when it is absent or empty (as typer reads both)."""
    return None if value is None or not str(value) else value


@dataclass(frozen=True, slots=True)
class Stores:
    """Every store's location for one surface call; see the module's table. Build with `resolve_stores`."""

    memory_given: str | Path | Location | None
    space: str
    experiences_given: str | Path | Location | None
    archive_given: str | Path | None
    index_given: str | Path | Location | None
    cwd: Path | None = field(default=None)

    @property
    def memory(self) -> Location:
        """The memory store: given, else the per-user `memory.db`."""
        return parse_location(self.memory_given if self.memory_given is not None else default_memory())

    @property
    def memory_named(self) -> bool:
        """Whether an option, argument or environment variable named the memory store."""
        return self.memory_given is not None

    @property
    def experiences(self) -> Location:
        """The experience database: given, else beside the memory store."""
        if self.experiences_given is not None:
            return parse_location(self.experiences_given)
        return beside(self.memory)

    @property
    def experiences_named(self) -> bool:
        return self.experiences_given is not None

    @property
    def archive(self) -> Path:
        """The archive folder: given, else `memory.archive.path`, else the per-user `archive`."""
        if self.archive_given is not None:
            return Path(self.archive_given).expanduser()
        from zerolang.archive.settings import memory_settings_for

        configured = memory_settings_for(self.cwd).archive_path
        return configured if configured is not None else user_data("archive")

    @property
    def index(self) -> Location:
        """The memory store holding the archive's summary index (in `space`): given, else the memory
        store when one is named, else `memory.index.sql.dsn`, else the per-user memory store."""
        if self.index_given is not None:
            return parse_location(self.index_given)
        if not self.memory_named:
            from zerolang.archive.settings import memory_settings_for

            configured = memory_settings_for(self.cwd).index_sql_dsn
            if configured is not None:
                return parse_location(configured)
        return self.memory

    @property
    def index_named(self) -> bool:
        """Whether the index's store was named (an option, the memory's own name or the configuration)."""
        return self.index_given is not None or self.memory_named or self.index != self.memory

    @property
    def index_in_memory_store(self) -> bool:
        """Whether the index lives in the memory store itself (then one connection serves both)."""
        return self.index == self.memory

    @property
    def legacy_index(self) -> Path:
        """Where an older Python API or `zero mcp` kept the index: `index.db` in the archive folder."""
        return self.archive / LEGACY_INDEX


def resolve_stores(
    memory: Given = None,
    *,
    space: str | None = None,
    experiences: Given = None,
    archive: str | Path | None = None,
    index: Given = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Stores:
    """Every store's location from what a surface was given, the environment and the configuration.

    An empty value counts as not given (as typer reads an empty option or variable). `environ`
    defaults to `os.environ`; `cwd` is where the configuration (`pyproject.toml`) is looked for.
    """
    env = os.environ if environ is None else environ

    def pick(value: Given, variable: str | None) -> str | Path | Location | None:
        chosen = _given(value)
        if chosen is None and variable is not None:
            chosen = _given(env.get(variable))
        return chosen

    chosen_space = _given(space) or _given(env.get(SPACE_ENV)) or DEFAULT_SPACE
    check_space(str(chosen_space))
    chosen_archive = pick(archive, ARCHIVE_ENV)
    return Stores(
        memory_given=pick(memory, MEMORY_ENV),
        space=str(chosen_space),
        experiences_given=pick(experiences, EXPERIENCES_ENV),
        archive_given=None if chosen_archive is None else Path(str(chosen_archive)),
        index_given=pick(index, None),
        cwd=cwd,
    )


def beside(memory: Location) -> Location:
    """The experience database that goes with a memory store (see the module's table)."""
    if memory.in_memory:
        return parse_location(IN_MEMORY)
    if memory.is_url:
        return memory
    path = memory.path
    if path == default_memory():
        return parse_location(default_experiences())
    return parse_location(path.with_name(path.stem + ".experiences.db"))


def prepare_folder(location: Location, *, given: bool) -> None:
    """Before a database file is created at `location`: the per-user data directory of a default
    location is made; the folder of a path the user gave must exist (a typo is not a new tree).
    A server URL or a store in memory needs nothing."""
    from zerolang.util.errors import ZeroError

    if not location.is_file:
        return
    path = location.path
    if not given:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ZeroError(f"{path.parent}: cannot create the data directory ({error.strerror})") from None
    elif not path.parent.is_dir():
        raise ZeroError(f"{path}: no such directory {path.parent}")


def open_archive_index(stores: Stores, *, create: bool, memory: MemoryStore | None = None) -> IndexStore:
    """The archive's summary index where `stores` says, in its space: on `memory`'s own connection when
    that is the store (and space) it lives in. An index file an older surface left in the archive
    folder (`index.db`) is absorbed into it first."""
    from zerolang.storage import index_of, open_index
    from zerolang.storage.legacy_index import absorb_legacy_index
    from zerolang.storage.registry import MEMORY_INDEX

    location = stores.index
    if str(location) == MEMORY_INDEX:
        return open_index(MEMORY_INDEX)
    index: IndexStore
    if memory is not None and stores.index_in_memory_store and memory.space == stores.space:
        index = index_of(memory)
    else:
        if create:
            prepare_folder(location, given=stores.index_named)
        index = open_index(location, space=stores.space, create=create)
    legacy = stores.legacy_index
    if legacy.is_file() and not (location.is_file and _same_file(location.path, legacy)):
        absorb_legacy_index(legacy, index)
    return index


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return False
