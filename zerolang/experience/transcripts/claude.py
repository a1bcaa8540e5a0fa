"""Claude Code session files (JSONL).

Each line is an entry with `uuid`, `parentUuid`, `sessionId`, `timestamp` and a
`message` in Anthropic's shape: user content a string or blocks (`text`,
`tool_result`), assistant content blocks `text`, `thinking`, `tool_use`.
Claude Code writes one line per assistant block, all with the same
`message.id`: they are one message again here. The conversation is the path
from the last entry back to the root; sidechain (sub-agent) and meta entries
are not part of it; `summary` lines are kept as what the agent remembered.
"""

from __future__ import annotations

from typing import Any

from zerolang.experience.ids import address, session_id
from zerolang.experience.model import Message, Role, Session
from zerolang.experience.transcripts import tree
from zerolang.experience.transcripts.jsonlines import (
    Fields,
    Line,
    arguments_text,
    clip,
    shape_error,
    text_of,
    whole,
)
from zerolang.experience.transcripts.tree import Chain

FORMAT = "claude-code"


def fields() -> Fields:
    """What `parse`, `chain` and `parse_tail` read of a line not on the conversation's path: its
    type, id and parent, the flags that leave it out when set, the first session id; a summary
    line whole. The rest is read again (`jsonlines.whole`) for the lines on the path."""
    session = [False]  # a session id kept yet

    def keep(value: dict[str, Any]) -> tuple[str, ...] | None:
        if value.get("type") == "summary":
            return None
        names: tuple[str, ...] = ("type", "uuid", "parentUuid")
        names += tuple(flag for flag in ("isSidechain", "isMeta") if value.get(flag))
        if not session[0] and isinstance(value.get("sessionId"), str):
            session[0] = True
            names += ("sessionId",)
        return names

    return keep


def parse(lines: list[Line], path: str) -> list[Session]:
    _check(lines, path)
    messages = _conversation(lines, _active_path(lines), path)
    native = next((v.value["sessionId"] for v in lines if isinstance(v.value.get("sessionId"), str)), None)
    if native is None:
        native = address({"first": lines[0].value}) if lines else ""
    return [Session(session_id(FORMAT, native), FORMAT, tuple(messages), path)]


def parse_tail(lines: list[Line], path: str, session: str, anchor: str | None) -> Session | None:
    """The session's messages from the file's last lines on (`lines`, those from the line a turn
    opens with), if they are what the whole file would give there: the conversation's path, walked
    back from its last entry, leaves these lines at `anchor`, as it did when they were fewer. `None`
    when it does not (the conversation branched off earlier) or a line is not an object."""
    if any(not isinstance(line.value, dict) for line in lines):
        return None
    walk = chain(lines)
    if walk.cyclic or walk.exit != anchor or not walk.links:
        return None
    on_path = {uuid for uuid, _ in walk.links}
    return Session(session, FORMAT, tuple(_conversation(lines, on_path, path)), path)


def _check(lines: list[Line], path: str) -> None:
    for line in lines:
        if not isinstance(line.value, dict):
            raise shape_error("a Claude Code session line must be a JSON object", path, line.line)


def _conversation(lines: list[Line], on_path: set[str], path: str) -> list[Message]:
    messages: list[Message] = []
    for line in lines:
        value = line.value
        kind = value.get("type")
        if kind == "summary" and isinstance(value.get("summary"), str):
            messages.append(Message(Role.SUMMARY, "summary", text=value["summary"], line=line.line))
            continue
        if kind not in {"user", "assistant"} or value.get("uuid") not in on_path:
            continue
        if value.get("isSidechain") or value.get("isMeta"):
            continue
        for message in _messages(line, path):
            _append(messages, message)
    return messages


def chain(lines: list[Line]) -> Chain:
    """The conversation's path: walked back from the last entry that is not a sidechain's."""
    return tree.chain(lines, "uuid", "parentUuid", lambda line: not line.value.get("isSidechain"))


def _active_path(lines: list[Line]) -> set[str]:
    return {uuid for uuid, _ in chain(lines).links}


def _append(messages: list[Message], message: Message) -> None:
    """Add a message, merging an assistant block line into the message it continues."""
    if messages and message.role is Role.ASSISTANT and message.key is not None:
        last = messages[-1]
        if last.role is Role.ASSISTANT and last.key == message.key:
            messages[-1] = Message(
                Role.ASSISTANT,
                last.who,
                text="\n".join(t for t in (last.text, message.text) if t),
                thinking="\n".join(t for t in (last.thinking, message.thinking) if t),
                tool_calls=last.tool_calls + message.tool_calls,
                key=last.key,
                when=last.when,
                line=last.line,
            )
            return
    messages.append(message)


def _messages(line: Line, path: str) -> list[Message]:
    value = whole(line.value)
    message = value.get("message")
    if not isinstance(message, dict):
        raise shape_error(f'a Claude Code "{value["type"]}" entry needs a "message" object', path, line.line)
    when = value.get("timestamp") if isinstance(value.get("timestamp"), str) else None
    uuid = value["uuid"]
    content = message.get("content")
    if value["type"] == "user":
        return _user(content, uuid, when, path, line.line)
    key = message.get("id") if isinstance(message.get("id"), str) else uuid
    if isinstance(content, str):
        return [Message(Role.ASSISTANT, "assistant", text=content, key=key, when=when, line=line.line)]
    if not isinstance(content, list):
        raise shape_error("assistant content must be a string or a list of blocks", path, line.line)
    text: list[str] = []
    thinking: list[str] = []
    calls: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            raise shape_error("a content block must be an object", path, line.line)
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            text.append(block["text"])
        elif kind == "thinking" and isinstance(block.get("thinking"), str):
            thinking.append(block["thinking"])
        elif kind == "tool_use":
            calls.append(f"{block.get('name', 'tool')}({arguments_text(block.get('input', {}))})")
    return [
        Message(
            Role.ASSISTANT,
            "assistant",
            text="\n".join(t for t in text if t),
            thinking="\n".join(t for t in thinking if t),
            tool_calls=tuple(calls),
            key=key,
            when=when,
            line=line.line,
        )
    ]


def _user(content: Any, uuid: str, when: str | None, path: str, line: int) -> list[Message]:
    if isinstance(content, str) or content is None:
        return [Message(Role.USER, "user", text=content or "", key=uuid, when=when, line=line)]
    if not isinstance(content, list):
        raise shape_error("user content must be a string or a list of blocks", path, line)
    out: list[Message] = []
    said: list[str] = []
    for index, block in enumerate(content):
        if not isinstance(block, dict):
            raise shape_error("a content block must be an object", path, line)
        if block.get("type") == "tool_result":
            result = clip(text_of(block.get("content"), path, line))
            out.append(Message(Role.TOOL, "tool", text=result, key=f"{uuid}#{index}", when=when, line=line))
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            said.append(block["text"])
    if said:
        out.insert(0, Message(Role.USER, "user", text="\n".join(said), key=uuid, when=when, line=line))
    return out
