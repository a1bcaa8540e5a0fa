"""`zero hook`: memory inside agent runtimes — the hook commands they run, and their installation.

- `zero hook claude-code`: Claude Code runs it on its hook events (JSON on stdin): it captures
  the transcript's new turns at the end of each reply and puts recalled memory into the model's
  context at the start of a session and with each prompt (`zerolang.agents.claude_code`);
- `zero hook pi`: the same for pi's extension (`zerolang.agents.pi`);
- `zero hook install claude-code|pi [--project|--user] [--uninstall]`: adds (or removes) only
  our entries in Claude Code's settings, or pi's extension file.

A hook command never blocks the agent: whatever fails (bad input, an unreachable store, the time
limit) it exits 0 with one line on stderr, having changed nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec

import typer

from zerolang.agents.context import DEFAULT_BUDGET
from zerolang.cli import hook_exec
from zerolang.cli.errors import reports_errors
from zerolang.cli.hook_defaults import DEFAULT_TIMEOUT, RUNTIMES
from zerolang.cli.typer_options import DbOption, SettledSpaceOption

P = ParamSpec("P")

hook_app = typer.Typer(
    name="hook",
    help="Memory inside agent runtimes: the hooks Claude Code and pi run, and their installation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


Budget = Annotated[
    int,
    typer.Option(
        "--budget", min=1, metavar="TOKENS", help="Recalled memory is at most this many cl100k tokens."
    ),
]
Event = Annotated[
    Path | None,
    typer.Option(
        "--event", metavar="FILE", help="Read the event from FILE, not stdin (to replay a recorded one)."
    ),
]
Timeout = Annotated[
    float,
    typer.Option(
        "--timeout",
        min=0.1,
        metavar="SECONDS",
        help="Give up (changing nothing, exit 0) after this long; under the runtime's own limit.",
    ),
]


@hook_app.command("claude-code")
def claude_code(
    db: DbOption = None,
    space: SettledSpaceOption = None,
    budget: Budget = DEFAULT_BUDGET,
    timeout: Timeout = DEFAULT_TIMEOUT,
    event: Event = None,
) -> None:
    """Claude Code's hook: reads the event's JSON on stdin; captures on Stop and SessionEnd, recalls
    into the context on SessionStart and UserPromptSubmit. Always exits 0."""
    hook_exec.claude_code(db, budget, timeout, event, space=space)


@hook_app.command("pi")
def pi(
    db: DbOption = None,
    space: SettledSpaceOption = None,
    budget: Budget = DEFAULT_BUDGET,
    timeout: Timeout = DEFAULT_TIMEOUT,
    event: Event = None,
) -> None:
    """pi's extension hook: reads {"event", "session_file", "prompt", "cwd"} on stdin; captures on
    agent_end, prints recalled memory on before_agent_start. Always exits 0."""
    hook_exec.pi(db, budget, timeout, event, space=space)


def _guarded(function: Callable[P, None]) -> Callable[P, None]:
    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        reports_errors(function)(*args, **kwargs)

    return wrapper


@hook_app.command("install")
@_guarded
def install(
    runtime: Annotated[str, typer.Argument(help="claude-code or pi.", show_default=False)],
    user: Annotated[
        bool,
        typer.Option("--user/--project", help="For every project of this user, or (default) this project."),
    ] = False,
    shared: Annotated[
        bool,
        typer.Option(
            "--shared",
            help="Claude Code: the project's shared .claude/settings.json instead of this user's"
            " .claude/settings.local.json.",
        ),
    ] = False,
    uninstall: Annotated[bool, typer.Option("--uninstall", help="Remove only what install added.")] = False,
    db: DbOption = None,
    space: SettledSpaceOption = None,
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, metavar="TOKENS", help="The hook's recall budget (default: 1000)."),
    ] = None,
    command: Annotated[
        str | None,
        typer.Option(
            "--command", metavar="PROGRAM", help="How to start zero (default: this zero's absolute path)."
        ),
    ] = None,
) -> None:
    """Install the hooks in Claude Code's settings (.claude/settings.local.json, --shared for
    .claude/settings.json, ~/.claude with --user) or pi's extension (.pi/extensions, or
    ~/.pi/agent/extensions); idempotent; --uninstall removes only ours."""
    from zerolang.agents.command import absolute_store, shell_line, zero_program
    from zerolang.util.errors import ZeroError

    if runtime not in RUNTIMES:
        raise ZeroError(f"unknown runtime {runtime!r}: expected one of {', '.join(RUNTIMES)}")
    import shlex

    program = shlex.split(command) if command else zero_program()
    if not program:
        raise ZeroError("--command is empty")
    options: list[str] = []
    if db is not None:
        options += ["--db", absolute_store(str(db))]
    if space is not None:
        from zerolang.util.spaces import check_space

        check_space(space)
        options += ["--space", space]
    if budget is not None:
        options += ["--budget", str(budget)]
    if runtime == "claude-code":
        from zerolang.agents import claude_settings

        path = claude_settings.settings_path(user=user, shared=shared)
        line = shell_line([*program, "hook", "claude-code", *options])
        changed = claude_settings.update_file(
            path,
            claude_settings.uninstall if uninstall else lambda s: claude_settings.install(s, line),
        )
    else:
        from zerolang.agents import pi_install

        path = pi_install.extension_path(user=user)
        changed = (
            pi_install.remove(path)
            if uninstall
            else pi_install.write(path, [*program, "hook", "pi", *options])
        )
    from zerolang.cli.output import escaped

    what = "removed from" if uninstall else "installed in"
    typer.echo(f"zero hooks {what} {escaped(str(path))}" if changed else f"{escaped(str(path))}: unchanged")
