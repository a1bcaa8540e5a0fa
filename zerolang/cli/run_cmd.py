"""`zero run`: execute a graph and show its outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from zerolang.cli.run_exec import execute


def run(
    file: Annotated[
        str,
        typer.Argument(
            help="The .0 graph to run; `-` reads it from stdin.", show_default=False, metavar="FILE"
        ),
    ],
    input_: Annotated[
        list[str] | None,
        typer.Option(
            "--input",
            "-i",
            metavar="NAME=TEXT|NAME:=JSON",
            help="A run input: NAME=TEXT gives a string, NAME:=JSON a typed value. Repeatable.",
        ),
    ] = None,
    inputs_file: Annotated[
        Path | None, typer.Option("--inputs", metavar="FILE.json", help="A JSON object of run inputs.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object: outputs, trace, confidence, hash.")
    ] = False,
    trace: Annotated[bool, typer.Option("--trace", help="Also print the nodes in execution order.")] = False,
    max_steps: Annotated[
        int, typer.Option("--max-steps", min=1, metavar="N", help="Stop with an error after this many nodes.")
    ] = 10_000,
    max_value_size: Annotated[
        str,
        typer.Option(
            "--max-value-size",
            metavar="SIZE",
            help="Stop with an error when one node's value takes more memory than this (e.g. 256M).",
        ),
    ] = "64M",
    max_memory: Annotated[
        str,
        typer.Option(
            "--max-memory",
            metavar="SIZE",
            help="Stop with an error when all node values together take more than this (e.g. 2G).",
        ),
    ] = "512M",
    state: Annotated[
        Path | None,
        typer.Option("--state", metavar="FILE", help="Persist LoadState/SaveState in this SQLite file."),
    ] = None,
    key: Annotated[
        Path | None, typer.Option("--key", metavar="FILE", help="Ed25519 key (PEM) for real Sign/Verify.")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db", metavar="PATH|URL", help="The memory store the Memory* ops use (none: they fail)."
        ),
    ] = None,
    space: Annotated[str, typer.Option("--space", metavar="NAME", help="The space inside --db.")] = "default",
    now: Annotated[
        str | None, typer.Option("--now", metavar="TIME", help="The run's clock (Timestamp, memory times).")
    ] = None,
    runtime: Annotated[
        str | None,
        typer.Option(
            "--runtime",
            metavar="COMMAND",
            help="Run the graph on an external runtime command (JSON on stdin/stdout; see the README).",
        ),
    ] = None,
) -> None:
    """Run a graph: its outputs as a table, or --json."""
    execute(
        file,
        input_ or [],
        inputs_file,
        as_json=as_json,
        trace=trace,
        max_steps=max_steps,
        max_value_bytes=_size_option("--max-value-size", max_value_size),
        max_run_bytes=_size_option("--max-memory", max_memory),
        state=state,
        key=key,
        db=db,
        space=space,
        now=now,
        runtime=runtime,
    )


def _size_option(name: str, text: str) -> int:
    from zerolang.util.limits import parse_size

    try:
        size = parse_size(text)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=name) from None
    if size <= 0:
        raise typer.BadParameter("must be more than 0", param_hint=name)
    return size
