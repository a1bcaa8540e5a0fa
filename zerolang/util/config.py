"""Settings: the one home of what zerolang can be told outside a command line, for every layer.

- **the project's settings**, `[tool.zero]` in the nearest `pyproject.toml` at or above the
  file being processed (or the current directory), found like ruff and black find theirs:
  `line-width` and `[tool.zero.lint]` (`Settings`, `settings_for`), and the memory's keys
  `[tool.zero.memory]` (`MemorySettings`, `memory_settings_for`): `single-valued`, `space`,
  `archive.*`, `index.sql.*`, `positional.*`, `compaction.*`;
- **the environment**: `$ZERO_MEMORY_DB`, `$ZERO_MEMORY_SPACE`, `$ZERO_EXPERIENCE_DB`,
  `$ZERO_ARCHIVE` (`MEMORY_ENV` ...), and a PostgreSQL memory's hot standbys, `$ZERO_MEMORY_READ_DB`
  with `$ZERO_MEMORY_READ_WAIT` and `$ZERO_MEMORY_READ_LAG` (`read_settings`); `$ZERO_HOOK_SERVER`
  (off: no warm server for the hooks) is read, with the server's other settings, by
  `zerolang.cli.hook_client` alone, before this module could be imported (`zero hook` before every
  prompt loads nothing it need not);
- **the defaults** they fall back to: the per-user memory (`default_memory`), which holds the
  facts, the conversations and the archive's index together, and the per-user archive folder;
- **the space** a surface works in when none is given (`configured_space`): the hooks' space is
  this one, the default space unless a project or the environment names one.

`zerolang.memory.settings.resolve_stores` turns these into every store's location (one
resolution, for every surface). A malformed setting is a `ZeroError` naming the file and the
key (a `ConfigError`, exit 2; `locate` finds where it is written). The pyproject is read
(`tomllib`) only when a setting from it is asked for.

The memory keys, every one off by default:

    [tool.zero.memory]
    single-valued = ["lives_in"]  # predicates whose new value supersedes the old
    space = "my-project"     # the space of this project's memory (hooks, commands, MCP): else default

    [tool.zero.memory.archive]
    enabled = false          # archive compacted ranges (and let tools read them back by hash)
    path = "memory-archive"  # the archive folder; relative paths start at the pyproject's folder
    policy = "policy.toml"   # the consent policy (zerolang.archive.policy); none: every get is refused

    [tool.zero.memory.index.sql]
    enabled = false          # keep the summary index (zerolang.archive.index) in SQL
    dsn = "memory.db"        # the memory store holding the index: a SQLite path (relative to the
                             # pyproject), sqlite:///PATH, sqlite::memory: or postgresql://...

    [tool.zero.memory.positional]
    enabled = false          # give index rows time/privacy/abstraction coordinates
    provider = "sql"         # where coordinates live: "sql" (the index table) is the one provider

    [tool.zero.memory.compaction]
    mode = "off"             # "off" | "manual" (zerolang.archive.compaction runs when asked)

The same keys may be written dotted under `[tool.zero]`, e.g. `memory.archive.enabled = true`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from zerolang.util.errors import ConfigError, ZeroError
from zerolang.util.locations import user_data
from zerolang.util.spaces import DEFAULT_SPACE, check_space

DEFAULT_WIDTH = 100
"""The line width `.0` text is printed to (`zero fmt`) when `[tool.zero] line-width` sets none."""

# ---- the environment, and the defaults it falls back to ----------------------------------------

MEMORY_ENV = "ZERO_MEMORY_DB"
"""The memory every surface opens when none is given: its facts, conversations and archive index."""
SPACE_ENV = "ZERO_MEMORY_SPACE"
"""The space every surface (the hooks included) works in when none is given."""
EXPERIENCES_ENV = "ZERO_EXPERIENCE_DB"
"""An override: the conversations and experiences somewhere else than in the memory's own database."""
ARCHIVE_ENV = "ZERO_ARCHIVE"
"""The archive folder when no option names one."""

