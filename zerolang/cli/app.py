"""The `zero` application: the command table and the error boundary.

Commands are registered lazily: `COMMANDS` names, for each command, the
module and object that implement it and the one-line summary `zero --help`
shows. A command's module is imported only when that command runs (or its
own `--help` is asked for), so `zero --help`, `zero --version` and every
command load only typer and what that one command needs. The most common
command lines (`zero run FILE -i ...`, `zero check PATH...`) do not even load
typer: `main` runs them through `zerolang.cli.fast`, and the typer
application (`zerolang.cli.typer_app`) is built only for everything else.

Adding a command is one line in `COMMANDS`:

    "ops": Command("zerolang.cli.ops_cmd:ops", "Summary, the first line of the function's docstring."),

The object is either a function written for typer (its parameters annotated
with `typer.Argument`/`typer.Option`; it is wrapped in `reports_errors`) or a
`typer.Typer` holding sub-commands (`zero memory ...`). The summary must equal
the first paragraph of the command's help: `tests/test_cli_startup.py` checks
every entry, imports nothing else, and checks what each command imports.
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

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


# The typer application lives in `zerolang.cli.typer_app`, imported only when it is asked for:
# `main` runs the most common command lines without it (`zerolang.cli.fast`).
_TYPER_NAMES = ("app", "load_command", "reports_errors", "LazyGroup")


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
        sys.stderr.write(f"zero: internal error: {type(error).__name__}: {error}\n")
        sys.stderr.write("Please report this with the input that caused it.\n")
        sys.exit(3)
