"""Project settings from `pyproject.toml`: `[tool.zero]` and `[tool.zero.lint]`.

Found like ruff and black find theirs: the nearest `pyproject.toml` at or
above the file being processed (or the current directory). A malformed
setting is a `ConfigError` naming the file and the key (`locate` finds where it is written).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from zerolang.util.errors import ConfigError

DEFAULT_WIDTH = 100
"""The line width `.0` text is printed to (`zero fmt`) when `[tool.zero] line-width` sets none."""


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


@cache
def _load(pyproject: Path) -> Settings:
    try:
        document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{pyproject}: cannot read settings: {error}") from None
    tool = document.get("tool", {})
    table = tool.get("zero", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.zero] must be a table")
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
    memory = table.get("memory", {})
    if not isinstance(memory, dict):
        raise ConfigError(f"{pyproject}: [tool.zero.memory] must be a table", key=("memory",))
    single = memory.get("single-valued", memory.get("single_valued", []))
    if not isinstance(single, list) or not all(isinstance(p, str) and p.strip() for p in single):
        raise ConfigError(
            f'{pyproject}: [tool.zero.memory] single-valued must be a list of predicates like ["lives_in"]',
            key=("memory", "single-valued"),
        )
    exclude = table.get("exclude")
    return Settings(
        line_width=width,
        lint=_lint(pyproject, lint),
        root=pyproject.parent,
        single_valued=tuple(single),
        exclude=None if exclude is None else _globs(pyproject, "exclude", exclude),
        extend_exclude=_globs(pyproject, "extend-exclude", table.get("extend-exclude", [])),
    )


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
