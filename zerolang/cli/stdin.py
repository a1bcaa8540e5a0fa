"""`-` as a path: the command reads standard input, as `zero fmt -` always has."""

from __future__ import annotations

import sys
from collections.abc import Sequence

STDIN = "-"
NAME = "<stdin>"
# The usage error of `-` given with other paths (typer's, exit 2; the fast path leaves it to typer).
BESIDE_OTHERS = "`-` (stdin) cannot be combined with other paths"


def beside_others(paths: Sequence[str]) -> bool:
    """Whether `-` is given with other paths: stdin holds one document, so `-` must stand alone."""
    return STDIN in paths and len(paths) > 1


def read_stdin() -> str:
    """All of standard input as UTF-8 text; bytes that are not UTF-8 are a clear error."""
    from zerolang.util.errors import ZeroError

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream with no bytes underneath (a test runner's)
        return sys.stdin.read()
    data = stream.read()
    try:
        return str(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ZeroError(f"{NAME}: not UTF-8 text (byte {error.start})") from None


def is_compact(text: str) -> bool:
    """Whether a document read from stdin is `.0c` (its first real line is a `0M:` header), not `.0`."""
    for line in text.removeprefix("\ufeff").splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("0M:")
    return False
