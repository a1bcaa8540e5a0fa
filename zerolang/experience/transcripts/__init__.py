"""Reading agent transcripts into sessions of messages, whatever wrote them.

`read_transcript(path)` looks at the content (not the file name) to tell the
format: a pi/OpenClaw session (`{"type": "session", ...}` header, or its
`message` entries), a Claude Code session (`uuid`/`parentUuid` lines) or an
OpenAI-style chat (a JSON list of `{role, content}` messages, an object with
`messages`, or JSONL of either). Any line that is not JSON, or not the shape its
format needs, is a `ZeroError` at `file:line:col`, raised before anything is
stored; but a last line cut short (no line end, not JSON: the agent is writing it)
is left for the next reading.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zerolang.experience.model import Session
from zerolang.experience.transcripts.jsonlines import Fields, Line, Slim, read_lines, read_text
from zerolang.util.errors import ZeroError

FORMATS = ("pi", "claude-code", "openai")


def detect(lines: list[Line], path: str) -> str:
    """The format of a transcript, from its first JSON value."""
    if not lines:
        raise ZeroError("empty transcript: no JSON lines", path=path)
    first = lines[0].value
    if isinstance(first, list):
        return "openai"
    if not isinstance(first, dict):
        raise ZeroError("a transcript line must be a JSON object", path=path, span=lines[0].span)
    kind = first.get("type")
    if kind == "session" or (
        kind == "message" and isinstance(first.get("message"), dict) and "uuid" not in first
    ):
        return "pi"
    if "parentUuid" in first or "uuid" in first or "sessionId" in first:
        return "claude-code"
    if kind in {"summary", "file-history-snapshot", "user", "assistant", "system"}:
        return "claude-code"
    if "role" in first or "messages" in first:
        return "openai"
    raise ZeroError(
        "unknown transcript format: expected a pi session, a Claude Code session or OpenAI chat messages",
        path=path,
        span=lines[0].span,
    )


def read_transcript(path: str | Path, *, fmt: str | None = None) -> list[Session]:
    """The sessions in one transcript file (OpenAI JSONL of `{"messages": ...}` holds several)."""
    name = str(path)
    lines = read_lines(read_text(name), name, slim(fmt))
    if lines.waiting:
        return []
    return parse_lines(lines.values, name, fmt)[1]


def slim(fmt: str | None) -> Slim:
    """What to keep of each line of a transcript in format `fmt` (or the one its first value tells):
    a tree's lines only their ids and parents (the readers parse again those they use)."""

    def choose(first: Any) -> Fields | None:
        try:
            kind = fmt or detect([Line(first, 1)], "")
        except ZeroError:
            return None
        if kind == "claude-code":
            from zerolang.experience.transcripts import claude

            return claude.fields()
        if kind == "pi":
            from zerolang.experience.transcripts import pi

            return pi.fields()
        return None

    return choose


def parse_lines(lines: list[Line], path: str, fmt: str | None) -> tuple[str, list[Session]]:
    """A transcript's format (`fmt`, or found from its first line) and its sessions."""
    kind = fmt or detect(lines, path)
    if kind == "pi":
        from zerolang.experience.transcripts.pi import parse

        return kind, parse(lines, path)
    if kind == "claude-code":
        from zerolang.experience.transcripts.claude import parse

        return kind, parse(lines, path)
    if kind == "openai":
        from zerolang.experience.transcripts.openai import parse

        return kind, parse(lines, path)
    raise ZeroError(f"unknown transcript format {kind!r} (known: {', '.join(FORMATS)})")
