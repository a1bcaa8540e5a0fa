"""`zero fmt`: rewrite `.0` and `.0c` files in the canonical style, or check or show what would change."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from zerolang.cli.options import COLOR
from zerolang.cli.terminal import echo, write_document
from zerolang.cli.typer_options import (
    ColorOption,
    ExcludeOption,
    ExtendExcludeOption,
    QuietOption,
    StdinFilenameOption,
)

if TYPE_CHECKING:
    from zerolang.util.walk import Exclusions
from zerolang.util.escapes import escaped

# The files a folder is searched for: graphs, and 0-memory in the compact format.
SUFFIXES = (".0", ".0c")


def fmt(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Files or folders (searched for *.0 and *.0c); `-` reads stdin and writes stdout.",
            show_default=False,
            metavar="[PATH]...",
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 if any file would change.")
    ] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Print a unified diff instead of writing.")] = False,
    compat: Annotated[
        bool,
        typer.Option(
            "--compat",
            help="Print the fully quoted style the old runtime reads; warn about strings it would corrupt.",
        ),
    ] = False,
    line_width: Annotated[
        int | None,
        typer.Option(
            "--line-width",
            min=20,
            max=1000,
            metavar="N",
            help="Override [tool.zero] line-width (default 100).",
        ),
    ] = None,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    stdin_filename: StdinFilenameOption = None,
    quiet: QuietOption = False,
    color: ColorOption = COLOR.default,
) -> None:
    """Format .0 and .0c files in place (folders recursively).

    Exit 1 when a file cannot be formatted, or under --check or --diff when one would change.
    """
    from zerolang.cli.stdin import STDIN
    from zerolang.cli.terminal import choose_color
    from zerolang.util.walk import Exclusions

    choose_color(color.value)
    given = paths or ([STDIN] if stdin_filename is not None else ["."])
    how = How(check=check, diff=diff, compat=compat, line_width=line_width, quiet=quiet)
    code = run_fmt(given, how, stdin_name=stdin_filename, exclusions=Exclusions.of(exclude, extend_exclude))
    if code:
        raise typer.Exit(code)


@dataclass(frozen=True, slots=True)
class How:
    """What `zero fmt` is asked to do with each file."""

    check: bool = False
    diff: bool = False
    compat: bool = False
    line_width: int | None = None
    quiet: bool = False


def run_fmt(
    paths: list[str], how: How, *, stdin_name: str | None = None, exclusions: Exclusions | None = None
) -> int:
    """Format, check or diff each path; the exit code: 1 if a file failed, or would change under --check
    or --diff."""
    from zerolang.cli.stdin import BESIDE_OTHERS, STDIN, beside_others

    check, diff, compat, line_width = how.check, how.diff, how.compat, how.line_width
    if STDIN in paths:
        if beside_others(paths):
            raise typer.BadParameter(BESIDE_OTHERS, param_hint="PATH")
        return _format_stdin(how, stdin_name)
    from zerolang.cli.output import print_error
    from zerolang.util.config import settings_for
    from zerolang.util.errors import ConfigError, ZeroError
    from zerolang.util.files import read_text, write_text_atomic
    from zerolang.util.walk import find_sources

    files = find_sources([Path(path) for path in paths], SUFFIXES, exclusions)
    if not files:
        if not how.quiet:
            echo(f"warning: no .0 or .0c files under {', '.join(paths)}", err=True)
        return 0
    changed = unchanged = failed = 0
    for file in files:
        try:
            text = read_text(file)
            width = line_width or settings_for(file).line_width
            if compat:
                if file.suffix == ".0c":
                    message = "--compat prints .0 graphs for the old runtime; .0c has no such form"
                    raise ZeroError(f"{file}: {message}")
                _print_compat(text, str(file), width)
                continue
            formatted = _format(text, str(file), width)
            if formatted == text:
                unchanged += 1
                continue
            changed += 1
            if diff:
                _print_diff(text, formatted, str(file))
            if check and not how.quiet:
                echo(f"would reformat {escaped(str(file))}")
            elif not diff:
                write_text_atomic(file, formatted)
        except ConfigError:
            raise  # a bad [tool.zero] is the whole run's error (exit 2), not one file's
        except ZeroError as error:
            failed += 1
            print_error(error)
    if not compat and not how.quiet:
        echo(_summary(changed, unchanged, failed, dry=check or diff), err=True)
    return 1 if failed or ((check or diff) and changed) else 0


def _format(text: str, path: str, width: int, *, compact: bool | None = None) -> str:
    from zerolang.util.errors import Severity, ZeroError

    if compact is None:
        compact = path.endswith(".0c")
    if compact:  # compact memory: its own canonical form (zerolang.knowledge.formats)
        from zerolang.knowledge.formats.compact import format_text
        from zerolang.tools.lint.compact import findings, level

        if level(text) != "L2":  # an L0 or L1 export is a lossy view with no other form: checked, kept
            problems = [finding for finding in findings(text, path) if finding.severity is Severity.ERROR]
            if problems:
                raise ZeroError(problems[0].message, path=path, span=problems[0].span, source=text)
            return text
        return format_text(text, path)
    from zerolang.tools.formatter import format_source

    return format_source(text, path, width=width)


def _format_stdin(how: How, name: str | None) -> int:
    """`zero fmt -`: the formatted document on stdout (or its diff, or nothing under --check); `name`
    (`--stdin-filename`) names it: its settings, and whether it is `.0c`."""
    from zerolang.cli.stdin import NAME, is_compact
    from zerolang.util.config import settings_for
    from zerolang.util.files import read_stdin_text

    text = read_stdin_text()
    width = how.line_width or settings_for(Path(name) if name else Path.cwd()).line_width
    shown = name or NAME
    if how.compat:
        _print_compat(text, shown, width)
        return 0
    compact = name.endswith(".0c") if name is not None else is_compact(text)
    formatted = _format(text, shown, width, compact=compact)
    if how.diff:
        _print_diff(text, formatted, shown)
    elif how.check:
        if formatted != text and not how.quiet:
            echo(f"would reformat {escaped(shown)}")
    else:
        write_document(formatted)
    return 1 if (how.check or how.diff) and formatted != text else 0


def _print_compat(text: str, path: str, width: int) -> None:
    from zerolang.cli.output import print_diagnostic
    from zerolang.tools.formatter import to_compat

    result = to_compat(text, path, width=width)
    write_document(result.text)
    for warning in result.warnings:
        print_diagnostic(warning, text)


def _print_diff(before: str, after: str, path: str) -> None:
    import difflib

    from zerolang.cli.output import print_diff

    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        f"{path} (original)",
        f"{path} (formatted)",
    )
    print_diff("".join(lines))


def _summary(changed: int, unchanged: int, failed: int, *, dry: bool) -> str:
    def count(number: int, what: str) -> str:
        return f"{number} file{'s' if number != 1 else ''} {what}"

    parts = [
        count(changed, "would be reformatted" if dry else "reformatted"),
        count(unchanged, "already formatted"),
    ]
    if failed:
        parts.append(count(failed, "could not be formatted"))
    return ", ".join(parts)
