"""`zero check`: parse and validate graphs without running them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def check(
    files: Annotated[
        list[Path], typer.Argument(help="The .0 files to check.", show_default=False, metavar="FILE...")
    ],
) -> None:
    """Parse and validate each file (.0 graphs, .0c memory documents); exit 1 if any has a problem."""
    from zerolang.cli.output import print_error
    from zerolang.errors import ValidationError, ZeroError
    from zerolang.parser import parse, read_source
    from zerolang.validator import validate

    failed = 0
    for file in files:
        try:
            source = read_source(file)
            if file.suffix == ".0c":
                typer.echo(f"{file}: ok ({_check_compact(source, str(file))})")
                continue
            graph = parse(source, file)
            problems = validate(graph, str(file))
            if problems:
                raise ValidationError(problems, source=source)
        except ZeroError as error:
            failed += 1
            print_error(error)
            continue
        typer.echo(f"{file}: ok ({len(graph.nodes)} nodes)")
    if failed:
        verb = "has" if failed == 1 else "have"
        typer.echo(f"{failed} of {len(files)} files {verb} problems", err=True)
        raise typer.Exit(1)


def _check_compact(source: str, path: str) -> str:
    """A `.0c` document parses and every hash it implies is recomputed: what it holds, in words."""
    from zerolang.formats.compact import parse as parse_compact
    from zerolang.formats.levels import level_of

    level = level_of(source)
    if str(level) != "L2":
        return f"{level} document: a lossy export, checked by `zero lint`"
    snapshot = parse_compact(source, path)
    return f"{len(snapshot.concepts)} concepts, {len(snapshot.relations)} relations"
