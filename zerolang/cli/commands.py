"""The `zero` command table: for each command, the module and object that implement it, and the
one-line summary `zero --help` shows.

A command's module is imported only when that command runs (or its own `--help`
is asked for). Adding a command is one line here:

    "ops": Command("zerolang.cli.ops_cmd:ops", "Summary, the first line of the function's docstring."),

The object is either a function written for typer (its parameters annotated
with `typer.Argument`/`typer.Option`; it is wrapped in `reports_errors`) or a
`typer.Typer` holding sub-commands (`zero memory ...`). The summary must equal
the first paragraph of the command's help: `tests/cli/test_cli_startup.py` checks
every entry, imports nothing else, and checks what each command imports.
"""

from __future__ import annotations

from typing import NamedTuple

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
        "zerolang.cli.archive_app:archive_app",
        "The document archive: immutable memory documents by SHA-256, in hot, warm and cold tiers.",
    ),
    "capture": Command(
        "zerolang.cli.capture_cmd:capture",
        "Capture transcripts as experiences: what was said, thought and answered in each turn.",
    ),
    "remember": Command(
        "zerolang.cli.remember_cmd:remember",
        "Remember one fact: SUBJECT PREDICATE OBJECT, stated now (or --at) from the shell.",
    ),
    "recall": Command(
        "zerolang.cli.recall_cmd:recall",
        "Answer a question from the facts and the conversations together, in one context.",
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
        "zerolang.cli.mcp_cmd:mcp_app",
        "Serve memory to agents over MCP (stdio, or HTTP with --http): get, search, store, recall,"
        " query, and the reference memory server's knowledge-graph tools.",
    ),
    "explore": Command(
        "zerolang.cli.explore_cmd:explore",
        "Explore the memory in the browser: spaces, search, concepts over time, the graph, experiences.",
    ),
    "hook": Command(
        "zerolang.cli.hook_cmd:hook_app",
        "Memory inside agent runtimes: the hooks Claude Code and pi run, and their installation.",
    ),
    "memory": Command(
        "zerolang.cli.memory_app:memory_app",
        "0-memory: compile facts into .0 graphs, store them, get them back by label or hash.",
    ),
}
