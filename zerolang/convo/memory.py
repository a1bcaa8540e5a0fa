"""`ConversationMemory`: the seed's restore / store turn / prune / cleanup / search, for one agent.

    memory = ConversationMemory(store, "coder", ttl=3600)
    history = memory.restore()               # before a run: the pruned history, [] if none
    ... run the agent, appending to history ...
    memory.store_turn(history, iteration=1)  # after each turn: history + the turn's metadata

The history is stored pruned (every system message plus the most recent
others, `max_messages` and `max_tokens`). A turn's entry holds the seed's
metadata (iteration, message count, input and output tokens, tool calls,
timestamp) and the messages new since the previous turn, which `search`
matches. Token counts not given are exact cl100k counts of those messages
(input: everything but the assistant's; output: the assistant's). Each entry
may expire (`ttl` seconds): reads skip and delete it, `cleanup` removes all.
Messages that mention a term a memory forget blocked (`experience.forgotten`)
are left out of restore, turns and search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from zerolang.convo.model import (
    DEFAULT_MAX_MESSAGES,
    ChatMessage,
    TurnMeta,
    agent_prefix,
    check_agent,
    conversation_key,
    prune,
    turn_key,
)
from zerolang.convo.store import EntryStore
from zerolang.experience.forgotten import Forgotten, entry_text, forgotten, scrub
from zerolang.experience.words import terms, words
from zerolang.util.errors import ZeroError


@dataclass(frozen=True, slots=True)
class TurnHit:
    key: str
    score: float
    turn: dict[str, Any]
    matched: int | None = None  # the index in the turn's messages of the one the query matched best

    @property
    def message(self) -> dict[str, Any] | None:
        """The message the query matched best (None when the turn has none to show)."""
        messages = self.turn.get("messages")
        if self.matched is None or not isinstance(messages, list) or self.matched >= len(messages):
            return None
        found = messages[self.matched]
        return found if isinstance(found, dict) else None


class ConversationMemory:
    def __init__(
        self,
        store: EntryStore,
        agent: str,
        *,
        max_messages: int | None = DEFAULT_MAX_MESSAGES,
        max_tokens: int | None = None,
        ttl: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.agent = check_agent(agent)
        self.max_messages = max_messages
        self.max_tokens = max_tokens
        self.ttl = check_ttl(ttl)
        self.clock = clock

    def _expiry(self) -> float | None:
        return None if self.ttl is None else self.clock() + self.ttl

    def restore(self) -> list[ChatMessage]:
        """The stored history, pruned to the limits; [] when there is none (or it expired)."""
        value = self.store.get(conversation_key(self.agent), now=self.clock())
        if value is None:
            return []
        kept = scrub(value, self._forgotten()) or {}
        history = [ChatMessage.from_json(item) for item in kept.get("messages", [])]
        return prune(history, max_messages=self.max_messages, max_tokens=self.max_tokens)

    def store_turn(
        self,
        history: Sequence[ChatMessage],
        *,
        iteration: int | None = None,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        timestamp: int | None = None,
    ) -> TurnMeta:
        """Store the history (pruned) and this turn's metadata; the iteration defaults to the next one."""
        now = self.clock()
        previous = self._turns()
        if iteration is None:
            iteration = (max(previous) + 1) if previous else 1
        earlier = [n for n in previous if n < iteration]
        before = self.store.get(turn_key(self.agent, earlier[-1]), now=now) if earlier else None
        last_count = int(before.get("message_count", 0)) if before else 0
        new = list(history[last_count:]) if last_count <= len(history) else list(history)
        if input_tokens is None or output_tokens is None:
            from zerolang.util.tokens import count_tokens

            if input_tokens is None:
                input_tokens = sum(count_tokens(m.content) for m in new if m.role != "assistant")
            if output_tokens is None:
                output_tokens = sum(count_tokens(m.content) for m in new if m.role == "assistant")
        meta = TurnMeta(
            iteration=iteration,
            message_count=len(history),
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            tool_calls=sum(len(m.tool_calls) for m in new),
            timestamp=int(now) if timestamp is None else timestamp,
            messages=tuple(new),
        )
        purged = self._purged()  # what mentions a purged label is not stored
        if purged:
            meta = replace(meta, messages=tuple(m for m in new if not purged.mentions_any(m.to_json())))
            history = [m for m in history if not purged.mentions_any(m.to_json())]
            new = list(meta.messages)
        kept = prune(history, max_messages=self.max_messages, max_tokens=self.max_tokens)
        expiry = self._expiry()
        self.store.put(
            conversation_key(self.agent),
            {"messages": [m.to_json() for m in kept]},
            text="",
            expires_at=expiry,
        )
        text = "\n".join(m.content for m in new)
        self.store.put(turn_key(self.agent, iteration), meta.to_json(), text=text, expires_at=expiry)
        return meta

    def _turns(self) -> list[int]:
        prefix = agent_prefix(self.agent) + "turn:"
        out = []
        for key in self.store.keys(prefix, now=self.clock()):
            tail = key[len(prefix) :]
            if tail.isdigit():
                out.append(int(tail))
        return sorted(out)

    def turns(self) -> list[dict[str, Any]]:
        """Every live turn's metadata, in iteration order."""
        now = self.clock()
        blocked = self._forgotten()
        out = []
        for iteration in self._turns():
            value = self.store.get(turn_key(self.agent, iteration), now=now)
            kept = None if value is None else scrub(value, blocked)
            if kept is not None:
                out.append(kept)
        return out

    def search(self, query: str, limit: int = 10) -> list[TurnHit]:
        """Turns whose messages match the query's words (full text, bm25), best first."""
        now = self.clock()
        prefix = agent_prefix(self.agent) + "turn:"
        blocked = self._forgotten()
        hits = []
        for key, score in self.store.search(prefix, terms(query), limit, now=now):
            value = self.store.get(key, now=now)
            kept = None if value is None else scrub(value, blocked)
            if kept is None or (kept is not value and not _still_matches(kept, query)):
                continue  # gone, or only what a forget blocked matched
            hits.append(TurnHit(key, round(score, 4), kept, best_message(kept, query)))
        return hits

    def _forgotten(self) -> Forgotten:
        """The terms a memory forget blocked (none when the store keeps no such record)."""
        return forgotten(self.store)

    def _purged(self) -> Forgotten:
        """The terms purges blocked (none when the store keeps no such record)."""
        read = getattr(self.store, "purged_terms", None)
        return Forgotten.of(read()) if read is not None else Forgotten()

    def cleanup(self) -> int:
        """Delete this agent's expired entries; how many went."""
        return self.store.cleanup(agent_prefix(self.agent), now=self.clock())

    def forget(self) -> int:
        """Delete everything stored for this agent (asked for explicitly)."""
        return self.store.delete(agent_prefix(self.agent))


