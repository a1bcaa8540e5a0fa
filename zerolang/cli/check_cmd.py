"""`zero check`: parse and validate graphs (and `.0c` documents) without running them."""

from __future__ import annotations

from typing import Annotated

import typer

from zerolang.cli.options import JSON
from zerolang.cli.typer_options import option


def check(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Files, or folders searched for *.0 and *.0c; `-` reads one document from stdin.",
            show_default=False,
            metavar="PATH...",
        ),
    ],
    as_json: Annotated[
        bool, option(JSON.detailed("Its shape: a list of {path, ok, summary, problems}, one per file."))
    ] = False,
) -> None:
    """Parse and validate each file (.0 graphs, .0c memory documents); exit 1 if any has a problem."""
    from zerolang.cli.check_exec import check_paths
    from zerolang.cli.stdin import BESIDE_OTHERS, beside_others

    if beside_others(paths):
        raise typer.BadParameter(BESIDE_OTHERS, param_hint="PATH")
    code = check_paths(paths, as_json)
    if code:
        raise typer.Exit(code)
