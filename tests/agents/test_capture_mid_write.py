"""A transcript read while its agent is writing it: the last line may be cut short.

An end-of-turn hook (or `zero capture`) can read a transcript between two writes of its agent, so
the file may end inside a line, even inside a character. Such a last line (no line end, not JSON)
is left for the next reading, without an error; any other bad line is still an error at its
`file:line:col`. Captured at every cut of a growing file and once more when it is whole, a store
holds exactly what one capture of the whole file makes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.agents.test_capture_cursor import records
from zerolang.agents.capture import capture_new_turns
from zerolang.experience.capture import capture_files
from zerolang.experience.transcripts import read_transcript
from zerolang.experience.transcripts.jsonlines import decoded, read_lines
from zerolang.storage import open_experiences
from zerolang.util.errors import ZeroError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"


def accented_chat() -> bytes:
    """An OpenAI chat, a message a line, whose text is not ASCII (cuts fall inside characters)."""
    lines = [
        {"role": "user", "content": "où est le reçu du café? 日本 ✓"},
        {"role": "assistant", "content": "dans le tiroir, sous la crème brûlée 🍮"},
        {"role": "user", "content": "merci, et la clé n°2?"},
        {"role": "assistant", "content": "à l'accueil — demande à Zoë"},
    ]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()


TRANSCRIPTS = {
    "claude": (FIXTURES / "claude_code.jsonl").read_bytes(),
    "pi3": (FIXTURES / "pi_v3.jsonl").read_bytes(),
    "pi1": (FIXTURES / "pi_v1.jsonl").read_bytes(),
    "openai": (FIXTURES / "openai_chat.jsonl").read_bytes(),
    "accented": accented_chat(),
    "claude_crlf": (FIXTURES / "claude_code.jsonl").read_bytes().replace(b"\n", b"\r\n"),
}


def test_a_last_line_cut_short_is_left_out_and_named() -> None:
    read = read_lines('{"a": 1}\n{"b": 2}\n{"c": "hal', "t.jsonl")
    assert [line.value for line in read.values] == [{"a": 1}, {"b": 2}]
    assert read.unfinished == 3


def test_a_complete_last_line_without_its_end_is_read() -> None:
    read = read_lines('{"a": 1}\n{"b": 2}', "t.jsonl")
    assert [line.value for line in read.values] == [{"a": 1}, {"b": 2}]
    assert read.unfinished is None


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"a": 1}\n{"b": \n', ":2:"),  # the last line is ended: the agent wrote it so
        ('{"a": 1}\n{"b": \n{"c": 3}', ":2:"),  # not the last line
        ('[{"role": "user", "content": "hi"}', ":1:"),  # one JSON document: not lines
    ],
)
def test_any_other_bad_line_is_still_an_error_at_its_place(text: str, where: str) -> None:
    with pytest.raises(ZeroError) as caught:
        read_lines(text, "t.jsonl")
    assert where in caught.value.headline()


def test_a_character_cut_short_at_the_end_is_left_out_but_not_one_inside() -> None:
    data = '{"a": "café"}\n{"b": "日'.encode()
    assert decoded(data[:-1], "t.jsonl") == '{"a": "café"}\n{"b": "'
    assert decoded(data[:-2], "t.jsonl") == '{"a": "café"}\n{"b": "'
    with pytest.raises(ZeroError, match="not UTF-8"):
        decoded(b'{"a": "\xff"}\n{"b": 1}\n', "t.jsonl")


def test_a_transcript_whose_one_line_is_being_written_has_no_session_yet(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(TRANSCRIPTS["claude"][:40])
    assert read_transcript(path) == []
    with open_experiences(tmp_path / "e.db", create=True) as store:
        result = capture_files(store, [path])
        assert result.files[0].unfinished == 1 and result.files[0].turns == 0
        assert capture_new_turns(store, path).turns == 0


def line_end(data: bytes, end: int) -> int:
    """Where the complete lines of `data[:end]` stop: what a reader can take of the file cut there."""
    if end == len(data) or data[end : end + 1] == b"\n" or data[end : end + 2] == b"\r\n":
        return end  # the cut falls at a line's end (before its `\r\n` too): its last line is whole
    return data.rfind(b"\n", 0, end) + 1


def grow_by_cuts(folder: Path, data: bytes, ends: list[int], hook: bool) -> Path:
    path, db = folder / "t.jsonl", folder / f"{len(list(folder.iterdir()))}.db"
    with open_experiences(db, create=True) as store:
        for end in [*(end for end in ends if end > 0), len(data)]:  # an empty file is no transcript
            path.write_bytes(data[:end])  # the file as a reader may find it mid-write
            if hook:
                capture_new_turns(store, path)
            else:
                capture_files(store, [path])
    return db


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(TRANSCRIPTS)),
    cuts=st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=6),
    hook=st.booleans(),
)
@example(name="claude_crlf", cuts=[0.3398], hook=False)  # cut just before a `\r\n`: the line is whole
def test_a_file_cut_anywhere_is_captured_as_if_cut_after_its_last_whole_line(
    tmp_path_factory: Any, name: str, cuts: list[float], hook: bool
) -> None:
    data = TRANSCRIPTS[name]
    ends = sorted({round(cut * len(data)) for cut in cuts})
    cut = grow_by_cuts(tmp_path_factory.mktemp("cut"), data, ends, hook)
    whole_lines = grow_by_cuts(
        tmp_path_factory.mktemp("lines"), data, [line_end(data, end) for end in ends], hook
    )
    assert records(cut) == records(whole_lines)
