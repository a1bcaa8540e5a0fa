"""An OpenAI Agents SDK `Session` on conversation memory: `ZeroSession` (extra `openai-agents`).

    from agents import Agent, Runner
    from zerolang.agents.openai_agents import ZeroSession

    with ZeroSession.open("chat-42", "agent.db", space="alice", max_messages=50, ttl=86400) as session:
        result = await Runner.run(agent, "Hello", session=session)

It implements the SDK's session protocol (`agents.memory.session.Session`: `session_id`,
`session_settings`, `get_items`, `add_items`, `pop_item`, `clear_session`) over
`zerolang.convo`, on any engine (a SQLite file or a `postgresql://` URL):

- the history lives under `agent:{session_id}:conversation`, pruned as conversation memory
  prunes (every system and developer message, then the most recent items within `max_messages`
  and `max_tokens`, counted in cl100k tokens), without a tool output whose call was pruned; each
  message keeps the SDK's own item, so what comes back is what was added;
- every entry expires after `ttl` seconds when given (then the session starts afresh);
- when an item closes a turn (the agent's answer), the turn is stored as
  `agent:{session_id}:turn:{n}` (what `zero convo search` finds) and captured as experiences in
  three layers in the same database (what `zero recall` and the hooks recall);
- what a memory forget blocked is left out of what the session returns.

`clear_session` deletes the conversation's entries; the captured experiences stay (they are the
memory: `zero memory forget` forgets in them). `pop_item` removes the last item of the
history, not an experience already captured. The SDK is imported only for its types, so this
module loads without it; the stores are synchronous and each call is short.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from zerolang.agents.items import ends_turn, item_of, prune_items, stored, to_message, turn_messages
from zerolang.convo.memory import ConversationMemory
from zerolang.convo.model import DEFAULT_MAX_MESSAGES, TurnMeta, conversation_key, turn_key
from zerolang.convo.store import EntryStore
from zerolang.experience.build import add_turn
from zerolang.experience.capture import Extractors
from zerolang.experience.forgotten import Forgotten, forgotten, scrub
from zerolang.experience.ids import session_id, turn_id
from zerolang.experience.model import CaptureBatch, Turn
from zerolang.experience.store import ExperienceStore

if TYPE_CHECKING:
    from agents.items import TResponseInputItem
    from agents.memory import SessionSettings

FORMAT = "openai-agents"  # experiences' session ids: session_id(FORMAT, session_id)


class ZeroSession:
    """An Agents SDK session on 0-memory's conversation memory (see the module's docstring)."""

    def __init__(
        self,
        session_id: str,
        entries: EntryStore,
        experiences: ExperienceStore | None = None,
        *,
        max_messages: int | None = DEFAULT_MAX_MESSAGES,
        max_tokens: int | None = None,
        ttl: float | None = None,
        user: str = "user",
        agent: str = "assistant",
        session_settings: SessionSettings | None = None,
        clock: Callable[[], float] = time.time,
        owns: bool = False,
    ) -> None:
        self.session_id = session_id
        self.session_settings = session_settings
        self.memory = ConversationMemory(
            entries, session_id, max_messages=max_messages, max_tokens=max_tokens, ttl=ttl, clock=clock
        )
        self.experiences = experiences
        self.user = user
        self.agent = agent
        self._owns = owns

    @classmethod
    def open(
        cls,
        session_id: str,
        db: str | Path | None = None,
        *,
        space: str | None = None,
        experiences: str | Path | None = None,
        **options: Any,
    ) -> ZeroSession:
        """A session in the memory `db` names (a SQLite file, created if missing, or a server URL; as
        `--db` on every command), in `space`, its conversations and experiences where that memory
        keeps them (`experiences` names their database apart); each not given as the settings say
        (`zerolang.memory.settings.resolve_stores`). Closing the session closes them."""
        from zerolang.memory.opening import open_conversations_of, open_experiences_of
        from zerolang.memory.settings import resolve_stores

        stores = resolve_stores(db, space=space, experiences=experiences)
        # what the memory purged stays out of what this session writes (as `zero convo` does)
        # (the conversations read the blocked terms the experience store keeps: one database)
        captured = open_experiences_of(stores, create=True)
        try:
            entries = open_conversations_of(stores, create=True, carried=True)
        except BaseException:
            captured.close()
            raise
        try:
            return cls(session_id, entries, captured, owns=True, **options)
        except BaseException:
            entries.close()
            captured.close()
            raise

    # ---- the SDK's session protocol ----
    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The history (pruned), oldest first; the latest `limit` items when given (else the
        session settings' limit)."""
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        items = [item_of(message) for message in self._state()["messages"]]
        if limit is not None:
            items = items[-limit:] if limit > 0 else []
        return items  # type: ignore[return-value]  # the SDK's items are TypedDicts of these dicts

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append items to the history (pruned, stored with the TTL); a turn they close is stored
        and captured."""
        if not items:
            return
        state = self._state()
        added = [stored(item) for item in items]
        read = getattr(self.memory.store, "purged_terms", None)
        purged = Forgotten.of(read()) if read is not None else Forgotten()
        if purged:  # what mentions a purged label is not stored, as in `ConversationMemory.store_turn`
            added = [message for message in added if not purged.mentions_any(message)]
            if not added:
                return
        state["messages"] = self._prune([*state["messages"], *added])
        state["open"] = [*state["open"], *added]
        state["count"] += len(added)
        if ends_turn(item_of(added[-1])):
            self._close_turn(state)
        self._write(state)

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the latest item of the history (None when it is empty)."""
        state = self._state()
        if not state["messages"]:
            return None
        last = state["messages"].pop()
        if state["open"] and state["open"][-1] == last:
            state["open"].pop()
        state["count"] = max(0, state["count"] - 1)
        self._write(state)
        return item_of(last)  # type: ignore[return-value]

    async def clear_session(self) -> None:
        """Delete the conversation's history and turns (the experiences captured stay)."""
        self.memory.forget()

    # ---- the state: one entry, `agent:{session_id}:conversation` ----
    def _state(self) -> dict[str, Any]:
        memory = self.memory
        value = memory.store.get(conversation_key(memory.agent), now=memory.clock())
        kept = scrub(value, forgotten(memory.store)) if value is not None else None
        state = kept or {}
        messages = [m for m in state.get("messages", []) if isinstance(m, dict)]
        return {
            "messages": self._prune(messages),
            "open": [m for m in state.get("open", []) if isinstance(m, dict)],
            "count": int(state.get("count", len(messages))),
            "turns": int(state.get("turns", 0)),
        }

    def _prune(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return prune_items(messages, max_messages=self.memory.max_messages, max_tokens=self.memory.max_tokens)

    def _write(self, state: dict[str, Any]) -> None:
        memory = self.memory
        expiry = None if memory.ttl is None else memory.clock() + memory.ttl
        memory.store.put(conversation_key(memory.agent), state, text="", expires_at=expiry)

    def _close_turn(self, state: dict[str, Any]) -> None:
        """Store the open turn's metadata and messages, and capture it as experiences."""
        from zerolang.util.tokens import count_tokens

        memory = self.memory
        items = [item_of(message) for message in state["open"]]
        chat = [to_message(item) for item in items]
        state["turns"] += 1
        meta = TurnMeta(
            iteration=state["turns"],
            message_count=state["count"],
            input_tokens=sum(count_tokens(m.content) for m in chat if m.role != "assistant"),
            output_tokens=sum(count_tokens(m.content) for m in chat if m.role == "assistant"),
            tool_calls=sum(len(m.tool_calls) for m in chat),
            timestamp=int(memory.clock()),
            messages=tuple(chat),
        )
        expiry = None if memory.ttl is None else memory.clock() + memory.ttl
        text = "\n".join(m.content for m in chat)
        memory.store.put(turn_key(memory.agent, meta.iteration), meta.to_json(), text=text, expires_at=expiry)
        if self.experiences is not None:
            self._capture(items, state["turns"])
        state["open"] = []

    def _capture(self, items: list[dict[str, Any]], number: int) -> None:
        store = self.experiences
        assert store is not None
        session = session_id(FORMAT, self.session_id)
        messages = turn_messages(items, user=self.user, agent=self.agent)
        if not messages:
            return
        last = store.last_turn(session)
        name = f"#{number}"
        turn = Turn(
            turn_id(session, name), session, 0 if last is None else last[1] + 1, name, None, tuple(messages)
        )
        if last is not None and last[0] == turn.id:
            return  # captured already (the same turn closed twice)
        batch = CaptureBatch()
        parts = Extractors()
        add_turn(batch, turn, None if last is None else last[0], affect=parts.affect, concepts=parts.concepts)
        store.add(batch)

    # ---- lifetime ----
    def close(self) -> None:
        """Close the stores when the session opened them (`ZeroSession.open`)."""
        if self._owns:
            self.memory.store.close()
            if self.experiences is not None:
                self.experiences.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ZeroSession({self.session_id!r})"
