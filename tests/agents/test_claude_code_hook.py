"""`zero hook claude-code` end to end: recorded events of each kind, real transcript files, the store.

Each test runs on SQLite and PostgreSQL (`experience_db`). The transcripts are Claude Code's own
shape (tests/agents/transcripts.py, and the recorded session in tests/fixtures).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agents.transcripts import TOPICS, ClaudeTranscript, payload
from tests.memory_stores import experiences_of
from zerolang.experience.capture import capture_files
from zerolang.storage import open_experiences
from zerolang.util.tokens import count_tokens

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"


def hook(db: str, stdin: str, *options: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if home is not None:  # no per-user memory of the machine running the tests
        env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"))
    env.pop("ZERO_MEMORY_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "zerolang", "hook", "claude-code", "--db", db, *options],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def counts(db: str) -> dict[str, int]:
    with open_experiences(experiences_of(db), create=False) as store:
        return store.counts()


def test_stop_captures_only_new_turns_and_the_same_records_as_capture(
    experience_db: str, tmp_path: Path
) -> None:
    transcript = ClaudeTranscript(tmp_path / "session.jsonl", "11111111-aaaa-4bbb-8ccc-000000000001")
    for said, answer in TOPICS[:2]:
        transcript.turn(said, answer)
    first = hook(experience_db, payload("Stop", transcript, stop_hook_active="false"), home=tmp_path)
    assert (first.returncode, first.stdout, first.stderr) == (0, "", "")
    assert counts(experience_db)["turns"] == 2
    again = hook(experience_db, payload("Stop", transcript), home=tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")
    before = counts(experience_db)
    transcript.turn(*TOPICS[2])
    assert (
        hook(experience_db, payload("SessionEnd", transcript, reason="exit"), home=tmp_path).returncode == 0
    )
    after = counts(experience_db)
    assert after["turns"] == before["turns"] + 1 and after["experiences"] > before["experiences"]
    # what the hook stored is exactly what capturing the whole file stores
    with open_experiences(experiences_of(experience_db), create=False) as store:
        assert capture_files(store, [transcript.path]).added.as_dict() == {
            "turns": 0,
            "experiences": 0,
            "concepts": 0,
            "edges": 0,
        }


def test_the_recorded_session_is_captured_whole_then_nothing_more(experience_db: str, tmp_path: Path) -> None:
    event = {
        "session_id": "4b8e0c3d-1f2a-4e5b-8c7d-9e0f1a2b3c4d",
        "transcript_path": str(FIXTURES / "claude_code.jsonl"),
        "cwd": "/srv/billing",
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    assert hook(experience_db, json.dumps(event), home=tmp_path).returncode == 0
    from zerolang.experience.capture import capture_files as whole
    from zerolang.storage.sqlite.experience import SqliteExperienceStore

    with SqliteExperienceStore(tmp_path / "reference.db") as reference:
        expected = whole(reference, [FIXTURES / "claude_code.jsonl"]).added.as_dict()
    assert counts(experience_db) == expected


def test_prompt_recalls_other_sessions_within_the_budget(experience_db: str, tmp_path: Path) -> None:
    old = ClaudeTranscript(tmp_path / "old.jsonl", "22222222-aaaa-4bbb-8ccc-000000000002")
    for said, answer in TOPICS:
        old.turn(said, answer)
    assert hook(experience_db, payload("Stop", old), home=tmp_path).returncode == 0
    new = ClaudeTranscript(tmp_path / "new.jsonl", "33333333-aaaa-4bbb-8ccc-000000000003")
    prompt = payload("UserPromptSubmit", new, prompt="the login test is flaky again, token expiry?")
    result = hook(experience_db, prompt, "--budget", "300", home=tmp_path)
    assert result.returncode == 0 and result.stderr == ""
    document = json.loads(result.stdout)
    assert set(document) == {"hookSpecificOutput"}
    output = document["hookSpecificOutput"]
    assert output["hookEventName"] == "UserPromptSubmit"
    context = output["additionalContext"]
    assert "second boundary" in context or "login test" in context
    assert count_tokens(context) <= 300
    # nothing relevant: nothing printed at all
    quiet = hook(
        experience_db, payload("UserPromptSubmit", new, prompt="zebra xylophone quasar"), home=tmp_path
    )
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_prompt_leaves_out_its_own_session(experience_db: str, tmp_path: Path) -> None:
    session = ClaudeTranscript(tmp_path / "s.jsonl", "44444444-aaaa-4bbb-8ccc-000000000004")
    session.turn(*TOPICS[3])
    assert hook(experience_db, payload("Stop", session), home=tmp_path).returncode == 0
    own = hook(
        experience_db, payload("UserPromptSubmit", session, prompt="compost sensor import"), home=tmp_path
    )
    assert (own.returncode, own.stdout) == (0, "")
    other = ClaudeTranscript(tmp_path / "o.jsonl", "55555555-aaaa-4bbb-8ccc-000000000005")
    found = hook(
        experience_db, payload("UserPromptSubmit", other, prompt="compost sensor import"), home=tmp_path
    )
    assert "humidity column" in json.loads(found.stdout)["hookSpecificOutput"]["additionalContext"]


def test_session_start_recalls_the_project(experience_db: str, tmp_path: Path) -> None:
    old = ClaudeTranscript(tmp_path / "old.jsonl", "66666666-aaaa-4bbb-8ccc-000000000006")
    old.turn(*TOPICS[0])
    assert hook(experience_db, payload("Stop", old), home=tmp_path).returncode == 0
    new = ClaudeTranscript(tmp_path / "new.jsonl", "77777777-aaaa-4bbb-8ccc-000000000007")
    started = hook(experience_db, payload("SessionStart", new, source="startup"), home=tmp_path)
    assert started.returncode == 0 and started.stderr == ""
    output = json.loads(started.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "SessionStart" and "billing" in output["additionalContext"]
    elsewhere = ClaudeTranscript(
        tmp_path / "x.jsonl", "88888888-aaaa-4bbb-8ccc-000000000008", cwd="/srv/zebra"
    )
    assert (
        hook(experience_db, payload("SessionStart", elsewhere, source="startup"), home=tmp_path).stdout == ""
    )


@pytest.mark.parametrize(
    ("stdin", "says"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"session_id": "x"}', "hook_event_name"),
        ('{"hook_event_name": "Stop", "session_id": "x"}', "transcript_path"),
    ],
)
def test_bad_input_never_blocks(tmp_path: Path, stdin: str, says: str) -> None:
    result = hook(str(tmp_path / "e.db"), stdin, home=tmp_path)
    assert result.returncode == 0 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and says in result.stderr
    assert result.stderr.startswith("zero hook: ")


def test_broken_transcript_and_unreachable_store_never_block(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type": "user", "uuid": "a", "sessionId": "s", "message": {"role": "user"}}\n{oops\n')
    event = json.dumps({"hook_event_name": "Stop", "session_id": "s", "transcript_path": str(broken)})
    result = hook(str(tmp_path / "e.db"), event, home=tmp_path)
    assert result.returncode == 0 and result.stdout == "" and len(result.stderr.splitlines()) == 1
    assert counts(str(tmp_path / "e.db"))["turns"] == 0  # nothing half-stored
    far = hook("postgresql://nobody@127.0.0.1:1/none", event, home=tmp_path)
    assert far.returncode == 0 and far.stdout == "" and len(far.stderr.splitlines()) == 1


@pytest.mark.parametrize("kind", ["missing", "folder", "fifo"])
def test_a_transcript_that_is_no_file_gets_one_line(tmp_path: Path, kind: str) -> None:
    """Missing, a folder or a FIFO (which would block a read): exit 0, one line naming it, nothing stored."""
    path = tmp_path / "t.jsonl"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    event = json.dumps({"hook_event_name": "Stop", "session_id": "s", "transcript_path": str(path)})
    result = hook(str(tmp_path / "e.db"), event, home=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "Traceback" not in result.stderr, lines
    assert {"missing": "no such file", "folder": "is a directory", "fifo": "not a regular file"}[
        kind
    ] in lines[0]


def test_another_event_does_nothing(tmp_path: Path) -> None:
    other = json.dumps({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash"})
    result = hook(str(tmp_path / "e.db"), other, home=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_the_time_limit_gives_up_with_one_line(tmp_path: Path) -> None:
    """A store that does not answer in time: the hook stops itself, exit 0, one line, nothing stored."""
    transcript = ClaudeTranscript(tmp_path / "long.jsonl", "99999999-aaaa-4bbb-8ccc-000000000009")
    for n in range(400):
        said, answer = TOPICS[n % len(TOPICS)]
        transcript.turn(f"{said} ({n})", f"{answer} ({n})")
    db = str(tmp_path / "e.db")
    result = hook(db, payload("Stop", transcript), "--timeout", "0.1", home=tmp_path)
    assert result.returncode == 0 and result.stdout == ""
    assert result.stderr.startswith("zero hook: gave up after 0.1 s") and len(result.stderr.splitlines()) == 1
    assert not Path(experiences_of(db)).exists() or counts(db)["turns"] == 0


def test_a_prompt_recalls_the_facts_too(tmp_path: Path) -> None:
    """Issue 39, point 4: what an agent stored as facts (the Python API here; MCP and `zero remember`
    reach the same memory) comes back at the next prompt, as plain lines without hash ids, beside the
    turns, within the budget."""
    import re

    import zerolang.memory

    db = str(tmp_path / "memory.db")
    with zerolang.memory.open(db) as memory:
        memory.declare_single_valued(["works_at"], now="2000-01-01")
        memory.remember([("Carol Diaz", "works_at", "Initech")], event_time="2020-01-15T00:00:00Z")
        memory.remember([("Carol Diaz", "works_at", "Acme Corp")], event_time="2024-02-01T00:00:00Z")
    transcript = ClaudeTranscript(tmp_path / "other.jsonl", "22222222-aaaa-4bbb-8ccc-000000000002")
    transcript.turn("Carol takes the tram to the Acme office", "Noted: the tram to Acme.")
    assert hook(db, payload("Stop", transcript), home=tmp_path).returncode == 0
    event = payload("UserPromptSubmit", transcript, prompt="Where does Carol work?")
    asked = hook(db, event.replace("22222222", "33333333"), "--budget", "200", home=tmp_path)
    assert asked.returncode == 0 and asked.stderr == "", asked.stderr
    context = json.loads(asked.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "carol diaz works at acme corp (since 2024-02-01; before: initech 2020-2024)" in context
    assert "tram" in context  # the other session's turn, beside the facts
    assert context.index("acme corp (since") < context.index("tram")
    assert not re.search(r"\b[0-9a-f]{10,}\b", context)  # no hash ids
    assert count_tokens(context) <= 200
