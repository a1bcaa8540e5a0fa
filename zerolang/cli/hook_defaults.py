"""What every path of `zero hook` shares, importing nothing: the lean path (`hook_client`), the work in
process (`hook_exec`), the warm server (`hook_server`) and the typer commands (`hook_cmd`)."""

from __future__ import annotations

RUNTIMES = ("claude-code", "pi")
DEFAULT_TIMEOUT = 10.0
"""Seconds before a hook gives up (changing nothing, exit 0): `--timeout`."""


RECALLS = {
    "claude-code": ("hook_event_name", ("SessionStart", "UserPromptSubmit")),
    "pi": ("event", ("before_agent_start",)),
}
"""Each runtime's events that recall (the key naming the event, the names): what a warm server answers."""


def gave_up(timeout: float) -> str:
    """What a hook says when its time is up."""
    return f"gave up after {timeout:g} s; nothing was changed"
