"""`zero lint`: find what breaks a graph or silently loses data, and fix what can be fixed."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

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
            help="Only these rules: comma-separated codes or prefixes (Z008,Z01), or ALL.", metavar="CODES"
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(help="Not these rules: comma-separated codes or prefixes.", metavar="CODES"),
    ] = None,
    explain: Annotated[
        str | None, typer.Option("--explain", help="Explain one rule and exit.", metavar="CODE")
    ] = None,
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
    from zerolang.tools.lint.report import Format, remaining, render
    from zerolang.tools.lint.runner import Options, lint_paths

    if explain is not None:
        typer.echo(_explanation(explain))
        return
    options = Options(
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        select=_selectors(select, "--select"),
        ignore=_selectors(ignore, "--ignore"),
    )
    chosen = Format(output_format.value)
    if paths is not None and Path(STDIN) in paths:
        if beside_others([str(path) for path in paths]):
            raise typer.BadParameter(BESIDE_OTHERS, param_hint="PATH")
        _lint_stdin(options, chosen)
        return
    results = lint_paths(paths or [Path(".")], options)
    from zerolang.cli.terminal import fancy

    if chosen is Format.TEXT and fancy():
        _print_rich(results, fixing=fix, unsafe=unsafe_fixes)
    else:
        sys.stdout.write(render(results, chosen, fixing=fix, unsafe=unsafe_fixes))
    if remaining(results):
        raise typer.Exit(1)


def _lint_stdin(options: Options, chosen: Format) -> None:
    """`zero lint -`: the report on stdout; with --fix, the fixed document on stdout, the report on stderr."""
    from zerolang.cli.stdin import NAME, is_compact, read_stdin
    from zerolang.tools.lint.report import remaining, render
    from zerolang.tools.lint.runner import lint_text

    source = read_stdin()
    result = lint_text(source, NAME, options, compact=is_compact(source))
    report = render([result], chosen, fixing=options.fix, unsafe=options.unsafe_fixes)
    if options.fix:
        from zerolang.cli.terminal import write_document

        write_document(result.source if result.source is not None else source)
        sys.stderr.write(report)
    else:
        sys.stdout.write(report)
    if remaining([result]):
        raise typer.Exit(1)


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


def _print_rich(results: list[FileResult], *, fixing: bool, unsafe: bool) -> None:
    """The text report in colour, on a terminal."""
    from rich.text import Text

    from zerolang.cli.terminal import console as make_console
    from zerolang.tools.lint.report import text

    console = make_console(soft_wrap=True)
    for line in text.render(results, fixing=fixing, unsafe=unsafe):
        console.print(Text.assemble(*line))
