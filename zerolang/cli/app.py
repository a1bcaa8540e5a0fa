"""The `zero` application: the command table and the error boundary.

Commands are registered lazily: `COMMANDS` names, for each command, the
module and object that implement it and the one-line summary `zero --help`
shows. A command's module is imported only when that command runs (or its
own `--help` is asked for), so `zero --help`, `zero --version` and every
command load only typer and what that one command needs.

Adding a command is one line in `COMMANDS`:

    "ops": Command("zerolang.cli.ops_cmd:ops", "Summary, the first line of the function's docstring."),

The object is either a function written for typer (its parameters annotated
with `typer.Argument`/`typer.Option`; it is wrapped in `reports_errors`) or a
`typer.Typer` holding sub-commands (`zero memory ...`). The summary must equal
the first paragraph of the command's help: `tests/test_cli_startup.py` checks
every entry, imports nothing else, and checks what each command imports.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from importlib import import_module
from typing import Annotated, Any, NamedTuple, ParamSpec

import typer
from typer.core import TyperGroup

from zerolang import __version__

P = ParamSpec("P")
SUMMARY = (
    "The 0-lang toolchain: run, check, format, lint and draw .0 graphs; store, query and export 0-memory."
)


class Command(NamedTuple):
    """Where a command lives (`module:object`) and what `zero --help` says of it."""

    target: str
    summary: str


# The command table, in the order `zero --help` lists it.
COMMANDS: dict[str, Command] = {
    "run": Command("zerolang.cli.run_cmd:run", "Run a graph: its outputs as a table, or --json."),
    "check": Command(
        "zerolang.cli.check_cmd:check",
        "Parse and validate each file (.0 graphs, .0c memory documents); exit 1 if any has a problem.",
    ),
    "fmt": Command("zerolang.cli.fmt_cmd:fmt", "Format .0 and .0c files in place (folders recursively)."),
    "keygen": Command(
        "zerolang.cli.keygen_cmd:keygen",
        "Write a new Ed25519 private key (PEM, mode 0600) for real Sign/Verify.",
    ),
    "lint": Command(
        "zerolang.cli.lint_cmd:lint",
        "Lint .0 files: what stops a graph from running, and what loses data silently.",
    ),
    "viz": Command(
        "zerolang.cli.viz_cmd:viz",
        "Draw a graph: nodes with their id and op or type, edges from inputs, outputs and unknowns marked.",
    ),
    "ops": Command(
        "zerolang.cli.ops_cmd:ops", "List the builtin ops with what each reads and does, or describe one."
    ),
    "completion": Command(
        "zerolang.cli.completion_cmd:completion",
        'Print the shell script that completes `zero` (or --install it): eval "$(zero completion bash)".',
    ),
    "lsp": Command(
        "zerolang.cli.lsp_cmd:lsp",
        "Start the language server: editors run it and talk LSP over stdin and stdout.",
    ),
    "archive": Command(
        "zerolang.cli.archive_cmd:archive_app",
        "The document archive: immutable memory documents by SHA-256, in hot, warm and cold tiers.",
    ),
    "capture": Command(
        "zerolang.cli.capture_cmd:capture",
        "Capture transcripts as experiences: what was said, thought and answered in each turn.",
    ),
    "recall": Command(
        "zerolang.cli.recall_cmd:recall",
        "Recall experiences: the graph index of the hits, short summaries,"
        " and full text for the best that fit.",
    ),
    "convo": Command(
        "zerolang.cli.convo_cmd:convo_app",
        "Conversation memory for agents: store turns, restore history, prune, expire, search.",
    ),
    "query": Command(
        "zerolang.cli.query_cmd:query",
        "Recall from a concept or match triple patterns in the memory database.",
    ),
    "mcp": Command(
        "zerolang.cli.mcp_cmd:mcp",
        "Serve memory to agents over MCP (stdio): get, search, store, recall, query, and the"
        " reference memory server's knowledge-graph tools.",
    ),
    "memory": Command(
        "zerolang.cli.memory_cmd:memory_app",
        "0-memory: compile facts into .0 graphs, store them, get them back by label or hash.",
    ),
}


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


def load_command(name: str) -> Any:
    """Import command `name`'s module and turn its function or sub-app into a click command."""
    module_name, _, attribute = COMMANDS[name].target.partition(":")
    target = getattr(import_module(module_name), attribute)
    if isinstance(target, typer.Typer):
        command = typer.main.get_command(target)
    else:
        single = typer.Typer(add_completion=False, rich_markup_mode=None)
        single.command(name)(reports_errors(target))
        command = typer.main.get_command(single)
    command.name = name
    return command


class LazyGroup(TyperGroup):
    """A group that knows its commands from `COMMANDS` and imports one only when it is used."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = load_command(cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The command list from the table's summaries, without importing any command."""
        from typer._click.utils import make_default_short_help

        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            entry = COMMANDS.get(name)
            if entry is not None:
                rows.append((name, make_default_short_help(entry.summary, limit)))
            else:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return self._click_resolve_command(ctx, args)
        except typer._click.exceptions.UsageError as error:
            from difflib import get_close_matches

            matches = get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches:
                suggestions = ", ".join(repr(match) for match in matches)
                error.message = f"{error.message.rstrip('.')}. Did you mean {suggestions}?"
            raise


app = typer.Typer(
    name="zero",
    cls=LazyGroup,
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


def main() -> None:
    """Entry point: never a traceback. typer reports usage errors itself (exit 2)."""
    import os

    if "_ZERO_COMPLETE" in os.environ:  # the shell asks for completions (zero completion SHELL)
        from typer._completion_classes import completion_init

        completion_init()
    try:
        app(prog_name="zero")
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)
    except Exception as error:  # the last line of defence against a traceback
        sys.stderr.write(f"zero: internal error: {type(error).__name__}: {error}\n")
        sys.stderr.write("Please report this with the input that caused it.\n")
        sys.exit(3)
