"""The command lines run most, read without typer: `zero run FILE ...`, `zero check PATH ...`, `zero query`
and `zero capture FILE ...` (`zero hook claude-code|pi`, what an installed hook runs after every reply
and with every prompt, is read even before: `zerolang.cli.hook_client`).

Importing typer and click and building the command costs more than a small
graph's whole run, so `main` first offers the arguments to `dispatch`. It
accepts only a plain subset of what typer would accept: a few options of the
command, each declared in `zerolang.cli.options` (`accepted` names them),
each given once (`--input` may repeat), and the command's arguments.
It returns None for anything else, including `--help`, every other option and
every usage error: typer then reads the command line as always, so help,
completion and usage messages are typer's own. An option the command line
does not give is what typer makes of it too: the spec's `fallback`, its
environment variable or its default. What it does accept it runs through the
very code the typer command calls (`run_exec.execute`, `check_exec.check_paths`,
`query_exec.execute`), and a ZeroError ends the same way as under typer: the
message and exit code 1. `tests/cli/test_cli_fast.py` compares the two paths' output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when a command line is read: `zero --help` loads no option
    from zerolang.cli.options import OptionSpec

Values = dict[str, Any]


def accepted(command: str) -> tuple[OptionSpec[Any], ...]:
    """The options the fast path reads for `command` (`run`, `check`, `query` or `capture`); any other
    option sends the command line to typer."""
    from zerolang.cli.options import (
        DB,
        EXPERIENCES,
        EXPLAIN,
        INPUT,
        JSON,
        NO_TOUCH,
        NOW,
        SETTLED_SPACE,
        SPACE,
        TRACE,
    )

    return {
        "capture": (DB, SETTLED_SPACE, EXPERIENCES, JSON),
        "run": (INPUT, JSON, TRACE),
        "check": (JSON,),
        "query": (DB, SPACE, NOW, JSON, EXPLAIN, NO_TOUCH),
    }[command]


def read_plain(
    arguments: list[str], options: tuple[OptionSpec[Any], ...], *, stdin: bool
) -> tuple[list[str], Values] | None:
    """The arguments, and each of `options`' values by its name (given, else its `fallback`), when the
    command line holds nothing else; None for any other option, one given twice that may not repeat,
    a value that is missing or starts with `-`, `--`, and `-` unless the command reads `stdin`."""
    import os

    from zerolang.cli.stdin import STDIN

    by_flag = {flag: spec for spec in options for flag in spec.flags}
    given: Values = {}
    positional: list[str] = []
    position = 0
    while position < len(arguments):
        argument = arguments[position]
        position += 1
        flag, equals, value = argument.partition("=") if argument.startswith("--") else (argument, "", "")
        spec = by_flag.get(flag)
        if spec is None:
            if argument.startswith("-") and not (stdin and argument == STDIN):
                return None
            positional.append(argument)
        elif (spec.name in given and not spec.multiple) or (spec.is_flag and equals):
            return None
        elif spec.is_flag:
            given[spec.name] = True
        else:
            if not equals:
                if position == len(arguments) or arguments[position].startswith("-"):
                    return None
                value = arguments[position]
                position += 1
            if spec.multiple:
                given.setdefault(spec.name, []).append(value)
            else:
                given[spec.name] = value
    fallbacks = {spec.name: spec.fallback(os.environ) for spec in options if spec.name not in given}
    return positional, {**given, **fallbacks}


def read_run(arguments: list[str]) -> tuple[str, Values] | None:
    """(file, values) when `zero run` has one file (`-` is stdin) and only the options it `accepted`."""
    read = read_plain(arguments, accepted("run"), stdin=True)
    if read is None or len(read[0]) != 1:
        return None
    return read[0][0], read[1]


def read_check(arguments: list[str]) -> tuple[list[str], Values] | None:
    """(paths, values) when `zero check` has paths (`-` alone is stdin) and only the options it `accepted`."""
    from zerolang.cli.stdin import beside_others

    read = read_plain(arguments, accepted("check"), stdin=True)
    if read is None or not read[0] or beside_others(read[0]):
        return None
    return read


def read_query(arguments: list[str]) -> tuple[str, Values] | None:
    """(query, values) when `zero query` has one query and only the options it `accepted`."""
    read = read_plain(arguments, accepted("query"), stdin=False)
    if read is None or len(read[0]) != 1:
        return None
    return read[0][0], read[1]


def _run(arguments: list[str]) -> int | None:
    read = read_run(arguments)
    if read is None:
        return None
    file, values = read
    from zerolang.cli.options import INPUT, JSON, TRACE
    from zerolang.cli.run_exec import execute

    def run() -> int:
        execute(file, values[INPUT.name] or [], as_json=values[JSON.name], trace=values[TRACE.name])
        return 0

    return _reporting(run)


def _check(arguments: list[str]) -> int | None:
    read = read_check(arguments)
    if read is None:
        return None
    paths, values = read
    from zerolang.cli.check_exec import check_paths
    from zerolang.cli.options import JSON

    return _reporting(lambda: check_paths(paths, values[JSON.name]))


def _query(arguments: list[str]) -> int | None:
    read = read_query(arguments)
    if read is None:
        return None
    text, values = read
    from zerolang.cli.options import DB, EXPLAIN, JSON, NO_TOUCH, NOW, SPACE

    def query() -> int:
        from zerolang.cli.query_exec import execute

        execute(
            text,
            values[DB.name],
            values[SPACE.name],
            as_json=values[JSON.name],
            explain=values[EXPLAIN.name],
            now=values[NOW.name],
            no_touch=values[NO_TOUCH.name],
        )
        return 0

    return _reporting(query)


def read_capture(arguments: list[str]) -> tuple[list[str], Values] | None:
    """(files, values) when `zero capture` has files and only the options it `accepted`."""
    read = read_plain(arguments, accepted("capture"), stdin=False)
    if read is None or not read[0]:
        return None
    return read


def _capture(arguments: list[str]) -> int | None:
    read = read_capture(arguments)
    if read is None:
        return None
    files, values = read
    from zerolang.cli.options import DB, EXPERIENCES, JSON, SETTLED_SPACE

    def capture() -> int:
        from zerolang.cli.capture_exec import execute
        from zerolang.cli.experience_store import stores_of

        stores = stores_of(
            values[DB.name], space=values[SETTLED_SPACE.name], experiences=values[EXPERIENCES.name]
        )
        execute(files, stores, as_json=values[JSON.name])
        return 0

    return _reporting(capture)


_COMMANDS: dict[str, Callable[[list[str]], int | None]] = {
    "run": _run,
    "check": _check,
    "query": _query,
    "capture": _capture,
}


def dispatch(argv: list[str]) -> int | None:
    """Run `zero ARGV` if it is a plain `run`, `check`, `query` or `capture` command line: its exit code;
    else None."""
    command = _COMMANDS.get(argv[0]) if argv else None
    if command is None or not all(map(_is_text, argv)):
        return None  # an argument that is not UTF-8: typer's usage error for a text, or a path
    return command(argv[1:])


def _is_text(argument: str) -> bool:
    """Whether an argument was valid UTF-8 (Python decodes other bytes to lone surrogates)."""
    if argument.isascii():
        return True
    try:
        argument.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _reporting(action: Callable[[], int]) -> int:
    """Run the command; a ZeroError is printed and exits its `exit_code` (1; a ConfigError 2), a closed
    stdout exits 1 quietly (as click)."""
    import errno

    from zerolang.util.errors import ZeroError

    try:
        code = action()
    except ZeroError as error:
        from zerolang.cli.output import print_error

        print_error(error)
        return error.exit_code
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
