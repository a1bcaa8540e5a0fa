"""Claude Code and pi transcripts as the runtimes write them, grown turn by turn for the hook tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TOPICS = [
    (
        "Why does the billing login test fail once in ten runs?",
        "The session token expires at a second boundary.",
    ),
    ("Where do we keep the Postgres connection pool settings?", "In config/pool.toml, read at start-up."),
    ("Can you rename the invoice exporter module?", "Renamed invoice_export to exporters.invoice."),
    ("What broke the nightly compost sensor import?", "The sensor CSV gained a humidity column."),
]


class ClaudeTranscript:
    """A Claude Code session file: user lines, assistant block lines (thinking, tool use, text)."""

    def __init__(self, path: Path, session: str, cwd: str = "/srv/billing") -> None:
        self.path, self.session, self.cwd = path, session, cwd
        self.last: str | None = None
        self.count = 0

    def _line(self, kind: str, message: dict[str, Any]) -> None:
        self.count += 1
        uuid = f"{self.session[:8]}-{self.count:06d}"
        entry = {
            "parentUuid": self.last,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session,
            "version": "1.0.51",
            "type": kind,
            "message": message,
            "uuid": uuid,
            "timestamp": f"2025-07-14T10:{self.count // 60 % 60:02d}:{self.count % 60:02d}.000Z",
        }
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(entry) + "\n")
        self.last = uuid

    def turn(self, said: str, answer: str, thinking: str = "Look at the code first.") -> None:
        mid = f"msg_{self.count:06d}"
        self._line("user", {"role": "user", "content": said})
        self._line(
            "assistant",
            {
                "id": mid,
                "role": "assistant",
                "content": [{"type": "thinking", "thinking": thinking, "signature": "s"}],
            },
        )
        self._line(
            "assistant",
            {
                "id": mid,
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t{self.count}",
                        "name": "Read",
                        "input": {"file_path": "/srv/billing/app.py"},
                    }
                ],
            },
        )
        self._line(
            "user",
            {
                "role": "user",
                "content": [
                    {"tool_use_id": f"t{self.count}", "type": "tool_result", "content": "def app(): ..."}
                ],
            },
        )
        self._line(
            "assistant", {"id": f"{mid}b", "role": "assistant", "content": [{"type": "text", "text": answer}]}
        )


def payload(event: str, transcript: ClaudeTranscript, **extra: str) -> str:
    return json.dumps(
        {
            "session_id": transcript.session,
            "transcript_path": str(transcript.path),
            "cwd": transcript.cwd,
            "hook_event_name": event,
            **extra,
        }
    )
