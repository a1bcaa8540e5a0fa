"""A captured conversation's title: the transcript's own summary, else its first user line.

A Claude Code transcript may open with a `summary` line; pi keeps `compaction` and
`branch_summary` entries (and `branchSummary` / `compactionSummary` messages): each becomes a
contemplation whose `who` names that kind. Without one, the title is the first line a user said.
Either is one line, cut at a word end to at most `TITLE_CHARS` characters (`…` marks a cut).
"""

from __future__ import annotations

from collections.abc import Iterable

from zerolang.experience.model import Experience, Layer

TITLE_CHARS = 72
SUMMARY_SPEAKERS = frozenset(
    {"summary", "compaction", "branch_summary", "branchSummary", "compactionSummary"}
)
"""The `who` of an experience the transcript's own summary became (see the transcript readers)."""


def session_title(experiences: Iterable[Experience], limit: int = TITLE_CHARS) -> str | None:
    """The title of the conversation these experiences open (in turn and layer order), or None when
    they hold neither a summary nor a user's words."""
    said: str | None = None
    for experience in experiences:
        line = first_line(experience.what)
        if not line:
            continue
        if experience.who in SUMMARY_SPEAKERS and experience.layer is Layer.CONTEMPLATION:
            return cut_at_word(line, limit)
        if said is None and experience.layer is Layer.INPUT:
            said = line
    return None if said is None else cut_at_word(said, limit)


def first_line(text: str) -> str:
    """The first line of `text` that holds more than spaces, its runs of spaces made one."""
    for line in text.splitlines():
        if line.strip():
            return " ".join(line.split())
    return ""


def cut_at_word(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else its longest start ending at a word end that
    fits with a trailing `…` (a single long word is cut where it must)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if text[limit - 1] == " ":  # the cut falls between two words
        return head.rstrip() + "…"
    space = head.rfind(" ")
    return (head[:space] if space > 0 else head).rstrip() + "…"
