"""pi / OpenClaw session files (JSONL).

Version 2 and 3 files are trees: a `{"type": "session", "version": 3, "id": ...}`
header, then entries linked by `id`/`parentId`; the conversation is the path
from the last entry back to the root (branches left behind are not the
conversation any more). Version 1 files (the older linear header, or no header)
are read in file order. Entries: `message` (roles `user`, `assistant` with
`text`/`thinking`/`toolCall` blocks, `toolResult`, `bashExecution`,
`branchSummary`, `compactionSummary`), `compaction` and `branch_summary`
(their `summary` is what the agent kept of earlier turns); the rest (model and
thinking-level changes, labels, extension state) carry no conversation.
"""

from __future__ import annotations

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

FORMAT = "pi"


def parse(lines: list[Line], path: str) -> list[Session]:
    header: dict[str, Any] | None = None
    entries: list[Line] = []
    for line in lines:
        if not isinstance(line.value, dict):
            raise shape_error("a pi session line must be a JSON object", path, line.line)
        if line.value.get("type") == "session":
            if header is None:
                header = line.value
            continue
        if not isinstance(line.value.get("type"), str):
            raise shape_error('a pi session entry needs a "type"', path, line.line)
        entries.append(line)
    version = header.get("version", 1) if header else None
    tree = any("parentId" in entry.value for entry in entries) and version != 1
    path_entries = _active_path(entries) if tree else entries
    messages = [m for entry in path_entries for m in _messages(entry, path)]
    native = str(header.get("id")) if header and header.get("id") else _first_key(lines)
    return [Session(session_id(FORMAT, native), FORMAT, tuple(messages), path)]


def _first_key(lines: list[Line]) -> str:
    return address({"first": lines[0].value}) if lines else ""


def _active_path(entries: list[Line]) -> list[Line]:
    """Root-to-leaf path ending at the last entry with an id."""
    by_id: dict[str, Line] = {}
    for entry in entries:
        key = entry.value.get("id")
        if isinstance(key, str):
            by_id[key] = entry
    leaf = next((e for e in reversed(entries) if isinstance(e.value.get("id"), str)), None)
    chain: list[Line] = []
    seen: set[str] = set()
    while leaf is not None:
        key = leaf.value["id"]
        if key in seen:
            break  # a cycle: the file is damaged; keep what we walked
        seen.add(key)
        chain.append(leaf)
        parent = leaf.value.get("parentId")
        leaf = by_id.get(parent) if isinstance(parent, str) else None
    chain.reverse()
    return chain


def _messages(entry: Line, path: str) -> list[Message]:
    value = entry.value
    kind = value["type"]
    key = value.get("id") if isinstance(value.get("id"), str) else None
    when = value.get("timestamp") if isinstance(value.get("timestamp"), str) else None
    if kind in {"compaction", "branch_summary"}:
        summary = value.get("summary")
        if not isinstance(summary, str):
            raise shape_error(f'a {kind} entry needs a "summary" string', path, entry.line)
        return [Message(Role.SUMMARY, kind, text=summary, key=key, when=when, line=entry.line)]
    if kind != "message":
        return []
    message = value.get("message")
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        raise shape_error('a message entry needs a "message" object with a "role"', path, entry.line)
    role = message["role"]
    content = message.get("content")
    if role == "user":
        return [
            Message(
                Role.USER, "user", text_of(content, path, entry.line), key=key, when=when, line=entry.line
            )
        ]
    if role == "assistant":
        return [_assistant(content, key, when, path, entry.line)]
    if role == "toolResult":
        name = str(message.get("toolName") or "tool")
        text = clip(text_of(content, path, entry.line))
        return [Message(Role.TOOL, name, text=text, key=key, when=when, line=entry.line)]
    if role == "bashExecution":
        text = clip(f"$ {message.get('command', '')}\n{message.get('output', '')}")
        return [Message(Role.TOOL, "bash", text=text, key=key, when=when, line=entry.line)]
    if role in {"branchSummary", "compactionSummary"}:
        summary = message.get("summary")
        text = summary if isinstance(summary, str) else ""
        return [Message(Role.SUMMARY, role, text=text, key=key, when=when, line=entry.line)]
    return []  # custom/extension messages: not the conversation


def _assistant(content: Any, key: str | None, when: str | None, path: str, line: int) -> Message:
    if isinstance(content, str):
        return Message(Role.ASSISTANT, "assistant", text=content, key=key, when=when, line=line)
    if not isinstance(content, list):
        raise shape_error("assistant content must be a list of blocks", path, line)
    text: list[str] = []
    thinking: list[str] = []
    calls: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            raise shape_error("a content block must be an object", path, line)
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            text.append(block["text"])
        elif kind == "thinking" and isinstance(block.get("thinking"), str):
            thinking.append(block["thinking"])
        elif kind == "toolCall":
            calls.append(f"{block.get('name', 'tool')}({arguments_text(block.get('arguments', {}))})")
    return Message(
        Role.ASSISTANT,
        "assistant",
        text="\n".join(t for t in text if t),
        thinking="\n".join(t for t in thinking if t),
        tool_calls=tuple(calls),
        key=key,
        when=when,
        line=line,
    )
