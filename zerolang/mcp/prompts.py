"""`zero mcp`'s prompts: what agents do with memory, as messages a client offers its user.

- `recall_about` (topic): recall what the memory knows about X, from the facts and the conversations;
- `remember_this` (text): store what was said as facts, one subject-predicate-object each;
- `changed_since` (since: `7d`, `12h`, or an ISO date): what the memory learned since then.

Each renders one user message naming the tools to call and with what (`recall`, `store`, `query`),
so an agent that is handed the prompt knows the calls; nothing is read or written by rendering it.
A `since` that is neither a duration nor a date is refused in one line (invalid params).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from pydantic import Field

_DURATION = re.compile(r"[1-9][0-9]{0,5}[smhdw]")

Topic = Annotated[str, Field(description="What to recall: a name, a topic or a question.")]
Text = Annotated[str, Field(description="What to remember, in plain words.")]
Since = Annotated[
    str, Field(description="Since when: a duration back from now (30m, 12h, 7d, 2w) or a date (2026-11-01).")
]


def window(since: str, today: date) -> str:
    """The query clause for "since `since`": `since 7d` for a duration, `between DATE and TODAY` for a
    date; ValueError (one line) for anything else."""
    text = since.strip()
    if _DURATION.fullmatch(text):
        return f"since {text}"
    try:
        day = date.fromisoformat(text[:10]) if len(text) >= 10 else None
    except ValueError:
        day = None
    if day is None or len(text) != 10:
        raise ValueError(f"since {since!r}: a duration (30m, 12h, 7d, 2w) or a date (2026-11-01)")
    if day > today:
        raise ValueError(f"since {since!r}: that date is after today ({today.isoformat()})")
    return f"between {day.isoformat()} and {today.isoformat()}"


def recall_message(topic: str) -> str:
    return (
        f"Recall what the memory knows about {json.dumps(topic, ensure_ascii=False)}.\n"
        f"1. Call `recall` with text {json.dumps(topic, ensure_ascii=False)} (add explain: true to see"
        " why each line came).\n"
        "2. For a concept it names, call `get` with its label as `ref` for every fact it takes part in.\n"
        "Answer only from what these return, say when each fact was true where it says so, and say"
        " plainly what the memory does not know."
    )


def remember_message(text: str) -> str:
    return (
        "Remember this:\n"
        f"{text}\n\n"
        "Break it into facts, each a subject, a predicate (a short verb phrase such as works_at or"
        " prefers) and an object, and store them with one `store` call (tuples: [{subject, predicate,"
        " object}], with a confidence below 1 for what is only likely). Reuse the labels the memory"
        " already has (`recall` first if unsure) and store nothing that is not said here."
    )


def changed_message(clause: str) -> str:
    query = f"match (?s ?p ?o) {clause} limit 100"
    return (
        f"What changed in the memory {clause}?\n"
        f"1. Call `query` with text {json.dumps(query)}: the facts stated in that window.\n"
        f"2. Call `recall` with text {json.dumps('what happened ' + clause)} for the conversations.\n"
        "Summarise what is new, what replaced an older value (and the old value), and what was"
        " retracted; say so if nothing changed."
    )


def add_prompts(server: MCPServer) -> None:
    @server.prompt(
        name="recall_about",
        title="Recall what is known about X",
        description="Recall what the memory knows about a topic: its facts and what was said about it.",
    )
    async def recall_about(topic: Topic) -> str:
        return recall_message(topic)

    @server.prompt(
        name="remember_this",
        title="Remember this",
        description="Store what is said as facts in the memory.",
    )
    async def remember_this(text: Text) -> str:
        return remember_message(text)

    @server.prompt(
        name="changed_since",
        title="What changed since T",
        description="What the memory learned since a time: new facts, replaced values, retractions.",
    )
    async def changed_since(since: Since) -> str:
        try:
            clause = window(since, datetime.now(UTC).date())
        except ValueError as error:  # the caller's mistake, said in one line (not a server error)
            raise MCPError(INVALID_PARAMS, f"changed_since: {error}") from None
        return changed_message(clause)
