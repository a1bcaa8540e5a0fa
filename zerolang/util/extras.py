"""How to install an optional part (an extra), worded as the README and docs/ install it.

zerolang installs from a clone of its repository (`python -m pip install .`); an extra is
`python -m pip install ".[lsp]"` there. Every "needs the X extra" message takes its words from here.
"""

from __future__ import annotations

EXTRAS = ("lsp", "archive", "mcp", "explore", "postgres", "openai-agents", "langgraph")


def install_hint(extra: str) -> str:
    """`python -m pip install ".[lsp]"` (in a clone of zerolang): the command that adds `extra`."""
    if extra not in EXTRAS:
        raise ValueError(f"no extra named {extra}")
    return f'python -m pip install ".[{extra}]" (in a clone of zerolang)'