MEMORY_FILE = "memory.db"
LEGACY_EXPERIENCES_FILE = "experiences.db"


def default_memory() -> Path:
    """The per-user memory: `<user data dir>/zerolang/memory.db`, conversations and all."""
    return user_data(MEMORY_FILE)


def default_experiences() -> Path:
    """Where releases before one location kept the per-user conversations and experiences, beside the
    per-user memory: `<user data dir>/zerolang/experiences.db` (still used while it holds turns)."""
    return user_data(LEGACY_EXPERIENCES_FILE)


def default_archive() -> Path:
    """The per-user archive folder (when neither an option, `$ZERO_ARCHIVE` nor the project names one)."""
    return user_data("archive")


def from_environment(variable: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The value of `variable`, None when it is unset or empty (as typer reads an empty variable)."""
    value = (os.environ if environ is None else environ).get(variable)
    return value or None


def configured_space(
    given: str | None = None, *, environ: Mapping[str, str] | None = None, cwd: Path | None = None
) -> str:
    """The space to work in: `given` (an option, an argument), else `$ZERO_MEMORY_SPACE`, else the
    project's `[tool.zero.memory] space`, else the default space: one memory per user, one per
    project where a project names its space. The hooks' space (`zero hook`) is this one."""
    chosen = given or from_environment(SPACE_ENV, environ)
    if chosen is None:
        chosen = memory_settings_for(cwd).space or DEFAULT_SPACE
    return check_space(chosen)


# ---- reads from PostgreSQL hot standbys (docs/postgres-scaling.md) ------------------------------

READ_DB_ENV = "ZERO_MEMORY_READ_DB"
"""Hot standbys of a PostgreSQL memory's server, a comma list of postgresql:// URLs: its reads go there."""
READ_WAIT_ENV = "ZERO_MEMORY_READ_WAIT"
"""Seconds a read after the connection's own write waits for a standby to replay it (else the primary)."""
READ_LAG_ENV = "ZERO_MEMORY_READ_LAG"
"""Seconds a standby may lag behind the WAL it has received before reads skip it."""
READ_WAIT_S = 0.2
READ_LAG_S = 5.0


@dataclass(frozen=True, slots=True)
class ReadSettings:
    """Where a PostgreSQL memory reads (`read_settings`): its `standbys` (none: the primary), how long
    a read waits for one to replay the reader's own last write, and how far one may lag."""

    standbys: tuple[str, ...] = ()
    wait: float = READ_WAIT_S
    lag: float = READ_LAG_S


def read_settings(environ: Mapping[str, str] | None = None) -> ReadSettings:
    """`$ZERO_MEMORY_READ_DB`, `$ZERO_MEMORY_READ_WAIT` and `$ZERO_MEMORY_READ_LAG`; a malformed one
    is a `ZeroError` naming the variable."""
    listed = from_environment(READ_DB_ENV, environ) or ""
    standbys = tuple(url.strip() for url in listed.split(",") if url.strip())
    for url in standbys:
        if not url.startswith(("postgresql://", "postgres://")):
            raise ZeroError(f"${READ_DB_ENV}: not a postgresql:// URL: {url.split('@')[-1]!r}")
    return ReadSettings(
        standbys,
        _seconds(READ_WAIT_ENV, READ_WAIT_S, environ),
        _seconds(READ_LAG_ENV, READ_LAG_S, environ),
    )


def _seconds(variable: str, default: float, environ: Mapping[str, str] | None) -> float:
    text = (from_environment(variable, environ) or "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 3600:
        raise ZeroError(f"${variable}: not a number of seconds between 0 and 3600: {text!r}")
    return seconds


# ---- [tool.zero] --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LintSettings:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything `[tool.zero]` can set; `root` is the folder of the pyproject.toml it came from.

    `exclude` (None: the walker's defaults) and `extend_exclude` are globs of files and folders a
    folder's walk skips (`zerolang.util.walk`), relative to `root`.
    """

    line_width: int = DEFAULT_WIDTH
    lint: LintSettings = field(default_factory=LintSettings)
    root: Path | None = None
    single_valued: tuple[str, ...] = ()  # [tool.zero.memory] single-valued: predicates that supersede
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()


# The keys each table may hold (either spelling: `line-width` or `line_width`): any other is a typo.
_KEYS = {
    "[tool.zero]": ("line-width", "lint", "memory", "exclude", "extend-exclude"),
    "[tool.zero.lint]": ("select", "ignore", "per-file-ignores"),
}


def find_pyproject(start: Path) -> Path | None:
    folder = start if start.is_dir() else start.parent
    for candidate in (folder, *folder.parents):
        path = candidate / "pyproject.toml"
        if path.is_file():
            return path
    return None


def settings_for(path: Path | None = None) -> Settings:
    """The settings that apply to `path` (a file or folder), from the nearest pyproject.toml."""
    pyproject = find_pyproject((path or Path.cwd()).resolve())
    return _load(pyproject) if pyproject is not None else Settings()


def _zero_table(pyproject: Path) -> dict[str, Any]:
    """`[tool.zero]` of `pyproject` (empty when it has none)."""
    import tomllib

    try:
        document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{pyproject}: cannot read settings: {error}") from None
    tool = document.get("tool", {})
    table = tool.get("zero", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.zero] must be a table")
    return table


@cache
def _load(pyproject: Path) -> Settings:
    table = _zero_table(pyproject)
    _known(pyproject, "[tool.zero]", table, ())
    width = table.get("line-width", table.get("line_width", DEFAULT_WIDTH))
    if not isinstance(width, int) or isinstance(width, bool) or not 20 <= width <= 1000:
        raise ConfigError(
            f"{pyproject}: [tool.zero] line-width must be an integer from 20 to 1000, not {width!r}",
            key=("line-width",),
        )
    lint = table.get("lint", {})
    if not isinstance(lint, dict):
        raise ConfigError(f"{pyproject}: [tool.zero.lint] must be a table", key=("lint",))
    _known(pyproject, "[tool.zero.lint]", lint, ("lint",))
    exclude = table.get("exclude")
    return Settings(
        line_width=width,
        lint=_lint(pyproject, lint),
        root=pyproject.parent,
        single_valued=_single_valued(pyproject, _memory_table(pyproject, table)),
        exclude=None if exclude is None else _globs(pyproject, "exclude", exclude),
        extend_exclude=_globs(pyproject, "extend-exclude", table.get("extend-exclude", [])),
    )


def _memory_table(pyproject: Path, zero: dict[str, Any]) -> dict[str, Any]:
    memory = zero.get("memory", {})
    if not isinstance(memory, dict):
        raise ConfigError(f"{pyproject}: [tool.zero.memory] must be a table", key=("memory",))
    return memory


def _single_valued(pyproject: Path, memory: dict[str, Any]) -> tuple[str, ...]:
    single = memory.get("single-valued", memory.get("single_valued", []))
    if not isinstance(single, list) or not all(isinstance(p, str) and p.strip() for p in single):
        raise ConfigError(
            f'{pyproject}: [tool.zero.memory] single-valued must be a list of predicates like ["lives_in"]',
            key=("memory", "single-valued"),
        )
    return tuple(single)


def _known(pyproject: Path, name: str, table: dict[str, Any], key: tuple[str, ...]) -> None:
    """A key the table does not have is an error naming the nearest one (a typo is never ignored)."""
    from zerolang.util.suggest import suggest

    known = _KEYS[name]
    for written in table:
        if written.replace("_", "-") not in known:
            hint = suggest(written.replace("_", "-"), list(known), {})
            said = f"; did you mean `{hint}`?" if hint else f" (it has {', '.join(known)})"
            raise ConfigError(f"{pyproject}: {name} has no setting `{written}`{said}", key=(*key, written))


def _globs(pyproject: Path, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(glob, str) and glob.strip() for glob in value):
        raise ConfigError(
            f'{pyproject}: [tool.zero] {key} must be a list of globs like ["generated/", "*.draft.0"]',
            key=(key,),
        )
    return tuple(value)


def _codes(pyproject: Path, key: tuple[str, ...], value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise ConfigError(
            f'{pyproject}: [tool.zero.lint] {".".join(key[1:])} must be a list of rule codes like ["Z008"]',
            key=key,
        )
    return tuple(code.strip().upper() for code in value)


def _lint(pyproject: Path, table: dict[str, Any]) -> LintSettings:
    per_file = table.get("per-file-ignores", table.get("per_file_ignores", {}))
    if not isinstance(per_file, dict):
        raise ConfigError(
            f"{pyproject}: [tool.zero.lint] per-file-ignores must be a table of glob = [codes]",
            key=("lint", "per-file-ignores"),
        )
    return LintSettings(
        select=_codes(pyproject, ("lint", "select"), table.get("select", [])),
        ignore=_codes(pyproject, ("lint", "ignore"), table.get("ignore", [])),
        per_file_ignores={
            glob: _codes(pyproject, ("lint", "per-file-ignores", glob), codes)
            for glob, codes in per_file.items()
        },
    )


def locate(pyproject: Path, error: ConfigError) -> tuple[int, int]:
    """Where in the file a bad setting is written, as a 0-based line and column: its value when it has one,
    else its key, else the header of its table, else the top of the file."""
    try:
        lines = pyproject.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 0, 0
    line = 0
    for depth in range(len(error.key), -1, -1):  # the deepest table written as a header
        name = re.escape(".".join(("tool", "zero", *error.key[:depth])))
        header = re.compile(rf"^\s*\[\s*{name}\s*\]")
        found = next((number for number, text in enumerate(lines) if header.match(text)), None)
        if found is not None:
            line = found
            break
    if error.key:
        key = re.compile(rf"^\s*[\"']?{re.escape(error.key[-1])}[\"']?\s*[=.]")
        line = next((number for number in range(line, len(lines)) if key.match(lines[number])), line)
    if error.value is not None:
        for number in range(line, min(len(lines), line + 100)):
            column = lines[number].find(error.value)
            if column >= 0:
                return number, column
    text = lines[line] if line < len(lines) else ""
    return line, len(text) - len(text.lstrip())


# ---- [tool.zero.memory] -------------------------------------------------------------------------

COMPACTION_MODES = ("off", "manual")
POSITIONAL_PROVIDERS = ("sql",)
_SCHEMA: dict[str, dict[str, type]] = {
    "archive": {"enabled": bool, "path": str, "policy": str},
    "index.sql": {"enabled": bool, "dsn": str},
    "positional": {"enabled": bool, "provider": str},
    "compaction": {"mode": str},
}


@dataclass(frozen=True, slots=True)
class MemorySettings:
    archive_enabled: bool = False
    archive_path: Path | None = None
    archive_policy: Path | None = None
    index_sql_enabled: bool = False
    index_sql_dsn: str | None = None
    positional_enabled: bool = False
    positional_provider: str = "sql"
    compaction_mode: str = "off"
    source: Path | None = None  # the pyproject.toml they came from
    space: str | None = None  # the project's space (`configured_space`), None: the default


def default_archive_root() -> Path:
    """The archive's folder when no option names one: `memory.archive.path`, else `archive` in the
    per-user data directory."""
    configured = memory_settings_for().archive_path
    return configured if configured is not None else default_archive()


def memory_settings_for(path: Path | None = None) -> MemorySettings:
    """The memory settings that apply to `path` (default: the current folder)."""
    pyproject = find_pyproject((path or Path.cwd()).resolve())
    return load_memory_settings(pyproject) if pyproject is not None else MemorySettings()


@cache
def load_memory_settings(pyproject: Path) -> MemorySettings:
    zero = _zero_table(pyproject)
    return parse_memory_settings(zero.get("memory", {}), pyproject)


def parse_memory_settings(table: object, pyproject: Path) -> MemorySettings:
    """Validate a `[tool.zero.memory]` table (already parsed TOML)."""
    values: dict[str, Any] = {}
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.zero.memory] must be a table")
    _collect(table, "", pyproject, values)
    base = pyproject.parent
    mode = values.get("compaction.mode", "off")
    if mode not in COMPACTION_MODES:
        raise ConfigError(
            f"{pyproject}: memory.compaction.mode must be one of {', '.join(COMPACTION_MODES)}, not {mode!r}"
        )
    provider = values.get("positional.provider", "sql")
    if provider not in POSITIONAL_PROVIDERS:
        raise ConfigError(f'{pyproject}: memory.positional.provider must be "sql", not {provider!r}')
    dsn = values.get("index.sql.dsn")
    if dsn is not None:
        dsn = _check_dsn(dsn, base, pyproject)
    if values.get("index.sql.enabled", False) and dsn is None:
        raise ConfigError(f"{pyproject}: memory.index.sql.enabled needs memory.index.sql.dsn")
    if values.get("positional.enabled", False) and not values.get("index.sql.enabled", False):
        raise ConfigError(
            f"{pyproject}: memory.positional.enabled needs memory.index.sql.enabled (coordinates live there)"
        )
    space = values.get("space")
    if space is not None:
        try:
            check_space(space)
        except ZeroError as error:
            raise ConfigError(f"{pyproject}: memory.space: {error}") from None
    return MemorySettings(
        archive_enabled=values.get("archive.enabled", False),
        archive_path=_path(values.get("archive.path"), base),
        archive_policy=_path(values.get("archive.policy"), base),
        index_sql_enabled=values.get("index.sql.enabled", False),
        index_sql_dsn=dsn,
        positional_enabled=values.get("positional.enabled", False),
        positional_provider=provider,
        compaction_mode=mode,
        source=pyproject,
        space=space,
    )


# Keys of [tool.zero.memory] read on their own (`Settings.single_valued`, by `_load`).
_READ_APART = frozenset({"single-valued", "single_valued"})
_TOP: dict[str, type] = {"space": str}  # plain keys of [tool.zero.memory] itself


def _collect(table: dict[str, Any], prefix: str, pyproject: Path, values: dict[str, Any]) -> None:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if name in _READ_APART:
            continue
        if isinstance(value, dict):
            if not any(group == name or group.startswith(f"{name}.") for group in _SCHEMA):
                raise ConfigError(f"{pyproject}: unknown setting memory.{name}")
            _collect(value, f"{name}.", pyproject, values)
            continue
        group, _, leaf = name.rpartition(".")
        expected = _SCHEMA.get(group, {}).get(leaf) if group else _TOP.get(leaf)
        if expected is None:
            raise ConfigError(f"{pyproject}: unknown setting memory.{name}")
        if type(value) is not expected or (isinstance(value, str) and not value.strip()):
            kind = "true or false" if expected is bool else "a non-empty string"
            raise ConfigError(f"{pyproject}: memory.{name} must be {kind}, not {value!r}")
        values[name] = value


def _path(value: str | None, base: Path) -> Path | None:
    if value is None:
        return None
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


def _check_dsn(dsn: str, base: Path, pyproject: Path) -> str:
    """The memory store the index lives in: a SQLite path or a postgresql:// URL."""
    from zerolang.util.locations import parse_location

    try:
        location = parse_location(dsn)
    except ZeroError as error:
        raise ConfigError(f"{pyproject}: memory.index.sql.dsn: {error}") from None
    if not location.is_file:  # a server URL (its scheme is checked when the index is opened), or memory
        return dsn
    path = str(_path(location.target, base))
    return f"sqlite:///{path}" if dsn.startswith("sqlite:") else path
