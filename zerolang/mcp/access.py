"""Who the server's archive tools and resources speak as (`zero mcp --policy FILE --as CHANNEL`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ArchiveAccess:
    """Who the server's archive tools speak as: a consent policy file and the caller's channel."""

    policy: str
    channel: str
    clearance: int | None = None
