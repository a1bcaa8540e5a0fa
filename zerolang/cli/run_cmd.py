"""`zero run`: execute a graph and show its outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer


def parse_input_option(option: str) -> tuple[str, Any]:
    """`NAME=TEXT` gives a string, `NAME:=JSON` a typed value (the httpie convention)."""
    from zerolang.errors import ZeroError

    name, equals, text = option.partition("=")
    if not equals or not name or name == ":":
        raise ZeroError(
            f"invalid --input {option!r}: write NAME=TEXT for a string or NAME:=JSON for a typed value"
        )
    if not name.endswith(":"):
        return name, text
    name = name[:-1]
    from zerolang.files import parse_json

    try:
        return name, parse_json(text, f"--input {name}")
    except ZeroError as error:
        if len(option) > 60:
            option = option[:57] + "..."
        reason = error.message.removeprefix("invalid JSON: ")
        if reason != error.message:
            raise ZeroError(
                f"invalid --input {option!r}: the value after := is not JSON ({reason})"
            ) from None
        raise ZeroError(f"invalid --input {option!r}: {reason}") from None


def load_inputs_file(path: Path) -> dict[str, Any]:
    from zerolang.errors import ZeroError
    from zerolang.files import read_json

    document = read_json(path, "file")
    if not isinstance(document, dict):
        raise ZeroError(f"{path}: --inputs must be a JSON object mapping input names to values")
    return document


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
    from zerolang.interpreter import run as run_graph
    from zerolang.limits import Limits
    from zerolang.parser import parse, read_source
    from zerolang.validator import validate_or_raise

    limits = Limits(
        max_value_bytes=_size_option("--max-value-size", max_value_size),
        max_run_bytes=_size_option("--max-memory", max_memory),
    )
    inputs: dict[str, Any] = load_inputs_file(inputs_file) if inputs_file is not None else {}
    for option in input_ or []:
        name, value = parse_input_option(option)
        inputs[name] = value
    from zerolang.cli.stdin import NAME, STDIN, read_stdin

    name = NAME if file == STDIN else file
    source = read_stdin() if file == STDIN else read_source(file)
    graph = parse(source, name)
    validate_or_raise(graph, name, source)
    if runtime is not None:
        _run_external(runtime, source, inputs)
        return
    store = _state_store(state)
    signer = _signer(key)
    memory = None
    clock = None
    if now is not None:
        from zerolang.cli.memory_cmd import as_of

        moment = as_of(now)().timestamp()
        clock = lambda: moment  # noqa: E731
    if db is not None:
        from zerolang.cli.memory_cmd import _open

        memory = _open(db, create=True, space=space)
    try:
        from zerolang.values import from_json

        values = {name: from_json(value) for name, value in inputs.items()}
        result = run_graph(
            graph,
            values,
            max_steps=max_steps,
            state=store,
            signer=signer,
            path=name,
            source=source,
            limits=limits,
            clock=clock,
            memory=memory,
        )
    finally:
        close = getattr(store, "close", None)
        if close is not None:
            close()
        if memory is not None:
            memory.close()
    _warn_unchecked(signer)
    if as_json:
        from zerolang.cli.output import print_json

        print_json(result.to_json())
    else:
        from zerolang.cli.output import print_result

        print_result(result, trace=trace)


def _run_external(command: str, source: str, inputs: dict[str, Any]) -> None:
    """The graph's outputs from an external runtime (`zerolang.memory.runtime.CommandRuntime`), as JSON."""
    import shlex

    from zerolang.cli.output import print_json
    from zerolang.memory.runtime import CommandRuntime

    outputs = CommandRuntime(shlex.split(command)).execute_graph(source, inputs)
    print_json({"outputs": outputs})


def _size_option(name: str, text: str) -> int:
    from zerolang.limits import parse_size

    try:
        size = parse_size(text)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=name) from None
    if size <= 0:
        raise typer.BadParameter("must be more than 0", param_hint=name)
    return size


def _state_store(path: Path | None) -> Any:
    if path is None:
        return None
    from zerolang.state import SqliteStateStore

    return SqliteStateStore(path)


def _warn_unchecked(signer: Any) -> None:
    """Keyless Verify compares the old digest form, which anyone can compute: say so, every time."""
    count = getattr(signer, "unchecked", 0)
    if count:
        typer.echo(
            f"warning: signatures were not checked: no --key, so Verify compared {count} "
            f"signature{'s' if count != 1 else ''} in the old digest form (SHA-256 of the message, "
            "which anyone can compute); pass --key FILE for Ed25519",
            err=True,
        )


def _signer(path: Path | None) -> Any:
    if path is None:
        from zerolang.signing import DigestSigner

        return DigestSigner()
    from zerolang.signing import Ed25519Signer

    return Ed25519Signer.from_key_file(path)
