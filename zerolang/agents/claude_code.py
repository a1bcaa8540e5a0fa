"""Claude Code's hooks: one command (`zero hook claude-code`) for every event it is installed on.

Claude Code runs the command with the event as JSON on stdin (`hook_event_name`, `session_id`,
`transcript_path`, `cwd`, and `prompt` on UserPromptSubmit, `source` on SessionStart):

- `Stop`, `SubagentStop`, `PreCompact`, `SessionEnd`: the transcript's new turns are captured
  (`zerolang.agents.capture`); nothing is printed;
- `SessionStart`: what memory holds about the project (its folder's name) is recalled;
- `UserPromptSubmit`: what memory holds about the prompt is recalled, leaving out this session's
  own turns;

a recall is printed as `{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": ...}}`,
the form Claude Code adds to the model's context, and nothing when nothing relevant was found.
`handle` is pure over its inputs: the store and the payload in, the output text and what
happened out; the command wraps it so a failure never blocks the agent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zerolang.agents.capture import capture_new_turns, transcript_file
from zerolang.agents.context import DEFAULT_BUDGET, Facts, recalled_context
from zerolang.experience.ids import session_id
from zerolang.experience.model import Added
from zerolang.experience.store import ExperienceStore
from zerolang.util.errors import ZeroError

FORMAT = "claude-code"
CAPTURING = ("Stop", "SubagentStop", "PreCompact", "SessionEnd")
RECALLING = ("SessionStart", "UserPromptSubmit")
EVENTS = CAPTURING + RECALLING


@dataclass(frozen=True, slots=True)
class Payload:
    """The fields of a hook event this integration reads."""

    event: str
    session: str
    transcript: str | None
    cwd: str | None
    prompt: str | None
    source: str | None

    @classmethod
    def parse(cls, text: str) -> Payload:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise ZeroError(f"the hook's input is not JSON: {error.msg} at {error.pos}") from None
        if not isinstance(value, dict):
            raise ZeroError("the hook's input must be a JSON object")
        event = value.get("hook_event_name")
        if not isinstance(event, str) or not event:
            raise ZeroError("the hook's input has no hook_event_name")
        return cls(
            event,
            _text(value, "session_id") or "",
            _text(value, "transcript_path"),
            _text(value, "cwd"),
            _text(value, "prompt"),
            _text(value, "source"),
        )


def _text(value: Mapping[str, Any], key: str) -> str | None:
    item = value.get(key)
    return item if isinstance(item, str) else None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a hook did: the text for stdout ("" for nothing) and, for a capture, what was added."""

    output: str
    added: Added | None = None


def handle(
    store: ExperienceStore, payload: Payload, *, budget: int = DEFAULT_BUDGET, facts: Facts | None = None
) -> Outcome:
    """Act on one hook event; an event this integration does not handle does nothing. A recall reads
    the memory's `facts` too (opened when first asked for)."""
    if payload.event in CAPTURING:
        if not payload.transcript:
            raise ZeroError(f"{payload.event}: the hook's input has no transcript_path")
        path = transcript_file(Path(payload.transcript).expanduser(), payload.event)
        return Outcome("", capture_new_turns(store, path, fmt=FORMAT))
    if payload.event == "UserPromptSubmit":
        own = (session_id(FORMAT, payload.session),) if payload.session else ()
        text = recalled_context(store, payload.prompt or "", budget=budget, skip_sessions=own, facts=facts)
    elif payload.event == "SessionStart":
        topic = session_topic(payload)
        text = recalled_context(store, topic, budget=budget, skip_sessions=_own(payload), facts=facts)
    else:
        return Outcome("")
    return Outcome(context_output(payload.event, text) if text else "")


def _own(payload: Payload) -> tuple[str, ...]:
    """A resumed session's own turns are in the context already; after a compaction or clear they are not."""
    if payload.source == "resume" and payload.session:
        return (session_id(FORMAT, payload.session),)
    return ()


def session_topic(payload: Payload) -> str:
    """What a new session is about before its first prompt: the project, by its folder's name."""
    if not payload.cwd:
        return ""
    name = Path(payload.cwd).name
    return " ".join(name.replace("-", " ").replace("_", " ").replace(".", " ").split())


def context_output(event: str, text: str) -> str:
    """The JSON Claude Code reads from a hook to add `text` to the model's context."""
    from zerolang.util.escapes import json_text

    document = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json_text(document, indent=None) + "\n"
