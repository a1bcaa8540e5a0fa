"""OpenAI-style chat transcripts: JSON or JSONL of `{role, content}` messages.

Accepted layouts: a JSON list of messages; an object with `messages` (and an
optional `id`); a JSON list of such objects; JSONL with one message per line
(one conversation) or one `{"messages": [...]}` per line (one conversation per
line). Roles `user`, `assistant` (`content`, `tool_calls`, the older
`function_call`, and `reasoning_content` or `reasoning` for its thinking),
`tool`/`function` results; `system`/`developer` prompts are not experiences.
A message's `name` is who spoke; optional `id` and `timestamp` (ISO text or
Unix seconds) are kept.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from zerolang.experience.ids import address, session_id
from zerolang.experience.model import Message, Role, Session
from zerolang.experience.transcripts.jsonlines import (
    Line,
    arguments_text,
    clip,
    shape_error,
    text_of,
)
from zerolang.util.errors import ZeroError

FORMAT = "openai"
_TEXT_PARTS = ("text", "input_text", "output_text")
# named once: a member read off its class is a descriptor call (~0.3 us), paid per message otherwise
_USER, _ASSISTANT, _TOOL = Role.USER, Role.ASSISTANT, Role.TOOL


def parse(lines: list[Line], path: str) -> list[Session]:
    shape = layout(lines)
    if shape == LIST:
        return _from_list(lines[0].value, path, lines[0].line)
    if shape == CONVERSATIONS:
        return [_conversation(line.value, path, line.line) for line in lines]
    messages: list[Message] = []
    for line in lines:
        if not isinstance(line.value, dict) or "role" not in line.value:
            raise shape_error('an OpenAI chat line must be a message object with a "role"', path, line.line)
        messages.extend(_message(line.value, path, line.line))
    native = address({"first": lines[0].value}) if lines else ""
    return [Session(session_id(FORMAT, native), FORMAT, tuple(messages), path)]


LIST, CONVERSATIONS, MESSAGES = "list", "conversations", "messages"


def layout(lines: list[Line]) -> str:
    """How a transcript's lines hold its chats: one JSON list (`LIST`), a `{"messages": [...]}` per
    line (`CONVERSATIONS`), or one message per line, one chat in file order (`MESSAGES`)."""
    if len(lines) == 1 and isinstance(lines[0].value, list):
        return LIST
    if all(isinstance(line.value, dict) and "messages" in line.value for line in lines):
        return CONVERSATIONS
    return MESSAGES


def parse_tail(lines: list[Line], path: str, session: str) -> Session | None:
    """The chat's messages from `lines` on (the last lines of a `MESSAGES` file, from the line a turn
    opens with), as the whole file gives them there; `None` where a line is not a message (reading
    the whole file then says where)."""
    messages: list[Message] = []
    for line in lines:
        if not isinstance(line.value, dict) or "role" not in line.value:
            return None
        try:
            messages.extend(_message(line.value, path, line.line))
        except ZeroError:
            return None
    return Session(session, FORMAT, tuple(messages), path)


def _from_list(items: list[Any], path: str, line: int) -> list[Session]:
    if items and all(isinstance(item, dict) and "messages" in item for item in items):
        return [_conversation(item, path, line) for item in items]
    return [_conversation({"messages": items}, path, line)]


def _conversation(value: dict[str, Any], path: str, line: int) -> Session:
    items = value["messages"]
    if not isinstance(items, list):
        raise shape_error('"messages" must be a list', path, line)
    messages: list[Message] = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("role"), str):
            raise shape_error('each message must be an object with a "role"', path, line)
        messages.extend(_message(item, path, line))
    native = value.get("id")
    if not isinstance(native, str):
        native = address({"first": items[0] if items else None})
    return Session(session_id(FORMAT, native), FORMAT, tuple(messages), path)


def _when(message: dict[str, Any]) -> str | None:
    for field in ("timestamp", "created_at", "created"):
        value = message.get(field)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return datetime.fromtimestamp(value, tz=UTC).isoformat().replace("+00:00", "Z")
    return None


def _message(message: dict[str, Any], path: str, line: int) -> list[Message]:
    role = message.get("role")
    if not isinstance(role, str):
        raise shape_error('a message needs a "role" string', path, line)
    key = message.get("id") if isinstance(message.get("id"), str) else None
    when = _when(message)
    name = message.get("name") if isinstance(message.get("name"), str) else None
    content = message.get("content")
    if role == "user":
        text = text_of(content, path, line, kinds=_TEXT_PARTS)
        return [Message(_USER, name or "user", text, "", (), key, when, line)]  # positional: fewer steps
    if role == "assistant":
        thinking = message.get("reasoning_content") or message.get("reasoning") or ""
        if not isinstance(thinking, str):
            thinking = text_of(thinking, path, line, kinds=(*_TEXT_PARTS, "reasoning"))
        listed = message.get("tool_calls")
        calls = [_call(call, path, line) for call in listed] if listed else []
        if isinstance(message.get("function_call"), dict):
            calls.append(_call({"function": message["function_call"]}, path, line))
        text = text_of(content, path, line, kinds=_TEXT_PARTS)
        return [Message(_ASSISTANT, name or "assistant", text, thinking, tuple(calls), key, when, line)]
    if role in {"tool", "function"}:
        text = clip(text_of(content, path, line, kinds=_TEXT_PARTS))
        return [Message(_TOOL, name or "tool", text, "", (), key, when, line)]
    if role in {"system", "developer"}:
        return []
    raise shape_error(f"unknown message role {role!r}", path, line)


def _call(call: Any, path: str, line: int) -> str:
    if not isinstance(call, dict):
        raise shape_error("a tool call must be an object", path, line)
    function = call.get("function")
    if not isinstance(function, dict):
        raise shape_error('a tool call needs a "function" object', path, line)
    return f"{function.get('name', 'tool')}({arguments_text(function.get('arguments', ''))})"
