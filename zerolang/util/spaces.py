"""Spaces: the named partitions every store keeps its rows in (a tenant, a project, an agent).

A store is always seen from one space; spaces share a database, never their rows.
"""

from __future__ import annotations

import re

from zerolang.util.errors import ZeroError

DEFAULT_SPACE = "default"
"""The space a command, the Python API and MCP use unless told otherwise."""

_SPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}")


def check_space(name: str) -> str:
    """A space name: 1-128 letters, digits and `_ . : @ -`, starting with a letter or digit."""
    if not isinstance(name, str) or not _SPACE.fullmatch(name):
        raise ZeroError(
            f"not a space name: {name!r} (1-128 letters, digits, _ . : @ -, starting with a letter or digit)"
        )
    return name
