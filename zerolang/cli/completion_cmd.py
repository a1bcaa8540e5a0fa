"""`zero completion`: tab completion of commands, options and paths for bash, zsh, fish and PowerShell.

Completion runs the `zero` program itself with `_ZERO_COMPLETE` set (click's
protocol, through typer's shell scripts); `main` loads typer's completion
classes only then, so an ordinary `zero --help` does not pay for them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

PROG = "zero"
COMPLETE_VAR = "_ZERO_COMPLETE"


class Shell(StrEnum):
    BASH = "bash"
    ZSH = "zsh"
    FISH = "fish"
    POWERSHELL = "powershell"
    PWSH = "pwsh"


def completion(
    shell: Annotated[Shell, typer.Argument(help="The shell to complete in.", case_sensitive=False)],
    install: Annotated[
        bool,
        typer.Option("--install", help="Add it to the shell's startup file instead of printing it."),
    ] = False,
) -> None:
    """Print the shell script that completes `zero` (or --install it): eval "$(zero completion bash)"."""
    # typer's own completion machinery (the modules `typer --install-completion` uses; typer is pinned).
    from typer._completion_classes import completion_init
    from typer._completion_shared import get_completion_script
    from typer._completion_shared import install as install_script

    completion_init()
    if install:
        _, path = install_script(shell=shell.value, prog_name=PROG, complete_var=COMPLETE_VAR)
        typer.echo(f"{shell.value} completion installed in {path}; open a new shell to use it.")
        return
    typer.echo(get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell.value))
