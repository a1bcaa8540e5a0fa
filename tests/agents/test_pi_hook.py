"""`zero hook pi`, the command side of pi's extension: agent_end captures, before_agent_start recalls."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.memory_stores import experiences_of
from zerolang.storage import open_experiences
from zerolang.util.tokens import count_tokens

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"


def hook(db: str, event: dict[str, object], home: Path, *options: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    env.pop("ZERO_MEMORY_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "zerolang", "hook", "pi", "--db", db, *options],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def test_agent_end_captures_then_before_agent_start_recalls(experience_db: str, tmp_path: Path) -> None:
    session = tmp_path / "session.jsonl"
    shutil.copy(FIXTURES / "pi_v3.jsonl", session)
    captured = hook(experience_db, {"event": "agent_end", "session_file": str(session)}, tmp_path)
    assert (captured.returncode, captured.stdout, captured.stderr) == (0, "", "")
    with open_experiences(experiences_of(experience_db), create=False) as store:
        turns = store.counts()["turns"]
    assert turns == 4
    again = hook(experience_db, {"event": "agent_end", "session_file": str(session)}, tmp_path)
    assert again.returncode == 0
    with open_experiences(experiences_of(experience_db), create=False) as store:
        assert store.counts()["turns"] == turns
    prompt = next(
        json.loads(line)["message"]["content"]
        for line in session.read_text().splitlines()
        if json.loads(line).get("type") == "message" and json.loads(line)["message"].get("role") == "user"
    )
    text = prompt if isinstance(prompt, str) else " ".join(b.get("text", "") for b in prompt)
    other = {"event": "before_agent_start", "prompt": text, "cwd": str(tmp_path)}
    recalled = hook(experience_db, other, tmp_path, "--budget", "200")
    assert recalled.returncode == 0 and recalled.stderr == ""
    assert recalled.stdout.startswith("Relevant memory from earlier sessions")
    assert count_tokens(recalled.stdout) <= 200
    # the session asking is left out: it has its own turns in its context
    own = hook(experience_db, {**other, "session_file": str(session)}, tmp_path)
    assert (own.returncode, own.stdout) == (0, "")


def test_failures_never_block(tmp_path: Path) -> None:
    db = str(tmp_path / "e.db")
    for event in ({"event": "agent_end"}, {"no": "event"}):
        result = hook(db, event, tmp_path)
        assert result.returncode == 0 and result.stdout == "" and len(result.stderr.splitlines()) == 1
    quiet = hook(db, {"event": "before_agent_start", "prompt": "zebra quasar"}, tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
