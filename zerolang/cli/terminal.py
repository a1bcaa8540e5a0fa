"""How output looks where it goes: colour by the NO_COLOR / FORCE_COLOR conventions, never cut in a pipe.

`NO_COLOR` (any non-empty value, https://no-color.org) turns colour off even
on a terminal; `FORCE_COLOR` (any non-empty value) turns it on even in a pipe.
Otherwise colour follows whether the stream is a terminal. Where the output is
not a terminal, nothing is wrapped or folded to a width: a 64-hex hash stays
on one line for the next program to read, however long it is.

A document a command writes to stdout (a `.0c` or `.0` export, a compiled graph, an archived
document's canonical bytes, a conversation's JSON Lines, a diff) is written exactly where stdout
is not a terminal (a pipe or a file: whatever FORCE_COLOR says, the next program reads the same
bytes as `-o FILE` would write). On a terminal it is shown `escaped`, as all user data is: a
control character in a label reaches the screen as `\\x1b`, never raw (`write_document`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

# Wide enough that no value is ever folded when the output is not a terminal.
UNLIMITED_WIDTH = 1_000_000


def _stream(stderr: bool) -> TextIO:
    return sys.stderr if stderr else sys.stdout


def is_terminal(stderr: bool = False) -> bool:
    """Whether the stream is an interactive terminal."""
    stream = _stream(stderr)
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


_CHOSEN = {"when": "auto"}  # `--color`: auto, always or never (zerolang.cli.options.COLOR)


def choose_color(when: str) -> None:
    """What `--color` said: `always` and `never` win over the environment; `auto` leaves it to `use_color`."""
    _CHOSEN["when"] = when


def use_color(stderr: bool = False) -> bool:
    """Colour on this stream: `--color always|never` first, then NO_COLOR, then FORCE_COLOR, then
    whether it is a terminal."""
    if _CHOSEN["when"] != "auto":
        return _CHOSEN["when"] == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return is_terminal(stderr)


def fancy(stderr: bool = False) -> bool:
    """Whether to print the rich (coloured, boxed) form rather than plain text."""
    return use_color(stderr) or (is_terminal(stderr) and _CHOSEN["when"] != "never")


def console(stderr: bool = False, **options: object) -> Console:
    """A rich Console for the stream that honours NO_COLOR / FORCE_COLOR and never folds in a pipe."""
    from rich.console import Console

    terminal = is_terminal(stderr)
    color = use_color(stderr)
    settings: dict[str, object] = {
        "stderr": stderr,
        "highlight": False,
        "no_color": not color,
        "force_terminal": color,
        "color_system": "auto" if color else None,
    }
    if not terminal:
        settings["width"] = UNLIMITED_WIDTH
    settings.update(options)
    return Console(**settings)  # type: ignore[arg-type]


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """A line (or lines) of human output, flushed: `typer.echo` for text that may hold user data.

    Each line is shown `escaped` (zerolang.util.escapes; backslashes as written): a control
    character or bidi override in a label, value or file name prints as its escape, never raw.
    A field that must read back exactly is escaped by the caller first (escaping is idempotent).
    """
    from zerolang.util.escapes import escaped_lines

    stream = sys.stderr if err else sys.stdout
    stream.write(escaped_lines(text, exact=False) + ("\n" if nl else ""))
    stream.flush()


def write_document(document: str | bytes) -> None:
    """A document on stdout: its exact text in a pipe or a file, shown `escaped` on a terminal.

    Bytes that are not UTF-8 are shown with their invalid bytes replaced on a terminal; in a pipe
    they are written as they are.
    """
    if not is_terminal():
        if isinstance(document, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(document)
        else:
            sys.stdout.write(document)
        sys.stdout.flush()
        return
    from zerolang.util.escapes import escaped_lines

    text = document.decode("utf-8", "replace") if isinstance(document, bytes) else document
    sys.stdout.write(escaped_lines(text, exact=False))
    sys.stdout.flush()


@contextmanager
def report_to(path: Path | None) -> Iterator[None]:
    """With a path (`--output-file`), what the command prints on stdout goes to that file instead,
    written whole once the command is done (its exit code may still say problems were found); a
    command that fails with an error leaves the file untouched. Without one, stdout as ever."""
    if path is None:
        yield
        return
    import io

    from click.exceptions import Exit

    from zerolang.util.files import write_text_atomic

    buffer = io.StringIO()
    saved, sys.stdout = sys.stdout, buffer
    try:
        yield
    except (Exit, SystemExit):
        sys.stdout = saved
        write_text_atomic(path, buffer.getvalue())
        raise
    except BaseException:
        sys.stdout = saved
        raise
    sys.stdout = saved
    write_text_atomic(path, buffer.getvalue())
