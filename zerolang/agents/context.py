"""Recalled memory for a model's context: captured experiences related to a text, within a budget.

What a start-of-session or prompt hook puts back into the context: `zero recall`'s rendering
(the graph index of the hits, summaries, then full text for the best that fit, counted in exact
cl100k tokens), without the hits of the session the model is in (they are in its context already)
and nothing at all when nothing relevant was found.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from zerolang.experience.words import terms

if TYPE_CHECKING:
    from zerolang.experience.store import ExperienceStore

DEFAULT_BUDGET = 1000
HEADER = "Relevant memory from earlier sessions (0-memory recall):\n"


def recalled_context(
    store: ExperienceStore,
    query: str,
    *,
    budget: int = DEFAULT_BUDGET,
    limit: int = 20,
    skip_sessions: Collection[str] = (),
) -> str:
    """The rendering of what `query` recalls, at most `budget` tokens with its header; "" for nothing."""
    if not terms(query) or budget < 1:
        return ""
    # Imported here: a hook that captures (after every reply) loads none of recall.
    from zerolang.experience.budget import render
    from zerolang.experience.recall import recall

    hits = [hit for hit in recall(store, query, limit=limit) if hit.experience.session not in skip_sessions]
    if not hits:
        return ""
    from zerolang.util.tokens import count_tokens

    room = budget - count_tokens(HEADER)
    while room > 0:
        rendering = render(store, query, hits, budget=room)
        if not rendering.text or not rendering.items:
            return ""
        text = HEADER + rendering.text
        over = count_tokens(text) - budget
        if over <= 0:  # counted whole: the header and the rendering may tokenize across their join
            return text
        room -= over
    return ""
