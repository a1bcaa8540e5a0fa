"""Messages, turn metadata and the pure rules over them (keys, pruning)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from zerolang.util.errors import ZeroError

ROLES = ("system", "user", "assistant", "tool")
DEFAULT_MAX_MESSAGES = 100


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: str
    content: str
    name: str | None = None
    tool_calls: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.name is not None:
            out["name"] = self.name
        if self.tool_calls:
            out["tool_calls"] = list(self.tool_calls)
        return out

    @staticmethod
    def from_json(value: object, where: str = "message") -> ChatMessage:
        if not isinstance(value, dict):
            raise ZeroError(f"{where}: a message must be an object with a role and content")
        role = value.get("role")
        if role not in ROLES:
            raise ZeroError(f"{where}: role must be one of {', '.join(ROLES)}, not {role!r}")
        content = value.get("content")
        if content is None:
            content = ""
        if not isinstance(content, str):
            raise ZeroError(f"{where}: content must be a string")
        name = value.get("name")
        calls = value.get("tool_calls") or []
        if not isinstance(calls, list) or not all(isinstance(call, dict) for call in calls):
            raise ZeroError(f"{where}: tool_calls must be a list of objects")
        return ChatMessage(role, content, name if isinstance(name, str) else None, tuple(calls))


@dataclass(frozen=True, slots=True)
class TurnMeta:
    """The seed's turn metadata schema."""

    iteration: int
    message_count: int
    input_tokens: int
    output_tokens: int
    tool_calls: int
    timestamp: int  # Unix seconds
    messages: tuple[ChatMessage, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "iteration": self.iteration,
            "message_count": self.message_count,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "tool_calls": self.tool_calls,
            "timestamp": self.timestamp,
            "messages": [message.to_json() for message in self.messages],
        }


def conversation_key(agent: str) -> str:
    return f"agent:{agent}:conversation"


def turn_key(agent: str, iteration: int) -> str:
    return f"agent:{agent}:turn:{iteration}"


def agent_prefix(agent: str) -> str:
    return f"agent:{agent}:"


def check_agent(agent: str) -> str:
    if not agent or ":" in agent or agent != agent.strip():
        raise ZeroError(f"agent name {agent!r}: give a non-empty name without ':' or surrounding spaces")
    return agent


def prune(
    history: Sequence[ChatMessage],
    *,
    max_messages: int | None = DEFAULT_MAX_MESSAGES,
    max_tokens: int | None = None,
    count: Callable[[str], int] | None = None,
) -> list[ChatMessage]:
    """Every system message, then the most recent others while both limits hold; order kept.

    System messages always stay, even past a limit; `count` gives a message's
    tokens (cl100k of its content by default).
    """
    kept = kept_indices(history, max_messages=max_messages, max_tokens=max_tokens, count=count)
    return [history[index] for index in kept]


def kept_indices(
    history: Sequence[ChatMessage],
    *,
    max_messages: int | None = DEFAULT_MAX_MESSAGES,
    max_tokens: int | None = None,
    count: Callable[[str], int] | None = None,
) -> list[int]:
    """The indices, in order, of the messages `prune` keeps (for callers that prune richer records)."""
    if max_messages is None and max_tokens is None:
        return list(range(len(history)))
    if count is None:
        from zerolang.util.tokens import count_tokens

        count = count_tokens
    keep = [message.role == "system" for message in history]
    kept = sum(keep)
    tokens = sum(count(m.content) for m in history if m.role == "system") if max_tokens is not None else 0
    for index in range(len(history) - 1, -1, -1):
        message = history[index]
        if message.role == "system":
            continue
        if max_messages is not None and kept >= max_messages:
            break
        if max_tokens is not None:
            cost = count(message.content)
            if tokens + cost > max_tokens:
                break
            tokens += cost
        keep[index] = True
        kept += 1
    return [index for index, wanted in enumerate(keep) if wanted]
