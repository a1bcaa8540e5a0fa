"""`zero run`'s work once its options are read, without typer: the fast path runs it directly.

`zerolang.cli.run_cmd` declares the command's options for typer and calls
`execute`; `zerolang.cli.fast` calls it for the common command lines without
importing typer at all (start-up time).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from zerolang.util.limits import DEFAULT_MAX_RUN_BYTES, DEFAULT_MAX_STEPS, DEFAULT_MAX_VALUE_BYTES


def parse_input_option(option: str) -> tuple[str, Any]:
    """`NAME=TEXT` gives a string, `NAME:=JSON` a typed value (the httpie convention)."""
    from zerolang.util.errors import ZeroError

    name, equals, text = option.partition("=")
    if not equals or not name or name == ":":
        raise ZeroError(
            f"invalid --input {option!r}: write NAME=TEXT for a string or NAME:=JSON for a typed value"
        )
    if not name.endswith(":"):
        return name, text
    name = name[:-1]
    from zerolang.util.files import parse_json

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
    from zerolang.util.errors import ZeroError
    from zerolang.util.files import read_json

    document = read_json(path, "file")
    if not isinstance(document, dict):
        raise ZeroError(f"{path}: --inputs must be a JSON object mapping input names to values")
    return document


def execute(
    file: str,
    input_options: list[str],
    inputs_file: Path | None = None,
    *,
    as_json: bool = False,
    trace: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
    max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES,
    max_run_bytes: int = DEFAULT_MAX_RUN_BYTES,
    state: Path | None = None,
    key: Path | None = None,
    db: str | None = None,
    space: str | None = None,
    now: str | None = None,
    runtime: str | None = None,
) -> None:
    """Parse, validate, run and print one graph; bad input raises a ZeroError."""
    from zerolang.runtime.interpreter import run as run_graph
    from zerolang.runtime.validator import validate_or_raise
    from zerolang.syntax.parser import parse, read_source
    from zerolang.util.limits import Limits

    limits = Limits(max_value_bytes=max_value_bytes, max_run_bytes=max_run_bytes)
    inputs: dict[str, Any] = load_inputs_file(inputs_file) if inputs_file is not None else {}
    from_file = set(inputs)
    for option in input_options:
        name, value = parse_input_option(option)
        inputs[name] = value
        from_file.discard(name)
    from zerolang.cli.stdin import NAME, STDIN, read_stdin

    name = NAME if file == STDIN else file
    source = read_stdin() if file == STDIN else read_source(file)
    graph = parse(source, name)
    validate_or_raise(graph, name, source)
    _check_inputs(graph, name, source, inputs, from_file)
    if runtime is not None:
        _run_external(runtime, source, inputs)
        return
    store = _state_store(state)
    signer = _signer(key)
    memory_store = None
    clock = None
    if now is not None:
        from zerolang.cli.stores import as_of

        moment = as_of(now)().timestamp()
        clock = lambda: moment  # noqa: E731
    if db or os.environ.get("ZERO_MEMORY_DB"):  # a store named (`--db` or $ZERO_MEMORY_DB); no default
        from zerolang.memory.opening import open_facts
        from zerolang.memory.settings import resolve_stores

        memory_store = open_facts(stores=resolve_stores(db, space=space), create=True)
    try:
        from zerolang.runtime.values import from_json

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
            memory=None if memory_store is None else _graph_memory(memory_store),
        )
    finally:
        close = getattr(store, "close", None)
        if close is not None:
            close()
        if memory_store is not None:
            memory_store.close()
    _warn_unchecked(signer)
    if as_json:
        from zerolang.cli.output import print_json

        print_json(result.to_json())
    else:
        from zerolang.cli.output import print_result

        print_result(result, trace=trace)


def _graph_memory(store: Any) -> Any:
    """The store as the graph's `Memory*` ops reach it (loaded only when `--db` names one)."""
    from zerolang.memory.upkeep import graph_memory

    return graph_memory(store)


def _check_inputs(graph: Any, name: str, source: str, inputs: dict[str, Any], from_file: set[str]) -> None:
    """Refuse an `--input` no External node reads; warn about what runs, but not as it reads.

    A key of an `--inputs` file no node reads is only a warning (one file may serve several
    graphs). The warnings change nothing the run computes: Z021 (an op given more or fewer
    inputs than it reads) and a value the op it reaches does not use (a string into `Multiply`).
    """
    from zerolang.cli.output import print_diagnostic
    from zerolang.runtime.arity import input_counts
    from zerolang.runtime.fit import misfits, unread_inputs
    from zerolang.runtime.values import from_json
    from zerolang.util.errors import Severity, ZeroError
    from zerolang.util.escapes import escaped

    unread = unread_inputs(graph, list(inputs))
    refused = [item for item in unread if item.name not in from_file]
    if refused:
        raise ZeroError(f"{name}: --input: {refused[0].message()}")
    for item in unread:
        _warn(escaped(f"{name}: --inputs: {item.message()} (ignored)"))
    for diagnostic in input_counts(graph, name):
        diagnostic.severity = Severity.WARNING
        print_diagnostic(diagnostic, source)
    values = {key: from_json(value) for key, value in inputs.items()}
    for misfit in misfits(graph, values):
        _warn(escaped(f"{name}: {misfit.message()}"))


def _warn(message: str) -> None:
    sys.stderr.write(f"warning: {message}\n")
    sys.stderr.flush()


def _run_external(command: str, source: str, inputs: dict[str, Any]) -> None:
    """The graph's outputs from an external runtime (`zerolang.knowledge.runtime.CommandRuntime`), as JSON."""
    import shlex

    from zerolang.cli.output import print_json
    from zerolang.knowledge.runtime import CommandRuntime

    outputs = CommandRuntime(shlex.split(command)).execute_graph(source, inputs)
    print_json({"outputs": outputs})


def _state_store(path: Path | None) -> Any:
    """The persistent store `--state FILE` names (through the storage registry), or None."""
    if path is None:
        return None
    from zerolang.memory.opening import open_run_state

    return open_run_state(path)


def _warn_unchecked(signer: Any) -> None:
    """Keyless Verify compares the old digest form, which anyone can compute: say so, every time."""
    count = getattr(signer, "unchecked", 0)
    if count:
        sys.stderr.write(
            f"warning: signatures were not checked: no --key, so Verify compared {count} "
            f"signature{'s' if count != 1 else ''} in the old digest form (SHA-256 of the message, "
            "which anyone can compute); pass --key FILE for Ed25519\n"
        )
        sys.stderr.flush()


def _signer(path: Path | None) -> Any:
    if path is None:
        from zerolang.runtime.signing import DigestSigner

        return DigestSigner()
    from zerolang.runtime.signing import Ed25519Signer

    return Ed25519Signer.from_key_file(path)
