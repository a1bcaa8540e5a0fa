"""`zero lint`: find what breaks a graph or silently loses data, and fix what can be fixed."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from zerolang.cli.completers import rule_codes
from zerolang.cli.options import COLOR
from zerolang.cli.typer_options import (
    ColorOption,
    ExcludeOption,
    ExitZeroOption,
    ExtendExcludeOption,
    OutputFileOption,
    QuietOption,
    StatisticsOption,
    StdinFilenameOption,
)

if TYPE_CHECKING:
    from zerolang.tools.lint.report import Format
    from zerolang.tools.lint.runner import FileResult, Options


class OutputFormat(StrEnum):
    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    GITHUB = "github"


def lint(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Files and folders (searched for *.0 and *.0c); `-` reads stdin; default: the current one.",
            show_default=False,
            metavar="[PATH]...",
        ),
    ] = None,
    fix: Annotated[
        bool, typer.Option("--fix", help="Apply every safe fix, rewriting the file in the canonical style.")
    ] = False,
    unsafe_fixes: Annotated[
        bool, typer.Option("--unsafe-fixes", help="With --fix, also apply the fixes marked unsafe.")
    ] = False,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="Report format.", case_sensitive=False)
    ] = OutputFormat.TEXT,
    select: Annotated[
        list[str] | None,
        typer.Option(
            help="Only these rules: comma-separated codes or prefixes (Z008,Z01), or ALL.",
            metavar="CODES",
            autocompletion=rule_codes,
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            help="Not these rules: comma-separated codes or prefixes.",
            metavar="CODES",
            autocompletion=rule_codes,
        ),
    ] = None,
    explain: Annotated[
        str | None,
        typer.Option(
            "--explain", help="Explain one rule and exit.", metavar="CODE", autocompletion=rule_codes
        ),
    ] = None,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    stdin_filename: StdinFilenameOption = None,
    quiet: QuietOption = False,
    exit_zero: ExitZeroOption = False,
    statistics: StatisticsOption = False,
    output_file: OutputFileOption = None,
    color: ColorOption = COLOR.default,
) -> None:
    """Lint .0 files: what stops a graph from running, and what loses data silently.

    Exit 1 when an error or a warning remains, 0 otherwise. A trailing
    `# zero: noqa` comment silences its line (`# zero: noqa: Z008` only that
    rule); [tool.zero.lint] in pyproject.toml sets select, ignore and
    per-file-ignores, which --select and --ignore override.

    \b
    Rules (zero lint --explain CODE says why each matters):
      Z001  aggregate-node            error    safe fix
      Z002  unknown-node-type         error    safe fix
      Z003  unknown-op                error    safe fix
      Z004  unknown-input             error
      Z005  cycle                     error
      Z006  duplicate-id              error
      Z007  unknown-output            error
      Z008  merge-map-non-map         warning
      Z009  merge-map-key-collision   warning
      Z010  node-level-param          warning  safe fix
      Z011  unused-node               warning  unsafe fix
      Z012  missing-field             error
      Z013  unlisted-input            warning  unsafe fix
      Z014  wrong-kind                error
      Z015  misspelled-key            warning  unsafe fix
      Z016  condition-reads-no-node   warning
      Z017  unreachable-condition     warning
      Z018  permission-without-sender warning
      Z019  unread-param              warning  unsafe fix
      Z020  duplicate-key             error    unsafe fix
      Z021  wrong-input-count         error
    """
    from zerolang.cli.stdin import BESIDE_OTHERS, STDIN, beside_others
    from zerolang.cli.terminal import choose_color, report_to
    from zerolang.tools.lint.report import Format
    from zerolang.tools.lint.runner import Options
    from zerolang.util.walk import Exclusions

    choose_color(color.value)
    if explain is not None:
        typer.echo(_explanation(explain))
        return
    options = Options(
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        select=_selectors(select, "--select"),
        ignore=_selectors(ignore, "--ignore"),
        exclusions=Exclusions.of(exclude, extend_exclude),
    )
    chosen = Format(output_format.value)
    report = Report(chosen, quiet=quiet, statistics=statistics, fix=fix, unsafe=unsafe_fixes)
    given = paths or ([Path(STDIN)] if stdin_filename is not None else [Path(".")])
    if Path(STDIN) in given and beside_others([str(path) for path in given]):
        raise typer.BadParameter(BESIDE_OTHERS, param_hint="PATH")
    with report_to(output_file):
        if given == [Path(STDIN)]:
            found = _lint_stdin(options, report, stdin_filename)
        else:
            found = _lint_files(given, options, report)
    if found and not exit_zero:
        raise typer.Exit(1)


@dataclass(frozen=True, slots=True)
class Report:
    """How the findings are printed: `--format`, `--quiet`, `--statistics`, and what `--fix` did."""

    chosen: Format
    quiet: bool = False
    statistics: bool = False
    fix: bool = False
    unsafe: bool = False

    def text(self, results: list[FileResult]) -> str:
        from zerolang.tools.lint.report import render

        return render(
            results,
            self.chosen,
            fixing=self.fix,
            unsafe=self.unsafe,
            quiet=self.quiet,
            statistics=self.statistics,
        )


def _lint_files(paths: list[Path], options: Options, report: Report) -> int:
    """Lint the files and folders and print the report; how many problems remain."""
    from zerolang.cli.terminal import fancy
    from zerolang.tools.lint.report import Format, remaining
    from zerolang.tools.lint.runner import lint_paths

    results = lint_paths(paths, options)
    if report.chosen is Format.TEXT and not report.statistics and fancy():
        _print_rich(results, report)
    else:
        sys.stdout.write(report.text(results))
    return remaining(results)


def _lint_stdin(options: Options, report: Report, name: str | None) -> int:
    """`zero lint -`: the report on stdout; with --fix, the fixed document on stdout, the report on stderr;
    how many problems remain. `name` (`--stdin-filename`) names the document: its settings and kind."""
    from zerolang.cli.stdin import NAME, is_compact, read_stdin
    from zerolang.tools.lint.report import remaining
    from zerolang.tools.lint.runner import lint_text

    source = read_stdin()
    compact = name.endswith(".0c") if name is not None else is_compact(source)
    result = lint_text(source, name or NAME, options, compact=compact)
    text = report.text([result])
    if options.fix:
        from zerolang.cli.terminal import write_document

        write_document(result.source if result.source is not None else source)
        sys.stderr.write(text)
    else:
        sys.stdout.write(text)
    return remaining([result])


def _selectors(values: list[str] | None, option: str) -> tuple[str, ...] | None:
    """Validated selectors from the command line; a code that matches no rule is a usage error (exit 2)."""
    from zerolang.tools.lint.selection import parse_selectors, unknown_selectors

    if values is None:
        return None
    selectors = parse_selectors(values)
    bad = unknown_selectors(selectors)
    if bad:
        raise typer.BadParameter(f"unknown rule code `{bad[0]}`", param_hint=f"'{option}'")
    return selectors


def _explanation(code: str) -> str:
    from zerolang.tools.lint.rules import RULES
    from zerolang.util.codes import CODES

    wanted = code.strip().upper()
    rule = RULES.get(wanted)
    if rule is None:
        other = CODES.get(wanted)
        if other is None:
            raise typer.BadParameter(f"unknown rule code `{code}`", param_hint="'--explain'")
        compact = wanted.startswith("C")
        where = "error, .0c files" if compact else f"warning, `zero {other.reporter}`"
        head = f"{other.code} {other.name} ({where})"
        summary = other.summary[:1].upper() + other.summary[1:] + "."
        return f"{head}\n\n{summary}\n\nFix: none"
    fix = {
        None: "none",
        "safe": "safe (applied by --fix)",
        "unsafe": "unsafe (applied by --fix --unsafe-fixes)",
    }[rule.fix]
    lines = [f"{rule.code} {rule.name} ({rule.severity})", "", rule.summary, ""]
    if rule.explanation:
        lines += [rule.explanation, ""]
    lines.append(f"Fix: {fix}")
    return "\n".join(lines)


def _print_rich(results: list[FileResult], report: Report) -> None:
    """The text report in colour, on a terminal."""
    from rich.text import Text

    from zerolang.cli.terminal import console as make_console
    from zerolang.tools.lint.report import text

    console = make_console(soft_wrap=True)
    for line in text.render(results, fixing=report.fix, unsafe=report.unsafe, quiet=report.quiet):
        console.print(Text.assemble(*line))
