"""What every path of `zero hook` shares, importing nothing: the lean path (`hook_client`), the work in
process (`hook_exec`), the warm server (`hook_server`) and the typer commands (`hook_cmd`)."""

from __future__ import annotations

RUNTIMES = ("claude-code", "pi")
DEFAULT_TIMEOUT = 10.0
"""Seconds before a hook gives up (changing nothing, exit 0): `--timeout`."""


def gave_up(timeout: float) -> str:
    """What a hook says when its time is up."""
    return f"gave up after {timeout:g} s; nothing was changed"
