"""Recalled memory for a model's context: what memory holds about a text, within a budget.

What a start-of-session or prompt hook puts back into the context: the one recall every surface
gives (`zerolang.memory.asking.answer`, as `zero recall` prints it): the facts as plain lines,
current values first and the past with its periods, then conversation turns as who, when, what;
no hash ids, cut at word ends, counted in exact cl100k tokens with the header. The turns of the
session the model is in are left out (they are in its context already), and nothing at all is
given when nothing relevant was found. Memory is asked once: should the header and the answer
tokenize across their join past the budget, the answer's last lines are left out (`within`), not
asked again with less room.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from zerolang.experience.words import terms

if TYPE_CHECKING:
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.store import MemoryStore

DEFAULT_BUDGET = 1000
HEADER = "Relevant memory from earlier sessions (0-memory recall):\n"

Facts = Callable[[], "MemoryStore | None"]
"""The memory's facts, opened when a recall first needs them (None: the memory holds none yet)."""


def recalled_context(
    store: ExperienceStore,
    query: str,
    *,
    budget: int = DEFAULT_BUDGET,
    skip_sessions: Collection[str] = (),
    facts: Facts | None = None,
) -> str:
    """What `query` recalls from the facts and the conversations, at most `budget` tokens with its
    header; "" for nothing."""
    if not terms(query) or budget < 1:
        return ""
    # Imported here: a hook that captures (after every reply) loads none of recall.
    from zerolang.memory.asking import answer
    from zerolang.util.tokens import count_tokens

    held = None if facts is None else facts()
    room = budget - count_tokens(HEADER)
    if room < 1:
        return ""
    found = answer(query, facts=held, experiences=store, budget=room, skip_sessions=skip_sessions)
    return within(HEADER, found.text.split("\n")[:-1], budget)  # its lines: each ends with a newline


def within(header: str, lines: list[str], budget: int) -> str:
    """`header` and the answer's `lines`, counted whole (the two may tokenize across their join): the
    last lines left out, a heading with nothing under it too, until it fits; "" for no line."""
    from zerolang.memory.asking import HEADS
    from zerolang.util.tokens import count_tokens

    heads = set(HEADS.values())
    while lines:
        text = header + "\n".join(lines) + "\n"
        if count_tokens(text) <= budget:
            return text
        lines = lines[:-1]
        while lines and lines[-1] in heads:
            lines = lines[:-1]
    return ""
