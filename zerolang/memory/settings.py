"""Where 0-memory keeps things: one resolution of every store's location, for every surface.

The `zero` commands, the Python API (`zerolang.memory.open`) and `zero mcp` all call
`resolve_stores`, so what one of them writes the others read. The settings it reads (the
environment variables, `[tool.zero.memory]`, the defaults) live in `zerolang.util.config`, their
one home. Each location is the first of:

- **memory**: `--db` / `open(location)`, else `$ZERO_MEMORY_DB`, else the per-user `memory.db`;
- **space**: `--space` / `space=`, else `$ZERO_MEMORY_SPACE`, else the project's
  `[tool.zero.memory] space`, else `default` (`zerolang.util.config.configured_space`);
- **conversations and experiences**: `zero capture --db` / `--experiences` / `experiences=`, else
  `$ZERO_EXPERIENCE_DB`, else the memory's own database (below);
- **archive folder**: `--root` / `archive=`, else `$ZERO_ARCHIVE`, else `memory.archive.path`, else
  the per-user `archive` folder;
- **archive index**: `index=`, else the memory store when one is named (`zero archive put --db`
  names it), else `memory.index.sql.dsn`, else the per-user memory store; always in `space`.

docs/settings.md shows the same as one table.

One memory, one location: the conversations and experiences live in the memory's database (the
SQLite file holds the memory's tables and the `exp_*`/`convo_*` ones; a server URL's database
holds all of them), each row in its space. Releases before kept them apart, in `NAME.experiences.db`
next to a memory file `NAME.db` (the per-user `experiences.db` next to the per-user `memory.db`):
while such a file holds turns or conversations it is still where they are read and written
(`experiences_of`), so a store made then opens where it is; docs/conversations.md says how to move
it into the memory. A memory in memory (`:memory:`) has its conversations in memory too.

The archive's summary index lives in the memory store (table `memory_index`, per space). Before
this, the Python API and `zero mcp` kept it in `index.db` inside the archive folder: the first
surface that opens the index absorbs such a file (`zerolang.storage.absorb_legacy_index`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from zerolang.util.config import (
    ARCHIVE_ENV,
    EXPERIENCES_ENV,
    MEMORY_ENV,
    SPACE_ENV,
    configured_space,
    default_archive,
    default_experiences,
    default_memory,
    from_environment,
    memory_settings_for,
)
from zerolang.util.locations import IN_MEMORY, Location, parse_location

if TYPE_CHECKING:
    from zerolang.archive.index import IndexStore
    from zerolang.knowledge.store import MemoryStore

__all__ = [
    "ARCHIVE_ENV",
    "EXPERIENCES_ENV",
    "LEGACY_INDEX",
    "MEMORY_ENV",
    "SPACE_ENV",
    "Stores",
    "beside",
    "default_experiences",
    "default_memory",
    "experiences_of",
    "open_archive_index",
    "prepare_folder",
    "resolve_stores",
]

LEGACY_INDEX = "index.db"
"""The file inside the archive folder where the Python API and `zero mcp` once kept the index."""

Given = str | Path | Location | None


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
        """The conversations' and experiences' database: given, else the memory's own
        (`experiences_of`: an older release's file beside it while that holds turns)."""
        if self.experiences_given is not None:
            return parse_location(self.experiences_given)
        return experiences_of(self.memory)

    @property
    def experiences_named(self) -> bool:
        return self.experiences_given is not None

    @property
    def archive(self) -> Path:
        """The archive folder: given, else `memory.archive.path`, else the per-user `archive`."""
        if self.archive_given is not None:
            return Path(self.archive_given).expanduser()
        configured = memory_settings_for(self.cwd).archive_path
        return configured if configured is not None else default_archive()

    @property
    def index(self) -> Location:
        """The memory store holding the archive's summary index (in `space`): given, else the memory
        store when one is named, else `memory.index.sql.dsn`, else the per-user memory store."""
        if self.index_given is not None:
            return parse_location(self.index_given)
        if not self.memory_named:
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

    def pick(value: Given, variable: str | None) -> str | Path | Location | None:
        chosen = _given(value)
        if chosen is None and variable is not None:
            chosen = from_environment(variable, environ)
        return chosen

    chosen_archive = pick(archive, ARCHIVE_ENV)
    return Stores(
        memory_given=pick(memory, MEMORY_ENV),
        space=configured_space(space or None, environ=environ, cwd=cwd),
        experiences_given=pick(experiences, EXPERIENCES_ENV),
        archive_given=None if chosen_archive is None else Path(str(chosen_archive)),
        index_given=pick(index, None),
        cwd=cwd,
    )


def beside(memory: Location) -> Location:
    """Where releases before one location kept the conversations and experiences of a memory file:
    `NAME.experiences.db` next to `NAME.db`, the per-user `experiences.db` next to the per-user
    memory; for a server URL or a memory in memory, what `experiences_of` gives."""
    if not memory.is_file:
        return experiences_of(memory)
    path = memory.path
    if path == default_memory():
        return parse_location(default_experiences())
    return parse_location(path.with_name(path.stem + ".experiences.db"))


def experiences_of(memory: Location) -> Location:
    """The database that holds a memory's conversations and experiences: the memory's own (one
    location for one memory), unless an older release's file beside it (`beside`) still holds
    turns or conversations; a memory in memory has its own in memory."""
    if memory.in_memory:
        return parse_location(IN_MEMORY)
    if memory.is_url:
        return memory
    from zerolang.storage import holds_conversations

    older = beside(memory)
    return older if holds_conversations(older) else memory


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
