"""Did you mean ...? The one rule every "unknown name" message uses to offer the name meant."""

from __future__ import annotations

import difflib


def suggest(
    name: str, candidates: tuple[str, ...] | list[str], aliases: dict[str, str] | None = None
) -> str | None:
    """The one name `name` most likely meant, or None when nothing is close."""
    if aliases and name in aliases:
        return aliases[name]
    lowered = {candidate.lower(): candidate for candidate in candidates}
    if name.lower() in lowered:
        return lowered[name.lower()]
    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.75)
    if matches:
        return matches[0]
    matches = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[matches[0]] if matches else None
