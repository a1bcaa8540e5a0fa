"""Where a memory keeps its experiences, for tests that read them directly: `--db` names the memory on
every command, and its experiences are found from it (`zerolang.memory.settings.resolve_stores`)."""

from __future__ import annotations

from pathlib import Path


def experiences_of(db: str | Path) -> str:
    """The experience database the memory `db` goes with (the environment left out)."""
    from zerolang.memory.settings import resolve_stores

    return str(resolve_stores(str(db), environ={}).experiences.target)
