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
from zerolang.util.errors import ZeroError

FORMAT = "pi"


def parse(lines: list[Line], path: str) -> list[Session]:
    header, entries = _entries(lines, path)
    path_entries = _on_path(entries) if _is_tree(header, entries) else entries
    messages = [m for entry in path_entries for m in _messages(entry, path)]
    native = str(header.get("id")) if header and header.get("id") else _first_key(lines)
    return [Session(session_id(FORMAT, native), FORMAT, tuple(messages), path)]


TREE, LINES = "tree", "lines"


def fields() -> Fields:
    """What `parse`, `shape` and `chain` read of an entry not on the conversation's path: its type,
    id and parent (a header whole). The rest is read again (`jsonlines.whole`) for the entries used."""

    def keep(value: dict[str, Any]) -> tuple[str, ...] | None:
        return None if value.get("type") == "session" else ("type", "id", "parentId")

    return keep


def shape(lines: list[Line], path: str) -> str | None:
    """How a session file's conversation grows as entries are appended: `TREE` (the path to the
    last entry), `LINES` (a version 1 file: file order, always), or None: a file without a header
    that is still in file order, which an entry with a `parentId` would make a tree."""
    header, entries = _entries(lines, path)
    if _is_tree(header, entries):
        return TREE
    return LINES if header is not None and header.get("version", 1) == 1 else None


def chain(lines: list[Line]) -> Chain:
    """The conversation's path through a tree's entries, walked back from the last one."""
    return tree.chain([line for line in lines if _is_entry(line)], "id", "parentId")


def parse_tail(
    lines: list[Line], path: str, session: str, anchor: str | None, *, is_tree: bool
) -> Session | None:
    """The session's messages from the file's last lines on (`lines`, those from the line a turn
    opens with), if they are what the whole file gives there: for a tree, the path walked back from
    its last entry leaves these lines at `anchor`, as it did when they were fewer. `None` when it
    does not, or a line is not what the whole file's reading accepts (which then says where)."""
    if any(not isinstance(line.value, dict) for line in lines):
        return None
    entries = [line for line in lines if _is_entry(line)]
    if any(not isinstance(line.value.get("type"), str) for line in entries):
        return None
    if is_tree:
        walk = tree.chain(entries, "id", "parentId")
        if walk.cyclic or walk.exit != anchor or not walk.links:
            return None
        entries = _along(entries, walk)
    try:
        messages = [m for entry in entries for m in _messages(entry, path)]
    except ZeroError:
        return None
    return Session(session, FORMAT, tuple(messages), path)


def _is_entry(line: Line) -> bool:
    return isinstance(line.value, dict) and line.value.get("type") != "session"


def _entries(lines: list[Line], path: str) -> tuple[dict[str, Any] | None, list[Line]]:
    """The file's header (its first `session` line) and its entries."""
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
    return header, entries


def _is_tree(header: dict[str, Any] | None, entries: list[Line]) -> bool:
    version = header.get("version", 1) if header else None
    return any("parentId" in entry.value for entry in entries) and version != 1


def _first_key(lines: list[Line]) -> str:
    return address({"first": lines[0].value}) if lines else ""


def _on_path(entries: list[Line]) -> list[Line]:
    """Root-to-leaf path ending at the last entry with an id."""
    return _along(entries, tree.chain(entries, "id", "parentId"))


def _along(entries: list[Line], walk: Chain) -> list[Line]:
    at = {entry.line: entry for entry in entries}
    return [at[line] for _, line in reversed(walk.links)]


def _messages(entry: Line, path: str) -> list[Message]:
    value = whole(entry.value)
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
