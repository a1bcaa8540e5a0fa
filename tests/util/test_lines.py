"""Lines as the parsers number them: a line ends at `\\n` alone (a `\\r` before it is part of the end)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from zerolang.util.lines import split_lines

SEPARATORS = "\u2028\u2029\x85\x0b\x0c\x1c\x1d\x1e"  # where `str.splitlines` also breaks
TEXT = st.lists(st.sampled_from(["a", " ", "\n", "\r", "\r\n", *SEPARATORS])).map("".join)


@given(TEXT)
def test_a_line_ends_at_a_newline_only(text: str) -> None:
    lines = split_lines(text)
    assert all("\n" not in line for line in lines)
    assert len(lines) == text.count("\n") + (0 if text == "" or text.endswith("\n") else 1)
    # nothing but the `\r` of a `\r\n` is lost: joining the lines back gives the text
    assert "\n".join(lines) + ("\n" if text.endswith("\n") else "") == text.replace("\r\n", "\n")


@given(TEXT)
def test_lines_agree_with_splitlines_where_only_newlines_break(text: str) -> None:
    plain = text.replace("\r", "")
    for mark in SEPARATORS:
        plain = plain.replace(mark, "")
    assert split_lines(plain) == plain.splitlines()


def test_a_json_line_holding_a_raw_line_separator_is_one_line() -> None:
    line = json.dumps({"text": f"a{SEPARATORS}b"}, ensure_ascii=False)
    assert split_lines(f"{line}\r\n{line}\n") == [line, line]
    assert len(f"{line}\n".splitlines()) > 1  # what the old reading did


def test_a_diagnostic_shows_the_line_it_names_after_a_raw_line_separator(tmp_path: Path) -> None:
    source = 'Graph {\n  name: "a\u2028b\x85c",\n  nodes: [\n    { id: "x", op: "Nope" },\n  ],\n  outputs: ["x"],\n}\n'
    path = tmp_path / "sep.0"
    path.write_text(source, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "zerolang", "check", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    first, excerpt = (done.stdout + done.stderr).splitlines()[:2]
    assert f"{path}:4:5:" in first
    assert excerpt == '4 |     { id: "x", op: "Nope" },'
