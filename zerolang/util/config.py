"""Project settings from `pyproject.toml`: `[tool.zero]` and `[tool.zero.lint]`.

Found like ruff and black find theirs: the nearest `pyproject.toml` at or
above the file being processed (or the current directory). A malformed
setting is a `ZeroError` naming the file and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from zerolang.util.errors import ZeroError

DEFAULT_WIDTH = 100
"""The line width `.0` text is printed to (`zero fmt`) when `[tool.zero] line-width` sets none."""


@dataclass(frozen=True, slots=True)
class LintSettings:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything `[tool.zero]` can set; `root` is the folder of the pyproject.toml it came from."""

    line_width: int = DEFAULT_WIDTH
    lint: LintSettings = field(default_factory=LintSettings)
    root: Path | None = None
    single_valued: tuple[str, ...] = ()  # [tool.zero.memory] single-valued: predicates that supersede


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
        raise ZeroError(f"{pyproject}: cannot read settings: {error}") from None
    table = document.get("tool", {}).get("zero", {})
    if not isinstance(table, dict):
        raise ZeroError(f"{pyproject}: [tool.zero] must be a table")
    width = table.get("line-width", table.get("line_width", DEFAULT_WIDTH))
    if not isinstance(width, int) or isinstance(width, bool) or not 20 <= width <= 1000:
        raise ZeroError(
            f"{pyproject}: [tool.zero] line-width must be an integer from 20 to 1000, not {width!r}"
        )
    lint = table.get("lint", {})
    if not isinstance(lint, dict):
        raise ZeroError(f"{pyproject}: [tool.zero.lint] must be a table")
    memory = table.get("memory", {})
    if not isinstance(memory, dict):
        raise ZeroError(f"{pyproject}: [tool.zero.memory] must be a table")
    single = memory.get("single-valued", memory.get("single_valued", []))
    if not isinstance(single, list) or not all(isinstance(p, str) and p.strip() for p in single):
        raise ZeroError(
            f'{pyproject}: [tool.zero.memory] single-valued must be a list of predicates like ["lives_in"]'
        )
    return Settings(
        line_width=width,
        lint=_lint(pyproject, lint),
        root=pyproject.parent,
        single_valued=tuple(single),
    )


def _codes(pyproject: Path, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise ZeroError(f'{pyproject}: [tool.zero.lint] {key} must be a list of rule codes like ["Z008"]')
    return tuple(code.strip().upper() for code in value)


def _lint(pyproject: Path, table: dict[str, Any]) -> LintSettings:
    per_file = table.get("per-file-ignores", table.get("per_file_ignores", {}))
    if not isinstance(per_file, dict):
        raise ZeroError(f"{pyproject}: [tool.zero.lint] per-file-ignores must be a table of glob = [codes]")
    return LintSettings(
        select=_codes(pyproject, "select", table.get("select", [])),
        ignore=_codes(pyproject, "ignore", table.get("ignore", [])),
        per_file_ignores={
            glob: _codes(pyproject, f"per-file-ignores.{glob}", codes) for glob, codes in per_file.items()
        },
    )
