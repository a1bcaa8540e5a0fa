"""pi (and OpenClaw's pi-based runtime): the command side of the `zero-memory.ts` extension.

The extension (`pi_extension.ts`, installed by `zero hook install pi`) runs `zero hook pi` with a
JSON event on stdin:

- `{"event": "agent_end", "session_file": PATH}`: the session file's new turns are captured
  (`zerolang.agents.capture`, pi's format); nothing is printed;
- `{"event": "before_agent_start", "prompt": TEXT, "session_file": PATH, "cwd": DIR}`: what memory
  holds about the prompt (or, without one, the project) is printed as plain text, the message the
  extension adds to the context; this session's own turns are left out; nothing when nothing
  relevant was found.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from zerolang.agents.capture import capture_new_turns, transcript_file
from zerolang.agents.context import DEFAULT_BUDGET, Facts, recalled_context
from zerolang.experience.ids import session_id
from zerolang.experience.model import Added
from zerolang.experience.store import ExperienceStore
from zerolang.experience.transcripts import read_transcript
from zerolang.util.errors import ZeroError

FORMAT = "pi"
EXTENSION = Path(__file__).with_name("pi_extension.ts")


@dataclass(frozen=True, slots=True)
class PiEvent:
    event: str
    session_file: str | None
    prompt: str | None
    cwd: str | None

    @classmethod
    def parse(cls, text: str) -> PiEvent:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise ZeroError(f"the hook's input is not JSON: {error.msg} at {error.pos}") from None
        if not isinstance(value, dict) or not isinstance(value.get("event"), str):
            raise ZeroError('the hook\'s input must be a JSON object with an "event"')

        def text_of(key: str) -> str | None:
            item = value.get(key)
            return item if isinstance(item, str) and item else None

        return cls(value["event"], text_of("session_file"), text_of("prompt"), text_of("cwd"))


def handle(
    store: ExperienceStore, event: PiEvent, *, budget: int = DEFAULT_BUDGET, facts: Facts | None = None
) -> tuple[str, Added | None]:
    """Act on one event: the text to print ("" for nothing) and, for a capture, what was added."""
    path = Path(event.session_file).expanduser() if event.session_file else None
    if event.event == "agent_end":
        if path is None:
            raise ZeroError('agent_end: the hook\'s input has no "session_file"')
        return "", capture_new_turns(store, transcript_file(path, event.event), fmt=FORMAT)
    if event.event == "before_agent_start":
        own = _own_sessions(path)
        query = event.prompt or (Path(event.cwd).name if event.cwd else "")
        return recalled_context(store, query, budget=budget, skip_sessions=own, facts=facts), None
    return "", None


def _own_sessions(path: Path | None) -> tuple[str, ...]:
    """The session a session file holds: from its header line, else by reading it whole."""
    if path is None or not path.is_file():
        return ()
    try:
        with path.open(encoding="utf-8") as file:
            header = json.loads(file.readline() or "null")
        if isinstance(header, dict) and header.get("type") == "session" and header.get("id"):
            return (session_id(FORMAT, str(header["id"])),)
    except (OSError, ValueError):
        pass
    try:
        return tuple(session.id for session in read_transcript(path, fmt=FORMAT))
    except ZeroError:  # a session file pi is still writing: recall leaves nothing out
        return ()
