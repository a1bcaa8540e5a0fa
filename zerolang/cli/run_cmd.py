"""`zero run`: execute a graph and show its outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from zerolang.cli.options import (
    INPUT,
    JSON,
    MAX_MEMORY,
    MAX_STEPS,
    MAX_VALUE_SIZE,
    NOW,
    RUN_DB,
    RUN_SPACE,
    TRACE,
)
from zerolang.cli.run_exec import execute
from zerolang.cli.typer_options import option, parsed


def run(
    file: Annotated[
        str,
        typer.Argument(
            help="The .0 graph to run; `-` reads it from stdin.", show_default=False, metavar="FILE"
        ),
    ],
    input_: Annotated[list[str] | None, option(INPUT)] = None,
    inputs_file: Annotated[
        Path | None, typer.Option("--inputs", metavar="FILE.json", help="A JSON object of run inputs.")
    ] = None,
    as_json: Annotated[bool, option(JSON.detailed("Its shape: {outputs, trace, confidence, hash}."))] = False,
    trace: Annotated[bool, option(TRACE)] = False,
    max_steps: Annotated[int, option(MAX_STEPS)] = MAX_STEPS.default,
    max_value_size: Annotated[str, option(MAX_VALUE_SIZE)] = MAX_VALUE_SIZE.default,
    max_memory: Annotated[str, option(MAX_MEMORY)] = MAX_MEMORY.default,
    state: Annotated[
        Path | None,
        typer.Option("--state", metavar="FILE", help="Persist LoadState/SaveState in this SQLite file."),
    ] = None,
    key: Annotated[
        Path | None, typer.Option("--key", metavar="FILE", help="Ed25519 key (PEM) for real Sign/Verify.")
    ] = None,
    db: Annotated[str | None, option(RUN_DB)] = None,
    space: Annotated[str | None, option(RUN_SPACE)] = None,
    now: Annotated[
        str | None, option(NOW.detailed("It is the run's clock: Timestamp, memory times."))
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
        max_value_bytes=parsed(MAX_VALUE_SIZE, max_value_size),
        max_run_bytes=parsed(MAX_MEMORY, max_memory),
        state=state,
        key=key,
        db=db,
        space=space,
        now=now,
        runtime=runtime,
    )