def check_ttl(seconds: float | None, name: str = "ttl") -> float | None:
    """How long entries live: a finite number of seconds above 0 (0 would store them expired), or
    None (for ever); anything else is a ZeroError naming `name`."""
    import math

    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
        raise ZeroError(f"{name}: not a number of seconds: {seconds!r}")
    if seconds <= 0:
        raise ZeroError(f"{name}: entries must live more than 0 seconds, not {seconds:g}")
    return seconds


def _still_matches(entry: dict[str, Any], query: str) -> bool:
    """Whether what is left of an entry after a forget still has a word of the query."""
    wanted = [term.lower() for term in terms(query)]
    return any(_close(word.lower(), term) for word in words(entry_text(entry)) for term in wanted)


def _close(word: str, term: str) -> bool:
    """A word of a text matches a query's term: the same word, one a prefix of the other, or sharing
    five letters (close to what the stemmed full-text search matched)."""
    return word.startswith(term) or term.startswith(word) or (len(term) >= 5 and word[:5] == term[:5])


def best_message(entry: dict[str, Any], query: str) -> int | None:
    """The index of the entry's message that holds the most of the query's terms (the first of
    equals; a message other than a system one when no message holds any); None without messages."""
    messages = entry.get("messages")
    if not isinstance(messages, list):
        return None
    wanted = sorted({term.lower() for term in terms(query)})
    best, most = None, 0
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        said = {word.lower() for word in words(str(message.get("content") or ""))}
        found = sum(1 for term in wanted if any(_close(word, term) for word in said))
        if found > most:
            best, most = index, found
    if best is not None:
        return best
    shown = [
        index
        for index, message in enumerate(messages)
        if isinstance(message, dict) and message.get("content") and message.get("role") != "system"
    ]
    return shown[0] if shown else None
