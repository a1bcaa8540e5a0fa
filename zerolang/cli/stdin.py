"""`-` as a path: the command reads standard input, as `zero fmt -` always has."""

from __future__ import annotations

import sys

STDIN = "-"
NAME = "<stdin>"


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
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("0M:")
    return False
