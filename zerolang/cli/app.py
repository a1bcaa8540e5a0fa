"""The `zero` application: the command table and the error boundary.

Commands are registered lazily: `COMMANDS` names, for each command, the
module and object that implement it and the one-line summary `zero --help`
shows. A command's module is imported only when that command runs (or its
own `--help` is asked for), so `zero --help`, `zero --version` and every
command load only typer and what that one command needs. The most common
command lines (`zero run FILE -i ...`, `zero check PATH...`) do not even load
typer: `main` runs them through `zerolang.cli.fast`, and the typer
application (`zerolang.cli.typer_app`) is built only for everything else.
An installed agent hook (`zero hook claude-code|pi`, before every prompt)
goes first of all to `zerolang.cli.hook_client`, which imports nothing but
the standard library until it knows whether a warm server answers.

The table itself is `zerolang.cli.commands`.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # `typing` is not imported at run time: the hook's lean path (hook_client) avoids it
    from typing import Any

# The typer application lives in `zerolang.cli.typer_app`, imported only when it is asked for:
# `main` runs the most common command lines without it (`zerolang.cli.fast`).
_TYPER_NAMES = ("app", "load_command", "LazyGroup")


def __getattr__(name: str) -> Any:
    if name in _TYPER_NAMES:
        from zerolang.cli import typer_app

        return getattr(typer_app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point: never a traceback. typer reports usage errors itself (exit 2)."""
    import os

    if "_ZERO_COMPLETE" in os.environ:  # the shell asks for completions (zero completion SHELL)
        from typer._completion_classes import completion_init

        completion_init()
    try:
        if "_ZERO_COMPLETE" not in os.environ:
            if sys.argv[1:2] == ["hook"]:
                from zerolang.cli.hook_client import main as hook

                served = hook(sys.argv[2:])
                if served is not None:
                    sys.exit(served)
            from zerolang.cli.fast import dispatch

            code = dispatch(sys.argv[1:])
            if code is not None:
                sys.exit(code)
        from zerolang.cli.typer_app import app

        app(prog_name="zero")
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)
    except Exception as error:  # the last line of defence against a traceback
        from zerolang.util.escapes import escaped

        sys.stderr.write(
            f"zero: internal error: {type(error).__name__}: {escaped(str(error), exact=False)}\n"
        )
        sys.stderr.write("Please report this with the input that caused it.\n")
        sys.exit(3)
