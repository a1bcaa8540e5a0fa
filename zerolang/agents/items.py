"""The OpenAI Agents SDK's history items as conversation memory sees them: pure functions.

The SDK keeps a session's history as Responses API input items: messages (`{"role": "user",
"content": "..."}`, or `{"type": "message", "role": "assistant", "content": [{"type":
"output_text", "text": "..."}]}`), `function_call` and `function_call_output` items,
`reasoning` items, and others. Conversation memory stores chat messages (`ChatMessage`: role,
content, tool calls), which prune, search and `zero convo` read; each stored message here keeps
its original item under `item`, so what the SDK gets back is exactly what it gave.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from zerolang.convo.model import ChatMessage, kept_indices
from zerolang.experience.model import Message, Role
from zerolang.experience.transcripts.jsonlines import arguments_text, clip

Item = Mapping[str, Any]
SYSTEM_ROLES = ("system", "developer")


def text_of(item: Item) -> str:
    """What an item says, as text: a message's text parts, a call's `name(arguments)`, a tool's
    output, a reasoning summary; other items as their JSON."""
    kind = item.get("type")
    if "role" in item and kind in (None, "message"):
        return _content_text(item.get("content"))
    if kind == "function_call":
        return f"{item.get('name', '')}({item.get('arguments', '')})"
    if kind == "function_call_output":
        output = item.get("output")
        return output if isinstance(output, str) else _content_text(output)
    if kind == "reasoning":
        return _content_text(item.get("summary")) or _content_text(item.get("content"))
    return json.dumps(item, ensure_ascii=False, sort_keys=True, default=str)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for part in content:
        if isinstance(part, Mapping):
            text = part.get("text", part.get("refusal"))
            if isinstance(text, str):
                parts.append(text)
        elif isinstance(part, str):
            parts.append(part)
    return "\n".join(parts)


def role_of(item: Item) -> str:
    """The chat role an item counts as: system (system and developer messages, which pruning
    keeps), user, assistant (its messages, calls and reasoning) or tool (a call's output)."""
    role = item.get("role")
    if isinstance(role, str) and item.get("type") in (None, "message"):
        return "system" if role in SYSTEM_ROLES else "user" if role == "user" else "assistant"
    kind = str(item.get("type", ""))
    return "tool" if kind.endswith("_output") else "assistant"


def to_message(item: Item) -> ChatMessage:
    """The chat message an item is (a function call as an OpenAI-style tool call)."""
    calls: tuple[dict[str, Any], ...] = ()
    if item.get("type") == "function_call":
        call = {"name": item.get("name", ""), "arguments": item.get("arguments", "")}
        calls = ({"id": item.get("call_id", ""), "type": "function", "function": call},)
    name = item.get("name") if item.get("type") == "function_call_output" else None
    return ChatMessage(role_of(item), text_of(item), name if isinstance(name, str) else None, calls)


def stored(item: Item) -> dict[str, Any]:
    """An item as conversation memory stores it: its chat message, and the item itself."""
    return {**to_message(item).to_json(), "item": dict(item)}


def item_of(message: Mapping[str, Any]) -> dict[str, Any]:
    """The SDK item a stored message holds (a plain chat message when it holds none)."""
    item = message.get("item")
    if isinstance(item, dict):
        return item
    return {"role": message.get("role", "user"), "content": message.get("content", "")}


def prune_items(
    messages: Sequence[Mapping[str, Any]], *, max_messages: int | None, max_tokens: int | None
) -> list[dict[str, Any]]:
    """Stored messages pruned as conversation memory prunes (every system message, then the most
    recent others within both limits), then without a tool output whose call was pruned (the
    Responses API refuses an output without its call)."""
    chat = [ChatMessage.from_json(_chat_part(message)) for message in messages]
    kept = [dict(messages[i]) for i in kept_indices(chat, max_messages=max_messages, max_tokens=max_tokens)]
    calls = {item_of(m).get("call_id") for m in kept if item_of(m).get("type") == "function_call"}
    return [
        m
        for m in kept
        if item_of(m).get("type") != "function_call_output" or item_of(m).get("call_id") in calls
    ]


def _chat_part(message: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in message.items() if key != "item"}


def ends_turn(item: Item) -> bool:
    """Whether an item closes a turn: the agent's answer (an assistant message; a step that also
    calls tools ends with the calls' outputs, so its turn goes on)."""
    return item.get("role") == "assistant" and item.get("type") in (None, "message")


def turn_messages(items: Sequence[Item], *, user: str, agent: str) -> list[Message]:
    """A finished turn's items as transcript messages, in order, for experience capture: the
    user's messages; the agent's consecutive reasoning, tool calls and answers as one message each
    run; each tool's output under its call's name. System messages are left out (as `zero
    capture` leaves them out)."""
    names = {
        item.get("call_id"): str(item.get("name", "tool"))
        for item in items
        if item.get("type") == "function_call"
    }
    out: list[Message] = []
    said: list[str] = []
    thinking: list[str] = []
    calls: list[str] = []

    def flush() -> None:
        if said or thinking or calls:
            out.append(Message(Role.ASSISTANT, agent, "\n".join(said), "\n".join(thinking), tuple(calls)))
        for run in (said, thinking, calls):
            run.clear()

    for item in items:
        role, kind, text = role_of(item), item.get("type"), text_of(item)
        if role == "assistant":
            if kind == "function_call":
                calls.append(f"{item.get('name', 'tool')}({arguments_text(item.get('arguments', ''))})")
            elif kind in (None, "message"):
                said.append(text)
            else:  # reasoning, and what hosted tools did
                thinking.append(text)
            continue
        flush()
        if role == "user":
            out.append(Message(Role.USER, user, text))
        elif role == "tool":
            out.append(Message(Role.TOOL, names.get(item.get("call_id"), "tool"), clip(text)))
    flush()
    return out
