"""Issue 15, point 3: a lone surrogate escape (`"\\ud800"`) is refused where it is written, with the
place, by every command; a surrogate pair is one character everywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.support import ROOT, graph, zero
from zerolang.syntax.parser import parse
from zerolang.util.errors import ZeroError, ZeroSyntaxError
from zerolang.util.escapes import first_lone_surrogate, lone_surrogate_escape
from zerolang.util.files import parse_json

LONE = graph(
    '{ id: "a", type: Constant, value: "\\ud800" }',
    '{ id: "b", type: Constant, value: "x" }',
    '{ id: "e", type: Operation, op: Eq, inputs: ["a", "b"] }',
    outputs='"e"',
)


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ('"\\ud800"', (1, "\\ud800")),
        ('"ab\\udc00"', (3, "\\udc00")),
        ('"\\ud83d\\ude00"', None),
        ('"\\ud83d\\ude00\\ud83d"', (13, "\\ud83d")),
        ('"\\ud83d x\\ude00"', (1, "\\ud83d")),
        ('"\\\\ud800"', None),  # an escaped backslash, then plain text
        ('"\\uD800\\n"', (1, "\\uD800")),
        ('"plain"', None),
    ],
)
def test_lone_surrogate_escape(literal: str, expected: tuple[int, str] | None) -> None:
    assert lone_surrogate_escape(literal) == expected


def test_first_lone_surrogate_walks_keys_and_values() -> None:
    assert first_lone_surrogate({"a": ["x", {"\udc01": 1}]}) == "\\udc01"
    assert first_lone_surrogate({"a": ["\U0001f600"]}) is None


@pytest.mark.parametrize("key", [False, True])
def test_parse_refuses_with_the_place(key: bool) -> None:
    text = 'Graph { "\\udbff": 1 }' if key else 'Graph { name: "a\\udbffb" }'
    with pytest.raises(ZeroSyntaxError) as caught:
        parse(text, "g.0")
    assert caught.value.span is not None
    assert text[caught.value.span.start : caught.value.span.end] == "\\udbff"


def test_a_pair_is_one_character() -> None:
    graph_ = parse('Graph { name: "\\ud83d\\ude00" }')
    assert graph_.get("name").value == "\U0001f600"  # type: ignore[union-attr]


@pytest.mark.parametrize("command", ["check", "run", "fmt", "viz", "lint"])
def test_every_command_agrees(command: str, tmp_path: Path) -> None:
    source = tmp_path / "f.0"
    source.write_text(LONE, encoding="utf-8")
    outcome = zero(command, str(source))
    assert outcome.code == 1, outcome.stderr
    assert "internal error" not in outcome.stderr
    shown = outcome.stderr + outcome.stdout
    assert "f.0:4:44: " in shown
    assert "lone surrogate `\\ud800`" in shown


def test_lint_fix_leaves_the_file_whole(tmp_path: Path) -> None:
    """The original reproducer: `lint --fix` exited 3 and left the file at 0 bytes."""
    source = tmp_path / "f.0"
    source.write_text(LONE, encoding="utf-8")
    outcome = zero("lint", "--fix", str(source))
    assert outcome.code == 1 and "internal error" not in outcome.stderr
    assert source.read_text(encoding="utf-8") == LONE


def test_run_inputs_refuse_a_lone_surrogate(tmp_path: Path) -> None:
    hello = str(ROOT / "examples" / "hello.0")
    line = zero("run", hello, "-i", 'name:="\\ud800"').clear_error()
    assert "lone surrogate `\\ud800`" in line
    inputs = tmp_path / "in.json"
    inputs.write_text('{"name": "ok",\n "x": "\\udfff"}', encoding="utf-8")
    line = zero("run", hello, "--inputs", str(inputs)).clear_error()
    assert f"{inputs}:2:8: lone surrogate `\\udfff`" in line
    assert zero("run", hello, "-i", 'name:="\\ud83d\\ude00"', "--json").code == 0


def test_parse_json_reports_the_place() -> None:
    with pytest.raises(ZeroError) as caught:
        parse_json('[1,\n "\\ud800"]', "x.json")
    assert caught.value.headline().startswith("x.json:2:3: lone surrogate")


COMPACT = "0M:1.0\n{label}|LTM\nagent|Agent\nX:2026-02-18T00:00:00Z user_prompt design{meta}\n@2026-11-24T02:02:42.225Z\n2 needs1 95\n"


@pytest.mark.parametrize(
    ("label", "meta", "where"),
    [('"long\\ud800"', "", ":2:6:"), ("ltm", ' m={"k":"\\udc00"}', ":4:51:")],
)
@pytest.mark.parametrize("command", [["check"], ["fmt"], ["memory", "import"]])
def test_compact_files_refuse_it_in_every_command(
    label: str, meta: str, where: str, command: list[str], tmp_path: Path
) -> None:
    document = tmp_path / "m.0c"
    document.write_text(COMPACT.format(label=label, meta=meta), encoding="utf-8")
    extra = ["--db", str(tmp_path / "m.db")] if command[0] == "memory" else []
    outcome = zero(*command, str(document), *extra)
    assert outcome.code == 1 and "internal error" not in outcome.stderr, outcome.stderr
    assert f"{document}{where} lone surrogate" in outcome.stderr


def test_query_labels_refuse_it(tmp_path: Path) -> None:
    outcome = zero("query", 'recall "\\ud800"', "--db", str(tmp_path / "m.db"))
    assert outcome.code == 1 and "internal error" not in outcome.stderr
