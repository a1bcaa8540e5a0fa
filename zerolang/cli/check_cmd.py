"""`zero check`: parse and validate graphs (and `.0c` documents) without running them."""

from __future__ import annotations

from typing import Annotated

import typer

from zerolang.cli.options import COLOR, JSON
from zerolang.cli.typer_options import (
    ColorOption,
    ExcludeOption,
    ExitZeroOption,
    ExtendExcludeOption,
    OutputFileOption,
    QuietOption,
    StdinFilenameOption,
    option,
)


def check(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Files, or folders searched for *.0 and *.0c; `-` reads one document from stdin;"
            " default: the current folder.",
            show_default=False,
            metavar="[PATH]...",
        ),
    ] = None,
    as_json: Annotated[
        bool, option(JSON.detailed("Its shape: a list of {path, ok, summary, problems}, one per file."))
    ] = False,
    exclude: ExcludeOption = None,
    extend_exclude: ExtendExcludeOption = None,
    stdin_filename: StdinFilenameOption = None,
    quiet: QuietOption = False,
    exit_zero: ExitZeroOption = False,
    output_file: OutputFileOption = None,
    color: ColorOption = COLOR.default,
) -> None:
    """Parse and validate each file (.0 graphs, .0c memory documents); exit 1 if any has a problem."""
    from zerolang.cli.check_exec import check_paths
    from zerolang.cli.stdin import BESIDE_OTHERS, STDIN, beside_others
    from zerolang.cli.terminal import choose_color, report_to
    from zerolang.util.walk import Exclusions

    choose_color(color.value)
    given = paths or ([STDIN] if stdin_filename is not None else ["."])
    if beside_others(given):
        raise typer.BadParameter(BESIDE_OTHERS, param_hint="PATH")
    with report_to(output_file):
        code = check_paths(
            given,
            as_json,
            quiet=quiet,
            stdin_name=stdin_filename,
            exclusions=Exclusions.of(exclude, extend_exclude),
        )
    if code and not exit_zero:
        raise typer.Exit(code)
