"""Issue 23, point 5: every reader is total and linear. Long numbers in `.0c` are located errors
(never OverflowError/ValueError), long runs of blanks before a bad character lex in linear time,
and a command-line argument that is not UTF-8 is a usage error naming it (exit 2), never exit 3.

Time is never asserted here: a quadratic reader would make these tests run for minutes, and the
bench (benches/bench_readers.py) measures time per byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.support import ROOT, zero
from zerolang.knowledge.formats.compact import CompactError, parse, read_confidence, scan
from zerolang.knowledge.query import parse_query
from zerolang.syntax.parser import parse as parse_zero
from zerolang.tools.lint.compact import findings
from zerolang.util.errors import ZeroError

HEAD = "0M:1.0\na|A\nb|B\nX:2026-02-18T00:00:00Z s t\n@2026-02-20T10:00:00.000Z\n"
LONG_NUMBERS = {
    "400-digit confidence": (HEAD + "1 needs2 " + "9" * 400 + "\n", 6),
    "long fraction": (HEAD + "1 needs2 ." + "9" * 400 + "e" + "9" * 400 + "\n", 6),
    "concept confidence": ("0M:1.0\na|A|=" + "9" * 400 + "\n", 2),
    "4301-digit subject": (HEAD + "1" * 4301 + " needs2\n", 6),
    "4301-digit object": (HEAD + "1 needs" + "2" * 4301 + "\n", 6),
    "4301-digit line count": ("0M:1.1\na|A\n0M:end lines=" + "1" * 4301 + " sha256=0123456789abcdef\n", 3),
    "4301-digit version": ("0M:" + "1" * 4301 + ".1\n", 1),
    "4301-digit minor": ("0M:1." + "1" * 4301 + "\n", 1),
}


@pytest.mark.parametrize("case", LONG_NUMBERS)
def test_long_numbers_in_0c_are_located_errors(case: str) -> None:
    text, line = LONG_NUMBERS[case]
    with pytest.raises(CompactError) as caught:
        parse(text, "x.0c")
    assert caught.value.span is not None and caught.value.span.line == line
    message = str(caught.value).splitlines()[0]
    assert len(message) < 300, message  # the number is cut in the message, not copied whole
    assert isinstance(findings(text, "x.0c"), list)


@pytest.mark.parametrize("text", ["0" * 1000 + "95", "1" + "0" * 5000, "1e999", "9" * 400 + ".5"])
def test_read_confidence_is_total(text: str) -> None:
    if text.startswith("0" * 10):
        assert read_confidence(text) == 0.95
        return
    with pytest.raises(ValueError, match="between 0 and 1"):
        read_confidence(text)


@pytest.mark.parametrize("command", [["check"], ["lint"], ["fmt", "--check"]])
def test_commands_on_long_numbers_exit_1(command: list[str], tmp_path: Path) -> None:
    path = tmp_path / "long.0c"
    path.write_text(LONG_NUMBERS["4301-digit subject"][0], encoding="utf-8")
    outcome = zero(*command, str(path))
    assert outcome.code == 1, (outcome.code, outcome.stderr, outcome.stdout)
    assert "internal error" not in outcome.stderr + outcome.stdout


def test_memory_import_of_long_numbers_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "long.0c"
    path.write_text(LONG_NUMBERS["400-digit confidence"][0], encoding="utf-8")
    outcome = zero("memory", "import", str(path), "--db", str(tmp_path / "m.db"))
    assert "confidence" in outcome.clear_error()


@pytest.mark.parametrize("blank", ["\n", " ", "\t", "\r\n"])
def test_zero_lexer_finishes_on_a_long_run_of_blanks(blank: str) -> None:
    text = blank * 200_000 + "~"
    with pytest.raises(ZeroError) as caught:
        parse_zero(text, "blank.0")
    assert "`~`" in str(caught.value)
    with pytest.raises(ZeroError):
        parse_zero("Graph {" + text, "blank.0")


def test_many_broken_0c_lines_are_read_once() -> None:
    text = "0M:1.0\n" + "1 ~\n" * 50_000
    with pytest.raises(CompactError) as caught:
        parse(text, "x.0c")
    assert caught.value.span is not None and caught.value.span.line == 2
    faults = scan(text)[1]
    assert 1 <= len(faults) <= 50  # the linter reports the first fifty, not all 50,000
    assert isinstance(findings(text, "x.0c"), list)


def test_query_parser_finishes_on_long_input() -> None:
    for text in (
        "recall a" + " " * 200_000 + "~",
        "recall a" + "\n" * 200_000 + "~",
        "match " + "(" * 100_000,
    ):
        with pytest.raises(ZeroError):
            parse_query(text)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("args") / "m.db")
    assert zero("memory", "ingest", str(ROOT / "examples" / "memory_input.json"), "--db", path).code == 0
    return path


BAD = "\udcff"  # how Python hands over the byte 0xff of a command line that is not UTF-8


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "get", BAD],
        ["memory", "history", BAD],
        ["memory", "forget", BAD],
        ["memory", "retract", BAD],
        ["memory", "forget", "--source", "a" + BAD],
        ["query", "recall " + BAD],
        ["recall", BAD],
        ["run", str(ROOT / "examples" / "hello.0"), "-i", "a=" + BAD],
    ],
)
def test_arguments_that_are_not_utf8_are_usage_errors(args: list[str], db: str) -> None:
    extra = [] if args[0] == "run" else ["--db", db]
    outcome = zero(*args, *extra)
    assert outcome.code == 2, (outcome.code, outcome.stderr)
    assert "not valid UTF-8" in outcome.stderr and "\\xff" in outcome.stderr
    assert "internal error" not in outcome.stderr and "Traceback" not in outcome.stderr


def test_a_file_name_that_is_not_utf8_still_opens(tmp_path: Path) -> None:
    name = tmp_path / ("g" + BAD + ".0")
    name.write_bytes((ROOT / "examples" / "hello.0").read_bytes())
    assert zero("check", str(name)).code == 0
