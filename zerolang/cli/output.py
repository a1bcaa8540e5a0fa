"""How the CLI shows results and errors: rich on a terminal, plain text in a pipe (zerolang.cli.terminal)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zerolang.errors import Diagnostic, ZeroError
    from zerolang.interpreter import RunResult


def print_error(error: ZeroError) -> None:
    """`file:line:col: message`, the source line and a caret, on stderr."""
    from zerolang.cli.terminal import console as make_console
    from zerolang.cli.terminal import fancy

    text = error.render()
    if fancy(stderr=True):
        from rich.text import Text

        console = make_console(stderr=True)
        head, _, rest = text.partition("\n")
        console.print(Text("error: ", style="bold red") + Text(head))
        if rest:
            console.print(Text(rest, style="dim"))
    else:
        sys.stderr.write(f"error: {text}\n")


def print_diagnostic(diagnostic: Diagnostic, source: str | None) -> None:
    """A warning or finding: `file:line:col: CODE message`, the line and a caret, on stderr."""
    from zerolang.errors import source_excerpt

    lines = [
        f"{diagnostic.location()}: {diagnostic.severity.value}: {diagnostic.message} [{diagnostic.code}]"
    ]
    if source is not None and diagnostic.span is not None and diagnostic.span.line:
        lines.extend(source_excerpt(source, diagnostic.span))
    sys.stderr.write("\n".join(lines) + "\n")


def print_diff(diff: str) -> None:
    """A unified diff: coloured by rich on a terminal, plain text in a pipe."""
    if not diff:
        return
    from zerolang.cli.terminal import console, fancy

    if fancy():
        from rich.syntax import Syntax

        console().print(Syntax(diff, "diff", theme="ansi_dark", background_color="default"))
    else:
        sys.stdout.write(diff if diff.endswith("\n") else diff + "\n")


def show_value(value: Any) -> str:
    """A runtime value as the table prints it: strings and hex bare, everything else as JSON.

    The table's type column tells a String "null" from a Null, so quotes would only add noise.
    """
    from zerolang.values import to_json

    plain = to_json(value)
    if isinstance(plain, str):
        return plain
    return json.dumps(plain, ensure_ascii=False, sort_keys=True)


def print_result(result: RunResult, *, trace: bool) -> None:
    """The outputs as a table, then confidence and hash; in a pipe no value is folded, however long."""
    from rich.table import Table

    from zerolang.cli.terminal import console as make_console
    from zerolang.values import type_name

    console = make_console()
    table = Table(title="outputs", title_justify="left", show_lines=False)
    table.add_column("output", style="bold cyan", no_wrap=True)
    table.add_column("type", style="magenta", no_wrap=True)
    table.add_column("value", overflow="fold")
    for name, value in result.outputs.items():
        table.add_row(name, type_name(value), show_value(value))
    console.print(table)
    console.print(f"[bold]confidence[/] {result.confidence!r}")
    console.print(f"[bold]hash[/]       {result.hash}", soft_wrap=True)
    if trace:
        console.print("[bold]trace[/]      " + " → ".join(result.trace), soft_wrap=True)


def print_json(document: Any) -> None:
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
