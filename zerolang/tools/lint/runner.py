"""Linting files and folders: discovery, settings per file, fixing and writing back."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from zerolang.syntax.parser import parse
from zerolang.tools.lint.fixes import fix_source
from zerolang.tools.lint.linter import lint_graph, syntax_finding
from zerolang.tools.lint.model import Finding
from zerolang.tools.lint.selection import enabled_codes
from zerolang.util.config import Settings, settings_for
from zerolang.util.errors import ZeroError, ZeroSyntaxError
from zerolang.util.files import read_text, write_text_atomic
from zerolang.util.walk import Exclusions, find_sources

# The files a folder is searched for: graphs, and 0-memory in the compact format.
SUFFIXES = (".0", ".0c")


@dataclass(slots=True)
class FileResult:
    """One file's outcome: what remains to report, what was fixed, and its (possibly fixed) source."""

    path: str
    source: str | None
    findings: list[Finding]
    fixed: list[Finding] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line asks for; `select`/`ignore` replace the config's when given."""

    fix: bool = False
    unsafe_fixes: bool = False
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    exclusions: Exclusions = field(default_factory=Exclusions)


def discover(paths: list[Path], exclusions: Exclusions | None = None) -> list[Path]:
    """The files to lint; a path that does not exist is an error before anything is linted."""
    for path in paths:
        if not path.exists():
            raise ZeroError(f"{path}: no such file or folder")
    return find_sources(paths, SUFFIXES, exclusions)


def settings_with(options: Options, path: Path) -> Settings:
    """The file's own settings, with the command line's `select` and `ignore` in place of the config's."""
    settings = settings_for(path)
    lint = settings.lint
    if options.select is not None:
        lint = dataclasses.replace(lint, select=options.select)
    if options.ignore is not None:
        lint = dataclasses.replace(lint, ignore=options.ignore)
    return dataclasses.replace(settings, lint=lint)


def lint_file(path: Path, options: Options) -> FileResult:
    """Lint one file (fixing it in place with `options.fix`); a file that does not parse is one finding."""
    name = str(path)
    settings = settings_with(options, path)
    try:
        source = read_text(path, ".0c file" if path.suffix == ".0c" else ".0 file")
    except ZeroError as error:  # not UTF-8, unreadable: reported like a file that does not parse
        error.message = error.message.removeprefix(f"{name}: ")
        return FileResult(name, None, [syntax_finding(error, name)])
    if path.suffix == ".0c":  # the compact memory format has its own checks (zerolang.tools.lint.compact)
        from zerolang.tools.lint.compact import findings
        from zerolang.util.lines import BOM

        source = source.removeprefix(BOM)  # a byte order mark is the file's start, not its header
        return FileResult(name, source, findings(source, name, enabled_codes(settings, path)))
    try:
        if options.fix:
            result = fix_source(source, path, settings, unsafe=options.unsafe_fixes)
            if result.changed:
                write_text_atomic(path, result.source)
            return FileResult(name, result.source, result.findings, result.fixed)
        graph = parse(source, path)
    except ZeroSyntaxError as error:
        return FileResult(name, source, [syntax_finding(error, name)])
    return FileResult(name, source, lint_graph(graph, source, path, settings))


def lint_text(source: str, name: str, options: Options, *, compact: bool = False) -> FileResult:
    """Lint a document that is not a file (stdin): settings from the current folder, fixes in the result."""
    settings = settings_with(options, Path.cwd() / name)
    if compact:
        from zerolang.tools.lint.compact import findings

        return FileResult(name, source, findings(source, name, enabled_codes(settings, Path.cwd() / name)))
    try:
        if options.fix:
            result = fix_source(source, name, settings, unsafe=options.unsafe_fixes)
            return FileResult(name, result.source, result.findings, result.fixed)
        graph = parse(source, name)
    except ZeroSyntaxError as error:
        return FileResult(name, source, [syntax_finding(error, name)])
    return FileResult(name, source, lint_graph(graph, source, name, settings))


def lint_paths(paths: list[Path], options: Options) -> list[FileResult]:
    return [lint_file(path, options) for path in discover(paths, options.exclusions)]
