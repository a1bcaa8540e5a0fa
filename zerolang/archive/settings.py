"""The memory keys of `[tool.zero]` (seed 004), every one off by default.

    [tool.zero.memory.archive]
    enabled = false          # archive compacted ranges (and let tools read them back by hash)
    path = "memory-archive"  # the archive folder; relative paths start at the pyproject's folder
    policy = "policy.toml"   # the consent policy (policy.py); none: every get is refused

    [tool.zero.memory.index.sql]
    enabled = false          # keep the summary index (index.py) in SQL
    dsn = "memory.db"        # the memory store holding the index: a SQLite path (relative to the
                             # pyproject), sqlite:///PATH, sqlite::memory: or postgresql://...

    [tool.zero.memory.positional]
    enabled = false          # give index rows time/privacy/abstraction coordinates
    provider = "sql"         # where coordinates live: "sql" (the index table) is the one provider

    [tool.zero.memory.compaction]
    mode = "off"             # "off" | "manual" (compaction.py runs when asked)

The same keys may be written dotted under `[tool.zero]`, e.g. `memory.archive.enabled = true`.
An unknown key or a value of the wrong type is an error naming the file and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from zerolang.util.config import find_pyproject
from zerolang.util.errors import ConfigError, ZeroError
from zerolang.util.locations import user_data

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


def default_archive_root() -> Path:
    """The archive's folder when no option names one: `memory.archive.path`, else `archive` in the
    per-user data directory."""
    configured = memory_settings_for().archive_path
    return configured if configured is not None else user_data("archive")


def memory_settings_for(path: Path | None = None) -> MemorySettings:
    """The memory settings that apply to `path` (default: the current folder)."""
    pyproject = find_pyproject((path or Path.cwd()).resolve())
    return load_memory_settings(pyproject) if pyproject is not None else MemorySettings()


@cache
def load_memory_settings(pyproject: Path) -> MemorySettings:
    try:
        document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{pyproject}: cannot read settings: {error}") from None
    zero = document.get("tool", {}).get("zero", {})
    table = zero.get("memory", {}) if isinstance(zero, dict) else {}
    return parse_memory_settings(table, pyproject)


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
    )


# Keys of [tool.zero.memory] that another module reads and checks (zerolang.util.config: the store's own).
_READ_ELSEWHERE = frozenset({"single-valued", "single_valued"})


def _collect(table: dict[str, Any], prefix: str, pyproject: Path, values: dict[str, Any]) -> None:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if name in _READ_ELSEWHERE:
            continue
        if isinstance(value, dict):
            if not any(group == name or group.startswith(f"{name}.") for group in _SCHEMA):
                raise ConfigError(f"{pyproject}: unknown setting memory.{name}")
            _collect(value, f"{name}.", pyproject, values)
            continue
        group, _, leaf = name.rpartition(".")
        expected = _SCHEMA.get(group, {}).get(leaf)
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
