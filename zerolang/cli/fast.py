"""The command lines run most, read without typer: `zero run FILE ...`, `zero check PATH ...`, `zero query`.

Importing typer and click and building the command costs more than a small
graph's whole run, so `main` first offers the arguments to `dispatch`. It
accepts only a plain subset of what typer would accept (the file, `--input`,
`--json`, `--trace` for run; paths and `--json` for check; the query, `--db`,
`--space`, `--now`, `--json`, `--explain`, `--no-touch` for query, each option
once) and returns None for
anything else, including `--help`, every other option and every usage error:
typer then reads the command line as always, so help, completion and usage
messages are typer's own. What it does accept it runs through the very code
the typer command calls (`run_exec.execute`, `check_exec.check_paths`,
`query_exec.execute`), and a
ZeroError ends the same way as under typer: the message and exit code 1.
`tests/test_cli_fast.py` compares the two paths' output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable


def _run_arguments(arguments: list[str]) -> tuple[str, list[str], bool, bool] | None:
    """(file, --input values, --json, --trace) when `zero run` has only those, else None."""
    files: list[str] = []
    inputs: list[str] = []
    as_json = trace = False
    position = 0
    while position < len(arguments):
        argument = arguments[position]
        position += 1
        if argument == "--json":
            as_json = True
        elif argument == "--trace":
            trace = True
        elif argument in ("--input", "-i"):
            if position == len(arguments) or arguments[position].startswith("-"):
                return None
            inputs.append(arguments[position])
            position += 1
        elif argument.startswith("--input="):
            inputs.append(argument.removeprefix("--input="))
        elif argument == "-" or not argument.startswith("-"):
            files.append(argument)
        else:
            return None
    if len(files) != 1:
        return None
    return files[0], inputs, as_json, trace


def _check_arguments(arguments: list[str]) -> tuple[list[str], bool] | None:
    """(paths, --json) when `zero check` has only those, else None."""
    paths: list[str] = []
    as_json = False
    for argument in arguments:
        if argument == "--json":
            as_json = True
        elif argument == "-" or not argument.startswith("-"):
            paths.append(argument)
        else:
            return None
    from zerolang.cli.stdin import beside_others

    if not paths or beside_others(paths):
        return None
    return paths, as_json


_QUERY_VALUES = ("--db", "--space", "--now")
_QUERY_FLAGS = ("--json", "--explain", "--no-touch")


def _query_arguments(arguments: list[str]) -> tuple[str, dict[str, str], set[str]] | None:
    """(query text, {option: value}, {flags}) when `zero query` has only those, each once, else None."""
    texts: list[str] = []
    values: dict[str, str] = {}
    flags: set[str] = set()
    position = 0
    while position < len(arguments):
        argument = arguments[position]
        position += 1
        name, equals, value = argument.partition("=")
        if name in _QUERY_VALUES and name not in values:
            if not equals:
                if position == len(arguments) or arguments[position].startswith("-"):
                    return None
                value = arguments[position]
                position += 1
            values[name] = value
        elif argument in _QUERY_FLAGS and argument not in flags:
            flags.add(argument)
        elif not argument.startswith("-"):
            texts.append(argument)
        else:
            return None
    if len(texts) != 1:
        return None
    return texts[0], values, flags


def _query(arguments: list[str]) -> int | None:
    read = _query_arguments(arguments)
    if read is None:
        return None
    import os

    from zerolang.cli.stores import DB_ENV, SPACE_ENV

    text, values, flags = read
    # As typer reads them: the option, else its environment variable when set and not empty.
    db = values.get("--db", os.environ.get(DB_ENV) or None)
    space = values.get("--space", os.environ.get(SPACE_ENV) or "default")

    def query() -> int:
        from zerolang.cli.query_exec import execute

        execute(
            text,
            db,
            space,
            as_json="--json" in flags,
            explain="--explain" in flags,
            now=values.get("--now"),
            no_touch="--no-touch" in flags,
        )
        return 0

    return _reporting(query)


def dispatch(argv: list[str]) -> int | None:
    """Run `zero ARGV` if it is a plain `run`, `check` or `query` command line: its exit code; else None."""
    if not argv:
        return None
    command, arguments = argv[0], argv[1:]
    if command == "run":
        read = _run_arguments(arguments)
        if read is None:
            return None
        file, inputs, as_json, trace = read
        from zerolang.cli.run_exec import execute

        def run() -> int:
            execute(file, inputs, as_json=as_json, trace=trace)
            return 0

        return _reporting(run)
    if command == "check":
        checked = _check_arguments(arguments)
        if checked is None:
            return None
        paths, as_json = checked
        from zerolang.cli.check_exec import check_paths

        return _reporting(lambda: check_paths(paths, as_json))
    if command == "query":
        return _query(arguments)
    return None


def _reporting(action: Callable[[], int]) -> int:
    """Run the command; a ZeroError is printed and exits 1, a closed stdout exits 1 quietly (as click)."""
    import errno

    from zerolang.util.errors import ZeroError

    try:
        code = action()
    except ZeroError as error:
        from zerolang.cli.output import print_error

        print_error(error)
        return 1
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        _silence_closed_pipe()
        return 1
    return code


def _silence_closed_pipe() -> None:
    """What click does when the reader went away: later flushes of stdout and stderr fail silently."""
    import os

    devnull = open(os.devnull, "w")  # noqa: SIM115  # lives until exit
    sys.stdout = devnull
    sys.stderr = devnull
