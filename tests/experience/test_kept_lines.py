"""A slim reading (`jsonlines.Kept`) keeps the fields it names and gives back the whole line."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from zerolang.experience.transcripts import read_transcript
from zerolang.experience.transcripts.jsonlines import Fields, Kept, line_values, whole

objects = st.dictionaries(
    st.sampled_from(["id", "parentId", "type", "text", "n"]),
    st.none() | st.integers() | st.text(max_size=8),
    max_size=5,
)
breaks = st.sampled_from(["\n", "\r\n", "\n\n", "\n  \n"])


def keep_ids(_first: Any) -> Fields:
    return lambda value: None if value.get("type") == "session" else ("id", "parentId")


@given(rows=st.lists(st.tuples(objects, breaks), min_size=1, max_size=8), ended=st.booleans())
def test_a_kept_line_is_its_fields_and_gives_the_whole_line_back(
    rows: list[tuple[dict[str, Any], str]], ended: bool
) -> None:
    text = "".join(json.dumps(value) + end for value, end in rows)
    text = text if ended else text.rstrip("\r\n")
    plain = line_values(text).values
    slim = line_values(text, slim=keep_ids).values
    assert [line.line for line in slim] == [line.line for line in plain]
    assert slim[0].value == plain[0].value and not isinstance(slim[0].value, Kept)  # the first: whole
    for kept, full in zip(slim[1:], plain[1:], strict=True):
        assert whole(kept.value) == full.value
        if full.value.get("type") == "session":
            assert not isinstance(kept.value, Kept)
        else:
            assert kept.value == {name: full.value[name] for name in ("id", "parentId") if name in full.value}


def test_a_claude_code_session_reads_the_same_slim_or_whole(tmp_path: Any) -> None:
    rows = [
        {"type": "user", "uuid": "a", "parentUuid": None, "sessionId": "s", "message": {"content": "hi"}},
        {"type": "assistant", "uuid": "b", "parentUuid": "a", "message": {"id": "m", "content": "one"}},
        {"type": "assistant", "uuid": "c", "parentUuid": "a", "message": {"id": "n", "content": "two"}},
        {"type": "summary", "summary": "kept"},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    [session] = read_transcript(path)
    assert [(m.role.value, m.text) for m in session.messages] == [
        ("user", "hi"),
        ("assistant", "two"),
        ("summary", "kept"),
    ]
