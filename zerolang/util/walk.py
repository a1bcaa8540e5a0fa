"""Which files a folder holds for `zero check`, `zero fmt` and `zero lint`: as ruff and black walk one.

- A file named on the command line is taken as given (even when excluded or ignored).
- A folder is searched for the wanted suffixes, skipping what `.gitignore` (and `.ignore`) files
  ignore: those in the folders walked and, inside a git repository, those above them up to its
  root, and `.git/info/exclude`.
- `exclude` globs (default `DEFAULT_EXCLUDE`: hidden folders, Python's caches and virtual
  environments, `node_modules`, `dist`) are skipped too; `--exclude` or `[tool.zero] exclude`
  replace them, `--extend-exclude` and `[tool.zero] extend-exclude` add to them. A folder holding
  `pyvenv.cfg` (a virtual environment under any name) and a VCS's own folder (`.git`, ...) are
  never searched.

Globs are gitignore patterns (`gen/`, `*.draft.0`, `examples/**/old`): one without a `/`
matches a name at any depth; one with a `/` is relative to the folder of the pyproject.toml it is
written in, or the current folder for the command line's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_EXCLUDE: tuple[str, ...] = (
    ".*",
    "__pycache__",
    "__pypackages__",
    "_build",
    "buck-out",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)
"""What a folder's walk skips unless `exclude` says otherwise (ruff's list, less `build`: a folder of
graphs may well be called build; a generated one is in `.gitignore`)."""

NEVER_SEARCHED = frozenset({".git", ".hg", ".svn", ".jj", ".bzr"})


@dataclass(frozen=True, slots=True)
class Exclusions:
    """The command line's `--exclude` (None: not given) and `--extend-exclude` globs."""

    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()

    @staticmethod
    def of(exclude: list[str] | None, extend_exclude: list[str] | None) -> Exclusions:
        """From the command line's values, each a comma-separated list of globs (repeatable)."""

        def globs(values: list[str]) -> tuple[str, ...]:
            return tuple(glob.strip() for value in values for glob in value.split(",") if glob.strip())

        return Exclusions(None if exclude is None else globs(exclude), globs(extend_exclude or []))


@dataclass(frozen=True, slots=True)
class _Rules:
    """Patterns and the folder they are relative to."""

    base: Path
    spec: Any  # pathspec.GitIgnoreSpec
    by_name: bool = False  # patterns naming no folder, matched against an entry's own name

    def check(self, path: Path, is_dir: bool) -> bool | None:
        """True: ignored; False: un-ignored by a `!` pattern; None: no pattern says."""
        try:
            relative = path.name if self.by_name else path.relative_to(self.base).as_posix()
        except ValueError:  # outside its folder: only a pattern naming no folder can match (`venv`)
            relative = path.name
        include: bool | None = self.spec.check_file(relative + ("/" if is_dir else "")).include
        return include


def _rules(base: Path, lines: Iterable[str], *, by_name: bool = False) -> _Rules:
    import pathspec

    return _Rules(base, pathspec.GitIgnoreSpec.from_lines(list(lines)), by_name)


def _globs(base: Path, globs: Iterable[str]) -> list[_Rules]:
    """Exclude globs: those naming no folder (`venv`, `.*`, `*.draft.0`) match an entry's own name, so a
    hidden folder above the one searched (`~/.config/graphs`) excludes nothing; the others match the
    path from `base`."""
    written = list(globs)
    anchored = [glob for glob in written if "/" in glob.strip().rstrip("/")]
    named = [glob for glob in written if glob not in anchored]
    return [_rules(base, named, by_name=True), _rules(base, anchored)]


def find_sources(
    paths: list[Path], suffixes: tuple[str, ...] = (".0",), exclusions: Exclusions | None = None
) -> list[Path]:
    """Files named directly, as given; folders searched for `suffixes`, sorted, without repeats.

    A path that does not exist is returned as given, so the reader reports it in its turn.
    """
    found: list[Path] = []
    seen: set[Path] = set()
    for path in paths:
        for file in sorted(_search(path, suffixes, exclusions or Exclusions())) if path.is_dir() else [path]:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                found.append(file)
    return found


def _excluded(folder: Path, exclusions: Exclusions) -> list[_Rules]:
    """The exclude globs for a walk from `folder`: the command line's, and its pyproject.toml's."""
    from zerolang.util.config import settings_for

    settings = settings_for(folder)
    root = settings.root or Path.cwd()
    cwd = Path.cwd().resolve()
    if exclusions.exclude is not None:
        rules = _globs(cwd, exclusions.exclude)
    elif settings.exclude is not None:
        rules = _globs(root, settings.exclude)
    else:
        rules = _globs(cwd, DEFAULT_EXCLUDE)
    return [*rules, *_globs(root, settings.extend_exclude), *_globs(cwd, exclusions.extend_exclude)]


def _ignore_files(folder: Path) -> list[_Rules]:
    """The `.gitignore` and `.ignore` rules of one folder (and a repository's `.git/info/exclude`)."""
    rules: list[_Rules] = []
    for name in (".git/info/exclude", ".gitignore", ".ignore"):
        file = folder / name
        if file.is_file():
            try:
                lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            rules.append(_rules(folder, lines))
    return rules


def _above(folder: Path) -> list[_Rules]:
    """The ignore rules of the folders above `folder`, up to its git repository's root (none outside one)."""
    chain: list[Path] = []
    for parent in folder.parents:
        chain.append(parent)
        if (parent / ".git").exists():
            return [rules for above in reversed(chain) for rules in _ignore_files(above)]
    return []


def _search(folder: Path, suffixes: tuple[str, ...], exclusions: Exclusions) -> list[Path]:
    absolute = folder.resolve()
    excluded = _excluded(absolute, exclusions)
    files: list[Path] = []
    _walk(folder, absolute, suffixes, excluded, _above(absolute), files)
    return files


def _ignored(path: Path, is_dir: bool, excluded: list[_Rules], ignored: list[_Rules]) -> bool:
    if any(rules.check(path, is_dir) for rules in excluded):
        return True
    verdict: bool | None = None
    for rules in ignored:  # the deepest file that says something decides, as git reads them
        said = rules.check(path, is_dir)
        if said is not None:
            verdict = said
    return bool(verdict)


def _walk(
    folder: Path,
    absolute: Path,
    suffixes: tuple[str, ...],
    excluded: list[_Rules],
    ignored: list[_Rules],
    files: list[Path],
) -> None:
    ignored = [*ignored, *_ignore_files(absolute)]
    for child in folder.iterdir():
        real = absolute / child.name
        if child.is_dir():
            if child.name in NEVER_SEARCHED or (child / "pyvenv.cfg").is_file():
                continue
            if not _ignored(real, True, excluded, ignored):
                _walk(child, real, suffixes, excluded, ignored, files)
        elif child.suffix in suffixes and child.is_file() and not _ignored(real, False, excluded, ignored):
            files.append(child)
