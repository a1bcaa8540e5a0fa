"""The CLI's error boundary: a `ZeroError` becomes one clear line on stderr and exit code 1 (2 for a
`ConfigError`, a bad `[tool.zero]` setting, as ruff exits).

Every command runs behind it (typer's own usage errors exit 2; anything else is
caught by `zerolang.cli.app.main` as an internal error, exit 3).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec

import typer

P = ParamSpec("P")


def reports_errors(command: Callable[P, None]) -> Callable[P, None]:
    """Our errors become one clear message and exit code 1, inside typer so its test runner sees them."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        from zerolang.cli.output import say_waits
        from zerolang.util.errors import ZeroError

        say_waits()  # a command that waits for another writer says so
        try:
            command(*args, **kwargs)
        except ZeroError as error:
            from zerolang.cli.output import print_error

            print_error(error)
            raise typer.Exit(error.exit_code) from None

    return wrapper
