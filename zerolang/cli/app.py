"""The `zero` application: the command table and the error boundary.

Commands import their machinery inside the function body, so `zero --help`
and `zero --version` load only typer.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Annotated, ParamSpec

import typer

from zerolang import __version__

P = ParamSpec("P")
SUMMARY = (
    "The 0-lang toolchain: run, check, format, lint and draw .0 graphs; store, query and export 0-memory."
)

app = typer.Typer(
    name="zero",
    help=SUMMARY,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help: rich-formatted help costs ~0.3 s of imports on every `zero --help`.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"zero {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """The 0-lang toolchain."""


def reports_errors(command: Callable[P, None]) -> Callable[P, None]:
    """Our errors become one clear message and exit code 1, inside typer so its test runner sees them."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        from zerolang.errors import ZeroError

        try:
            command(*args, **kwargs)
        except ZeroError as error:
            from zerolang.cli.output import print_error

            print_error(error)
            raise typer.Exit(1) from None

    return wrapper


def _register() -> None:
    from zerolang.cli import check_cmd, fmt_cmd, keygen_cmd, lint_cmd, memory_cmd, query_cmd, run_cmd, viz_cmd

    app.command("run")(reports_errors(run_cmd.run))
    app.command("check")(reports_errors(check_cmd.check))
    app.command("fmt")(reports_errors(fmt_cmd.fmt))
    app.command("keygen")(reports_errors(keygen_cmd.keygen))
    app.command("lint")(reports_errors(lint_cmd.lint))
    app.command("viz")(reports_errors(viz_cmd.viz))
    app.add_typer(memory_cmd.memory_app, name="memory")
    app.command("query")(reports_errors(query_cmd.query))
    from zerolang.cli import capture_cmd, convo_cmd, recall_cmd

    app.command("capture")(reports_errors(capture_cmd.capture))
    app.command("recall")(reports_errors(recall_cmd.recall))
    app.add_typer(convo_cmd.convo_app, name="convo")


_register()


def main() -> None:
    """Entry point: never a traceback. typer reports usage errors itself (exit 2)."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)
    except Exception as error:  # the last line of defence against a traceback
        sys.stderr.write(f"zero: internal error: {type(error).__name__}: {error}\n")
        sys.stderr.write("Please report this with the input that caused it.\n")
        sys.exit(3)
