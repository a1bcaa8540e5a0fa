"""Resuming from a cursor for OpenAI chats written a message a line, and in `zero capture` itself.

A chat is grown chunk by chunk (user, assistant, tool-call and tool lines, system prompts, blank
lines, text that is not ASCII, a byte-order mark) and captured after each chunk, by the hook's
incremental capture and by `capture_files` (what `zero capture FILE` runs); both must make the
records a whole-file read makes after the same chunks, and a grown file must be read from its
cursor only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zerolang.agents.capture as hook_capture
import zerolang.experience.capture as file_capture
from tests.agents.test_capture_cursor import (
    cursor_row,
    entries,
    grow,
    records,
    split,
    whole_captures,
    whole_file_capture,
    write_lines,
)
from zerolang.agents.capture import capture_new_turns
from zerolang.experience.capture import capture_files
from zerolang.experience.store import ExperienceStore
from zerolang.storage import open_experiences
from zerolang.util.errors import ZeroError

KINDS = ("user", "answer", "call", "tool", "system", "blank", "accented", "separators")
SEPARATORS = "\u2028\u2029\x85\x0b\x0c\x1c\x1d\x1e"  # raw in a JSON string; `str.splitlines` breaks there


def chat(kinds: list[str]) -> list[str]:
    """An OpenAI chat's lines, one message a line (a blank line for `blank`)."""
    out: list[str] = []
    for n, kind in enumerate(kinds):
        message: dict[str, Any]
        if kind == "blank":
            out.append("")
            continue
        if kind == "user":
            message = {"role": "user", "content": f"why does the login token {n} expire?"}
        elif kind == "separators":
            message = {"role": "tool", "content": f"line{SEPARATORS}{n}", "name": "read"}
        elif kind == "accented":
            message = {"role": "user", "content": f"café crème n°{n}: où est le reçu? 日本 ✓"}
        elif kind == "answer":
            message = {
                "role": "assistant",
                "content": f"the pool config {n} was stale",
                "timestamp": 1.7e9 + n,
            }
        elif kind == "call":
            call = {"function": {"name": "read", "arguments": json.dumps({"path": f"/src/{n}.py"})}}
            message = {"role": "assistant", "content": None, "tool_calls": [call], "reasoning": f"check {n}"}
        elif kind == "tool":
            message = {"role": "tool", "content": f"file {n} read", "name": "read"}
        else:
            message = {"role": "system", "content": "be brief"}
        out.append(json.dumps(message, ensure_ascii=False))
    return out


def capture_file(store: ExperienceStore, path: Path) -> None:
    capture_files(store, [path])


def with_mark(lines: list[str]) -> list[str]:
    """The same lines, the file starting with a UTF-8 byte-order mark."""
    return ["\ufeff" + lines[0], *lines[1:]] if lines else lines


def chat_file(folder: Path, lines: list[str]) -> tuple[Path, Path]:
    """`chat.jsonl` in `folder` holding `lines`, and where its store goes."""
    path = folder / "chat.jsonl"
    write_lines(path, lines)
    return path, folder / "chat.db"


@settings(max_examples=40, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=30).map(lambda k: ["user", *k]),
    cuts=st.lists(st.integers(min_value=0, max_value=40), max_size=8),
    mark=st.booleans(),
)
def test_resuming_an_openai_chat_makes_what_reading_it_whole_makes(
    tmp_path_factory: Any, kinds: list[str], cuts: list[int], mark: bool
) -> None:
    folder = tmp_path_factory.mktemp("openai")
    lines = chat(kinds)
    chunks = split(with_mark(lines) if mark else lines, cuts)
    slow = records(grow(folder, "slow", chunks, whole_file_capture))
    assert records(grow(folder, "hook", chunks, capture_new_turns)) == slow
    assert records(grow(folder, "file", chunks, capture_file)) == slow


@settings(max_examples=25, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(("user", "thinking", "tool", "result", "answer", "summary")), max_size=30),
    cuts=st.lists(st.integers(min_value=0, max_value=40), max_size=8),
)
def test_zero_capture_of_a_growing_claude_session_makes_what_reading_it_whole_makes(
    tmp_path_factory: Any, kinds: list[str], cuts: list[int]
) -> None:
    folder = tmp_path_factory.mktemp("claude")
    chunks = split(entries(["user", *kinds]), cuts)
    assert records(grow(folder, "file", chunks, capture_file)) == records(
        grow(folder, "slow", chunks, whole_file_capture)
    )


