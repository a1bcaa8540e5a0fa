"""How the CLI shows results and errors: rich on a terminal, plain text in a pipe (zerolang.cli.terminal)."""

from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING, Any

from zerolang.util.escapes import escaped, json_text

__all__ = ["escaped"]  # the one way user data is shown (zerolang.util.escapes), here for the CLI

if TYPE_CHECKING:
    from rich.console import Console

    from zerolang.runtime.interpreter import RunResult
    from zerolang.util.errors import Diagnostic, ZeroError


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
    from zerolang.util.errors import source_excerpt

    head = f"{diagnostic.location()}: {diagnostic.severity.value}: {diagnostic.message} [{diagnostic.code}]"
    lines = [escaped(head, exact=False)]
    if source is not None and diagnostic.span is not None and diagnostic.span.line:
        lines.extend(source_excerpt(source, diagnostic.span))
    sys.stderr.write("\n".join(lines) + "\n")


def print_diff(diff: str) -> None:
    """A unified diff: coloured by rich on a terminal, plain text in a pipe.

    The diff quotes source lines (user data): drawn by rich, each is shown `escaped`; in a pipe
    the diff is exact, for `patch` (zerolang.cli.terminal.write_document).
    """
    if not diff:
        return
    from zerolang.cli.terminal import console, fancy, write_document

    if fancy():
        from rich.syntax import Syntax

        from zerolang.util.escapes import escaped_lines

        shown = escaped_lines(diff, exact=False)
        console().print(Syntax(shown, "diff", theme="ansi_dark", background_color="default"))
    else:
        write_document(diff if diff.endswith("\n") else diff + "\n")


def show_value(value: Any) -> str:
    """A runtime value as the table prints it: strings and hex bare, everything else as JSON.

    The table's type column tells a String "null" from a Null, so quotes would only add noise.
    """
    from zerolang.runtime.values import to_json

    plain = to_json(value)
    if isinstance(plain, str):
        return plain
    return json.dumps(plain, ensure_ascii=False, sort_keys=True)


def print_result(result: RunResult, *, trace: bool) -> None:
    """The outputs as a table, then confidence and hash; in a pipe no value is folded, however long.

    Ids and values are data: shown `escaped` (no markup read, no control character printed).
    """
    from zerolang.cli.terminal import fancy
    from zerolang.runtime.values import type_name

    rows = [
        (escaped(name), type_name(value), escaped(show_value(value)))
        for name, value in result.outputs.items()
    ]
    trace_text = " → ".join(escaped(step) for step in result.trace) if trace else None
    if not fancy():
        plain = plain_result(rows, result.confidence, result.hash, trace_text)
        if plain is not None:
            sys.stdout.write(plain)
            sys.stdout.flush()
            return
    from zerolang.cli.terminal import console

    draw_result(console(), rows, result.confidence, result.hash, trace_text)


def draw_result(
    console: Console, rows: list[tuple[str, str, str]], confidence: float, digest: str, trace: str | None
) -> None:
    """The outputs table, confidence and hash as rich draws them (what `plain_result` must equal).

    Every cell is a rich `Text`, never a markup string: `[red]a` or `:smile:` print as written.
    """
    from rich.table import Table
    from rich.text import Text

    table = Table(title="outputs", title_justify="left", show_lines=False)
    table.add_column("output", style="bold cyan", no_wrap=True)
    table.add_column("type", style="magenta", no_wrap=True)
    table.add_column("value", overflow="fold")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)
    console.print(Text.assemble(("confidence", "bold"), f" {confidence!r}"))
    console.print(Text.assemble(("hash", "bold"), f"       {digest}"), soft_wrap=True)
    if trace is not None:
        console.print(Text.assemble(("trace", "bold"), "      " + trace), soft_wrap=True)


# Text rich prints as it is: printable ASCII, one line, not starting or ending with a blank. Cells are
# rich `Text`, so markup tags and `:emoji:` codes are text too.
_PLAIN_CELL = re.compile(r"(?![ ])[ -~]*(?<![ ])")


def _plain(text: str) -> bool:
    return _PLAIN_CELL.fullmatch(text) is not None


def plain_result(
    rows: list[tuple[str, str, str]], confidence: float, digest: str, trace: str | None
) -> str | None:
    """What rich prints for the outputs table in a pipe (no colour, no width), drawn without rich.

    None when a cell is anything but plain text (`_plain`): rich then draws it, as it
    handles wide characters and line breaks. Importing rich to
    draw three rows costs more than the rest of a small run (tests compare the two).
    """
    cells = [text for row in rows for text in row]
    if trace is not None:
        cells.extend(trace.split(" → "))
    if not all(_plain(text) for text in cells):
        return None
    headers = ("output", "type", "value")
    widths = [
        max([len(header), *(len(row[column]) for row in rows)]) for column, header in enumerate(headers)
    ]
    width = sum(widths) + 3 * len(widths) + 1

    def line(left: str, fill: str, middle: str, right: str) -> str:
        return left + middle.join(fill * (size + 2) for size in widths) + right

    def cells_line(bar: str, texts: tuple[str, ...]) -> str:
        return bar + bar.join(f" {text.ljust(size)} " for text, size in zip(texts, widths, strict=True)) + bar

    lines = [
        "outputs".ljust(width),
        line("┏", "━", "┳", "┓"),
        cells_line("┃", headers),
        line("┡", "━", "╇", "┩"),
    ]
    lines.extend(cells_line("│", row) for row in rows)
    lines.append(line("└", "─", "┴", "┘"))
    lines.append(f"confidence {confidence!r}")
    lines.append(f"hash       {digest}")
    if trace is not None:
        lines.append(f"trace      {trace}")
    return "\n".join(lines) + "\n"


def print_json(document: Any) -> None:
    sys.stdout.write(json_text(document) + "\n")


def say_waits() -> None:
    """From now on, a store that waits for another connection says so on stderr, in one line."""
    from zerolang.memory.opening import tell_waits

    tell_waits(_say_wait)


def _say_wait(message: str) -> None:
    sys.stderr.write(f"zero: {escaped(message)}\n")
    sys.stderr.flush()
