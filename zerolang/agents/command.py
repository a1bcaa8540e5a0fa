"""The command line a client or an agent runtime should run to start `zero`, wherever it starts it.

Clients (Claude Desktop, an editor, Claude Code's hooks) start `zero` from their own folder and
environment, often without the virtual environment's `bin` on PATH: the command is an absolute
path (this `zero`, else the one on PATH, else this Python running `-m zerolang`), and a store
given as a relative path is made absolute.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path


def zero_program(argv0: str | None = None) -> list[str]:
    """The words that start `zero`: its absolute path, or `python -m zerolang`."""
    first = Path(argv0 if argv0 is not None else sys.argv[0])
    if first.name == "zero" and first.is_file():
        return [str(first.resolve())]
    found = shutil.which("zero")
    if found:
        return [str(Path(found).resolve())]
    return [str(Path(sys.executable).resolve()), "-m", "zerolang"]


def absolute_store(location: str) -> str:
    """A store location as a client started elsewhere must see it: URLs and `:memory:` as given."""
    if "://" in location or location == ":memory:":
        return location
    return str(Path(location).expanduser().resolve())


def shell_line(words: Sequence[str]) -> str:
    return " ".join(shlex.quote(word) for word in words)
