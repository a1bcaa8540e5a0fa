"""Resuming from a cursor for pi session files: trees (version 3) and version 1 files in order.

A session file is grown chunk by chunk (user and assistant messages, tool results, bash runs,
compactions, entries that are not the conversation, blank lines, and branches: an entry whose
parent is an earlier entry, which moves the conversation's path) and captured after each chunk by
`zero hook pi`'s capture and by `zero capture`; both must make the records a whole-file read
makes after the same chunks.
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

KINDS = ("user", "answer", "tool", "bash", "compaction", "custom", "blank", "branch")


def session(kinds: list[str], *, version: int = 3) -> list[str]:
    """A pi session file's lines: its header, then one entry per kind (a blank line for `blank`);
    `branch` is a user message whose parent is the entry three before the last (a new branch)."""
    out = [json.dumps({"type": "session", "version": version, "id": "pi-session-7", "cwd": "/w"})]
    ids: list[str] = []
    for n, kind in enumerate(kinds):
        if kind == "blank":
            out.append("")
            continue
        parent = ids[-3] if kind == "branch" and len(ids) >= 3 else (ids[-1] if ids else None)
        entry: dict[str, Any] = {"id": f"e{n:04d}", "timestamp": f"2026-01-01T00:{n // 60:02d}:{n % 60:02d}Z"}
        if version != 1:
            entry["parentId"] = parent
        if kind in {"user", "branch"}:
            entry |= {
                "type": "message",
                "message": {"role": "user", "content": f"why does token {n} expire?"},
            }
        elif kind == "answer":
            blocks = [{"type": "thinking", "thinking": f"clock {n}"}, {"type": "text", "text": f"stale {n}"}]
            entry |= {"type": "message", "message": {"role": "assistant", "content": blocks}}
        elif kind == "tool":
            result = {
                "role": "toolResult",
                "toolName": "read",
                "content": [{"type": "text", "text": f"r{n}"}],
            }
            entry |= {"type": "message", "message": result}
        elif kind == "bash":
            entry |= {
                "type": "message",
                "message": {"role": "bashExecution", "command": "ls", "output": f"f{n}"},
            }
        elif kind == "compaction":
            entry |= {"type": "compaction", "summary": f"kept the billing notes {n}"}
        else:
            entry |= {"type": "model_change", "model": "m"}
        ids.append(entry["id"])
        out.append(json.dumps(entry))
    return out


def hook(store: ExperienceStore, path: Path) -> None:
    capture_new_turns(store, path, fmt="pi")


def capture_file(store: ExperienceStore, path: Path) -> None:
    capture_files(store, [path])


@settings(max_examples=40, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(KINDS), max_size=30).map(lambda k: ["user", *k]),
    cuts=st.lists(st.integers(min_value=0, max_value=40), max_size=8),
    version=st.sampled_from([1, 3]),
)
def test_resuming_a_pi_session_makes_what_reading_it_whole_makes(
    tmp_path_factory: Any, kinds: list[str], cuts: list[int], version: int
) -> None:
    folder = tmp_path_factory.mktemp("pi")
    chunks = split(session(kinds, version=version), cuts)
    slow = records(grow(folder, "slow", chunks, whole_file_capture))
    assert records(grow(folder, "hook", chunks, hook)) == slow
    assert records(grow(folder, "file", chunks, capture_file)) == slow


@pytest.mark.parametrize("version", [1, 3])
def test_a_grown_pi_session_is_read_from_its_cursor_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    lines = session(["user", "answer", "tool", "answer"] * 10, version=version)
    path, db = tmp_path / "s.jsonl", tmp_path / "s.db"
    write_lines(path, lines[:21])
    with open_experiences(db, create=True) as store:
        hook(store, path)
        assert cursor_row(db)["tree"] is (version != 1)

        def refused(*_: object) -> None:
            raise AssertionError("read the whole file")

        monkeypatch.setattr(hook_capture, "read_whole", refused)
        monkeypatch.setattr(file_capture, "read_whole", refused)
        with path.open("a", encoding="utf-8") as file:
            file.write("".join(line + "\n" for line in lines[21:31]))
        assert capture_new_turns(store, path, fmt="pi").turns == 3  # two whole, one begun
        with path.open("a", encoding="utf-8") as file:
            file.write("".join(line + "\n" for line in lines[31:]))
        assert capture_files(store, [path]).files[0].turns == 10
    assert cursor_row(db)["line"] == 38


def test_a_branch_from_before_the_cursor_is_read_whole(tmp_path: Path) -> None:
    lines = session(["user", "answer"] * 4)
    path, db = tmp_path / "s.jsonl", tmp_path / "s.db"
    write_lines(path, lines)
    branch = {
        "type": "message",
        "id": "late",
        "parentId": "e0001",
        "message": {"role": "user", "content": "again"},
    }
    with open_experiences(db, create=True) as store:
        hook(store, path)
        with path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(branch) + "\n")
        hook(store, path)
    assert records(db) == whole_captures(path, tmp_path / "slow.db", [lines, [*lines, json.dumps(branch)]])


def test_a_tail_whose_path_leaves_it_elsewhere_is_not_read_alone() -> None:
    from zerolang.experience.transcripts import pi
    from zerolang.experience.transcripts.jsonlines import Line

    tail = [Line(json.loads(line), n) for n, line in enumerate(session(["user", "answer"] * 3)[3:], start=4)]
    assert pi.chain(tail).exit == "e0001"
    assert pi.parse_tail(tail, "s.jsonl", "s", "e0001", is_tree=True) is not None
    assert pi.parse_tail(tail, "s.jsonl", "s", "e0000", is_tree=True) is None
    assert pi.parse_tail(tail, "s.jsonl", "s", "e0000", is_tree=False) is not None  # file order
    assert pi.parse_tail([*tail, Line([], 10)], "s.jsonl", "s", "e0001", is_tree=True) is None


def test_zero_capture_after_a_branch_gives_an_earlier_turn_its_new_layers(tmp_path: Path) -> None:
    """The path moved to a branch from before the latest stored turn: the first turn gains the answer
    the new path goes through, as a capture of the whole file in a new store gives it (found by
    the property above: `zero capture` took every turn before the latest stored one as settled)."""
    chunks = split(session(["user", "answer", "user", "branch", "branch"]), [5])
    assert records(grow(tmp_path, "file", chunks, capture_file)) == records(
        grow(tmp_path, "slow", chunks, whole_file_capture)
    )
