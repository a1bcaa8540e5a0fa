"""Which rules apply to a file: `select`, `ignore` and `per-file-ignores`, as ruff reads them.

A selector is a rule code (`Z008`, or `C001` for the `.0c` checks of
`zerolang.tools.lint.compact`), a prefix of codes (`Z00`, `Z`, `C`) or `ALL`.
The most specific selector that matches a code decides: `select = ["Z"]`
with `ignore = ["Z01"]` and `select = ["Z011"]` keeps Z011. With no
`select`, every rule is selected. Per-file-ignores are globs relative to the
folder of the `pyproject.toml` they come from (`**` crosses folders; a glob
without `/` also matches the file name alone).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from zerolang.tools.lint.rules import RULES
from zerolang.util.codes import COMPACT, code_range, codes_for
from zerolang.util.config import Settings
from zerolang.util.errors import ConfigError

ALL = "ALL"


def all_codes() -> tuple[str, ...]:
    """Every code a selector can name: the `.0` rules (Z...) and the `.0c` checks (C...)."""
    return (*RULES, *(code.code for code in codes_for(COMPACT)))


def parse_selectors(values: Iterable[str]) -> tuple[str, ...]:
    """Comma-separated selectors from the command line, upper-cased, in order, without blanks."""
    return tuple(part.strip().upper() for value in values for part in value.split(",") if part.strip())


def unknown_selectors(selectors: Iterable[str]) -> list[str]:
    """Selectors that match no rule: a typo the user must hear about, not a silent no-op."""
    codes = all_codes()
    return [s for s in selectors if s != ALL and not any(code.startswith(s) for code in codes)]


def _specificity(selector: str, code: str) -> int:
    """How closely `selector` matches `code` (-1: not at all)."""
    if selector == ALL:
        return 0
    return len(selector) if code.startswith(selector) else -1


def is_enabled(code: str, select: Iterable[str], ignore: Iterable[str]) -> bool:
    selected = [_specificity(s, code) for s in select] or [0]
    ignored = [_specificity(s, code) for s in ignore] or [-1]
    best_select, best_ignore = max(selected), max(ignored)
    return best_select >= 0 and best_select > best_ignore


def check_codes(settings: Settings) -> None:
    """Every code `[tool.zero.lint]` names (select, ignore, each per-file-ignores glob's) matches a rule;
    else a `ConfigError` naming the first that does not, and where it is written."""
    lint = settings.lint
    keys: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
        (("lint", "select"), lint.select),
        (("lint", "ignore"), lint.ignore),
        *((("lint", "per-file-ignores", glob), codes) for glob, codes in lint.per_file_ignores.items()),
    ]
    where = f"{settings.root / 'pyproject.toml'}: " if settings.root else ""
    for key, codes in keys:
        bad = unknown_selectors(codes)
        if bad:
            raise ConfigError(
                f"{where}[tool.zero.lint] {'.'.join(key[1:])}: unknown rule code `{bad[0]}` "
                f"(the codes are {code_range('Z')}, and {code_range('C')} for .0c files;"
                " `zero lint --help` lists them)",
                key=key,
                value=bad[0],
            )


def enabled_codes(settings: Settings, path: str | Path | None) -> frozenset[str]:
    """The codes to report for `path` under `settings`; bad codes in the config are a `ConfigError`."""
    check_codes(settings)
    lint = settings.lint
    ignore = list(lint.ignore)
    for glob, codes in lint.per_file_ignores.items():
        if path is not None and matches(glob, Path(path), settings.root):
            ignore.extend(codes)
    return frozenset(code for code in all_codes() if is_enabled(code, lint.select, ignore))


def matches(glob: str, path: Path, root: Path | None) -> bool:
    """Whether `path` matches a per-file-ignores glob written relative to `root`."""
    absolute = path.resolve()
    try:
        relative = absolute.relative_to(root.resolve()) if root is not None else Path(path)
    except ValueError:
        return False
    pattern = _compile(glob.removeprefix("./"))
    return bool(pattern.fullmatch(relative.as_posix())) or (
        "/" not in glob and bool(pattern.fullmatch(path.name))
    )


@cache
def _compile(glob: str) -> re.Pattern[str]:
    """A glob as a regex: `**/` any folders (or none), `*` within a name, `?` one character."""
    parts: list[str] = []
    index = 0
    while index < len(glob):
        if glob.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
        elif glob.startswith("**", index):
            parts.append(".*")
            index += 2
        elif glob[index] == "*":
            parts.append("[^/]*")
            index += 1
        elif glob[index] == "?":
            parts.append("[^/]")
            index += 1
        else:
            parts.append(re.escape(glob[index]))
            index += 1
    return re.compile("".join(parts))
