"""Transcript capture: every format, idempotence, growth, errors, the end-of-turn hook."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from zerolang.experience.build import turns_of
from zerolang.experience.capture import TurnRecorder, capture_files
from zerolang.experience.model import Layer
from zerolang.experience.ranking import full_text
from zerolang.experience.transcripts import read_transcript
from zerolang.storage.sqlite.experience import SqliteExperienceStore
from zerolang.util.errors import ZeroError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"


def layers(path: Path) -> list[list[str]]:
    [session] = read_transcript(path)
    from zerolang.experience.build import layers_of

    return [[layer.value for m in turn.messages for layer, _ in layers_of(m)] for turn in turns_of(session)]


def test_pi_v3_follows_the_active_branch_and_keeps_compaction() -> None:
    [session] = read_transcript(FIXTURES / "pi_v3.jsonl")
    assert session.format == "pi"
    texts = " ".join(m.text for m in session.messages)
    assert "tell me a joke" not in texts  # an abandoned branch is not the conversation
    assert layers(FIXTURES / "pi_v3.jsonl") == [
        ["input", "contemplation", "output"],
        ["input", "contemplation", "contemplation", "output"],
        ["contemplation"],
        ["input", "output"],
    ]
    tool = [m for m in session.messages if m.who == "bash"]
    assert tool and "philokalia-reading-list.md" in tool[0].text
    calls = [m for m in session.messages if m.tool_calls]
    assert calls[0].tool_calls == ('bash({"command":"ls ~/notes/reading"})',)


def test_pi_linear_version_1() -> None:
    assert layers(FIXTURES / "pi_v1.jsonl") == [["input", "contemplation", "output"], ["input", "output"]]


def test_claude_code_merges_block_lines_and_skips_sidechains() -> None:
    [session] = read_transcript(FIXTURES / "claude_code.jsonl")
    assert session.format == "claude-code"
    assert all("sub-agent" not in m.text for m in session.messages)
    thinking = [m for m in session.messages if m.thinking]
    assert len(thinking) == 1 and thinking[0].tool_calls[0].startswith("Read(")
    assert layers(FIXTURES / "claude_code.jsonl") == [
        ["contemplation"],
        ["input", "contemplation", "contemplation", "output"],
        ["input"],
    ]


def test_openai_json_and_jsonl() -> None:
    [chat] = read_transcript(FIXTURES / "openai_chat.json")
    assert chat.format == "openai"
    assert chat.messages[0].who == "Ada"
    assert "Alta Via" in chat.messages[1].thinking
    assert layers(FIXTURES / "openai_chat.json") == [
        ["input", "contemplation", "output"],
        ["input", "contemplation", "contemplation", "output"],
    ]
    assert layers(FIXTURES / "openai_chat.jsonl") == [
        ["input", "contemplation", "output"],
        ["input", "output"],
    ]


def test_openai_one_conversation_per_line(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    lines = [
        {"messages": [{"role": "user", "content": "first"}, {"role": "assistant", "content": "one"}]},
        {"messages": [{"role": "user", "content": "second"}]},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    sessions = read_transcript(path)
    assert [s.messages[0].text for s in sessions] == ["first", "second"]
    assert sessions[0].id != sessions[1].id


def test_capture_is_idempotent_and_deterministic(tmp_path: Path) -> None:
    files = sorted(FIXTURES.iterdir())
    with (
        SqliteExperienceStore(tmp_path / "a.db") as first,
        SqliteExperienceStore(tmp_path / "b.db") as second,
    ):
        added = capture_files(first, files).added
        assert added.turns == 13 and added.experiences > 30 and added.concepts > 0 and added.edges > 0
        again = capture_files(first, files).added
        assert again.as_dict() == {"turns": 0, "experiences": 0, "concepts": 0, "edges": 0}
        assert capture_files(second, list(reversed(files))).added == added
        assert first.counts() == second.counts()


def test_a_grown_file_adds_only_new_turns(tmp_path: Path) -> None:
    source = (FIXTURES / "pi_v1.jsonl").read_text().splitlines(keepends=True)
    path = tmp_path / "session.jsonl"
    path.write_text("".join(source[:3]))  # header, the first user message and its answer
    with SqliteExperienceStore(tmp_path / "x.db") as store:
        first = capture_files(store, [path]).added
        assert first.turns == 1 and first.experiences == 3
        path.write_text("".join(source[:4]))  # the next question, not answered yet
        grown = capture_files(store, [path]).added
        assert (grown.turns, grown.experiences) == (1, 1)
        assert grown.edges >= 2  # the NEXT edge and its concepts
        path.write_text("".join(source))  # and its answer
        answered = capture_files(store, [path]).added
        assert (answered.turns, answered.experiences) == (0, 1)
        assert store.counts()["turns"] == 2


def test_a_malformed_line_stores_nothing(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    shutil.copy(FIXTURES / "pi_v1.jsonl", good)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "user", "content": "hello"}\n{"role": "assistant", "content": \n')
    with SqliteExperienceStore(tmp_path / "x.db") as store:
        with pytest.raises(ZeroError) as error:
            capture_files(store, [good, bad])
        assert error.value.headline().startswith(f"{bad}:2:")
        assert store.counts() == {"turns": 0, "experiences": 0, "concepts": 0, "edges": 0}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '{"type": "session", "version": 3, "id": "s"}\n{"type": "message", "id": "1", "message": 5}\n',
            "line 2",
        ),
        ('{"role": "user", "content": "hi"}\n[1, 2]\n', "line 2"),
        ('{"role": "wizard", "content": "hi"}\n', "unknown message role"),
        ('{"hello": "world"}\n', "unknown transcript format"),
        ("", "empty transcript"),
    ],
)
def test_bad_shapes_are_clear_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(content)
    with pytest.raises(ZeroError) as error:
        read_transcript(path)
    text = error.value.headline()
    assert str(path) in text
    if message.startswith("line "):
        assert f"{path}:{message.split()[1]}:" in text
    else:
        assert message in text


def test_turn_recorder_links_turns_and_resumes(tmp_path: Path) -> None:
    with SqliteExperienceStore(tmp_path / "x.db") as store:
        recorder = TurnRecorder(store, session="chat-1", user="David", agent="Lilu")
        first = recorder.record(
            user_said="I read the Philokalia", thinking="He loves it", agent_said="Tell me more"
        )
        assert (first.turns, first.experiences) == (1, 3)
        second = recorder.record(user_said="Melissa wants to learn", agent_said="Lovely")
        assert second.turns == 1 and second.edges >= 2
        again = TurnRecorder(store, session="chat-1", user="David", agent="Lilu")  # a new process
        third = again.record(user_said="What did we say?", agent_said="About the Philokalia")
        assert third.turns == 1
        assert store.counts()["turns"] == 3
        hits = full_text(store, ["philokalia"], 10).experiences
        found = store.experiences([ident for ident, _ in hits])
        assert {e.who for e in found.values()} == {"David", "Lilu"}
        assert {e.layer for e in found.values()} == {Layer.INPUT, Layer.OUTPUT}


def test_recorder_ignores_an_empty_turn(tmp_path: Path) -> None:
    with SqliteExperienceStore(tmp_path / "x.db") as store:
        assert TurnRecorder(store, session="s").record().turns == 0


def test_capturing_a_growing_file_step_by_step_equals_one_capture(tmp_path: Path) -> None:
    """Settled turns are skipped when a grown file is captured again; the store ends the same as
    one capture of the whole file, its turn search included (each turn indexed once, complete)."""
    lines = [
        json.dumps({"role": "user" if i % 3 == 0 else "assistant", "content": f"step {i} about topic{i % 4}"})
        for i in range(30)
    ]
    path = tmp_path / "grown.jsonl"
    with (
        SqliteExperienceStore(tmp_path / "steps.db") as steps,
        SqliteExperienceStore(tmp_path / "once.db") as once,
    ):
        for end in range(1, len(lines) + 1, 2):
            path.write_text("\n".join(lines[:end]) + "\n")
            capture_files(steps, [path])
        path.write_text("\n".join(lines) + "\n")
        capture_files(steps, [path])
        capture_files(once, [path])
        assert steps.counts() == once.counts()
        for word in ("topic1", "step", "29"):
            assert full_text(steps, [word], 50).turns == full_text(once, [word], 50).turns