def refuse_whole_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: object) -> None:
        raise AssertionError("read the whole file")

    monkeypatch.setattr(file_capture, "read_whole", refused)
    monkeypatch.setattr(hook_capture, "read_whole", refused)


@pytest.mark.parametrize("lines", [chat(["user", "answer"] * 40), entries(["user", "answer"] * 40)])
def test_zero_capture_reads_a_grown_transcript_from_its_cursor_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str]
) -> None:
    path, db = chat_file(tmp_path, lines[:60])
    with open_experiences(db, create=True) as store:
        first = capture_files(store, [path])
        assert first.files[0].turns == 30
        assert cursor_row(db)["line"] == 59
        refuse_whole_reads(monkeypatch)
        with path.open("a", encoding="utf-8") as file:
            file.write("".join(line + "\n" for line in lines[60:]))
        again = capture_files(store, [path])
        assert again.added.turns == 10
        assert again.files[0].turns == 40  # every turn of the file, as a whole read counts them
        assert again.files[0].sessions == 1
        assert cursor_row(db)["line"] == 79
        nothing = capture_files(store, [path])
    assert nothing.added.turns == 0 and nothing.files[0].turns == 40


def test_the_cursor_counts_bytes_not_characters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = with_mark(chat(["accented", "answer"] * 5 + ["user", "answer"] * 5))
    path, db = chat_file(tmp_path, lines[:12])
    with open_experiences(db, create=True) as store:
        capture_files(store, [path])
        state = cursor_row(db)
        data = path.read_bytes()
        assert data[state["start"] :].startswith(lines[10].encode("utf-8"))
        assert state["end"] == len(data)
        refuse_whole_reads(monkeypatch)
        with path.open("a", encoding="utf-8") as file:
            file.write("".join(line + "\n" for line in lines[12:]))
        assert capture_files(store, [path]).added.turns == 4


def test_a_rewritten_chat_is_read_whole_again(tmp_path: Path) -> None:
    lines = chat(["user", "answer"] * 4)
    path, db = chat_file(tmp_path, lines)
    with open_experiences(db, create=True) as store:
        capture_files(store, [path])
        rewritten = [*lines[:7], lines[7].replace("stale", "fresh")]  # same length, under the cursor
        write_lines(path, rewritten)
        assert capture_files(store, [path]).added.experiences == 1
    assert records(db) == whole_captures(path, tmp_path / "slow.db", [lines, rewritten])


def test_a_bad_line_after_the_cursor_is_reported_at_its_line(tmp_path: Path) -> None:
    lines = chat(["user", "answer"] * 3)
    path, db = chat_file(tmp_path, lines)
    with open_experiences(db, create=True) as store:
        capture_files(store, [path])
        before = records(db)
        with path.open("a", encoding="utf-8") as file:
            file.write('{"role": "user", "content": "fine"}\n{"content": "no role"}\n')
        with pytest.raises(ZeroError) as raised:
            capture_files(store, [path])
    assert ":8:" in raised.value.headline()
    assert records(db) == before


def test_chats_that_are_not_one_message_a_line_keep_no_cursor(tmp_path: Path) -> None:
    conversations = [json.dumps({"messages": [json.loads(line) for line in chat(["user", "answer"])]})] * 3
    path, db = tmp_path / "chats.jsonl", tmp_path / "chats.db"
    write_lines(path, conversations)
    with open_experiences(db, create=True) as store:
        assert capture_files(store, [path]).files[0].sessions == 3
        assert store.cursor(str(path.resolve())) is None


def test_a_raw_line_separator_in_a_message_stays_in_its_line(tmp_path: Path) -> None:
    claude = entries(["user", "answer", "user", "answer"])
    raw = "\u2028\u2029\x85"  # what JSON.stringify writes as it is (it escapes the controls)
    claude[3] = claude[3].replace("stale", f"st{raw}ale")
    openai = chat(["user", "separators", "user", "answer"])
    for name, lines in (("claude", claude), ("openai", openai)):
        path, db = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.db"
        write_lines(path, lines)
        with open_experiences(db, create=True) as store:
            assert capture_files(store, [path]).files[0].turns == 2
        texts = [what for _, _, _, what, *_ in records(db)["exp_experience"]]
        assert any((raw if name == "claude" else SEPARATORS) in text for text in texts), name
