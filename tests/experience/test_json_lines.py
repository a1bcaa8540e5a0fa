"""A transcript line is read as `json.loads` reads it, with or without the C scanner's fast path."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolang.experience.transcripts import jsonlines
from zerolang.experience.transcripts.jsonlines import read_lines
from zerolang.util.errors import ZeroError

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)
# a value as JSON, then perhaps bent: spaces around it, something after it, a cut
lines = st.builds(
    lambda text, before, after, cut: (before + text + after)[:cut],
    values.map(json.dumps),
    st.sampled_from(["", " ", "\t"]),
    st.sampled_from(["", " ", "}", ",1", " 2", "x"]),
    st.integers(min_value=1, max_value=200),
)


def read_one(text: str) -> Any:
    return read_lines(text, "t.jsonl").values[0].value


@pytest.mark.parametrize("scanner", [True, False])
@given(line=lines)
def test_a_line_reads_as_json_loads_reads_it(line: str, scanner: bool) -> None:
    if not line.strip() or line.lstrip().startswith("["):
        return  # blank, or a whole-file JSON list: other rules
    text = line + "\n"  # an ended line: never left for later
    with pytest.MonkeyPatch.context() as patch:
        if not scanner:
            patch.setattr(jsonlines, "_SCAN", None)
        try:
            expected = json.loads(line)
        except json.JSONDecodeError:
            with pytest.raises(ZeroError, match="malformed JSON"):
                read_one(text)
            return
        assert json.dumps(read_one(text)) == json.dumps(expected)
