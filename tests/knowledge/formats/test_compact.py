"""`.0c`: lossless round trips (records and whole stores), hashes recomputed, errors located with a caret."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings

from tests.budget import scaled
from tests.knowledge.formats.strategies import histories, records
from zerolang.knowledge.formats import CompactError, Snapshot, compact, parse, parse_record, serialize
from zerolang.knowledge.formats.compact import confidence, read_confidence
from zerolang.knowledge.formats.model import read_store
from zerolang.knowledge.types import MemoryRecord
from zerolang.storage import open_store
from zerolang.syntax.grammar import build_parser
from zerolang.util.errors import ZeroError


@settings(max_examples=scaled(60), deadline=None)
@given(records())
def test_a_record_round_trips(record: MemoryRecord) -> None:
    text = serialize(record)
    assert parse_record(text) == record
    assert parse(text) == Snapshot.of_record(record)


@settings(max_examples=25, deadline=None)
@given(histories())
def test_a_store_round_trips(history: list[MemoryRecord]) -> None:
    with open_store() as store:
        for record in history:
            store.insert_record(record)
        snapshot = read_store(store)
    assert parse(serialize(snapshot)) == snapshot
    with open_store() as copy:
        from zerolang.knowledge.formats.model import write_store

        write_store(copy, parse(serialize(snapshot)))
        assert read_store(copy) == snapshot


@settings(max_examples=25, deadline=None)
@given(records())
def test_the_grammar_reads_what_the_serializer_writes_with_either_lexer(record: MemoryRecord) -> None:
    """`parse` lexes with `StateRegexLexer`; lark's contextual lexer (for errors) must read the same."""
    text = serialize(record)
    build_parser("zeroc", fast=False).parse(text)  # the grammar alone, no tree builder
    fast = parse(text)
    with _only_the_contextual_lexer():
        assert parse(text) == fast == Snapshot.of_record(record)


@contextmanager
def _only_the_contextual_lexer() -> Iterator[None]:
    from lark.exceptions import LexError

    def refuse(text: str) -> None:
        raise LexError("use the contextual lexer")

    fast = compact._parser(fast=True)
    original = fast.parse
    fast.parse = refuse
    try:
        yield
    finally:
        fast.parse = original


@pytest.mark.parametrize("value", [0.0, 1.0, 0.5, 0.95, 0.07, 0.123, 1e-9, 5e-324, 0.1 + 0.2, 0.999999])
def test_confidences_are_exact(value: float) -> None:
    assert read_confidence(confidence(value)) == value


def test_no_hash_is_spelled_and_each_is_recomputed(example_record: MemoryRecord) -> None:
    text = serialize(example_record)
    assert example_record.concepts[0].hash.hex()[:8] not in text
    tampered = text.replace("needs2", "wants2")
    assert parse_record(tampered).relations[0].fact_hash != example_record.relations[0].fact_hash


def test_comments_and_blank_lines_are_ignored(example_record: MemoryRecord) -> None:
    text = serialize(example_record).replace("\n", "\n# a comment\n\n", 2)
    assert parse_record(text) == example_record


def test_labels_that_look_like_other_lines_are_quoted() -> None:
    from zerolang.knowledge.formats.compact import label

    for text in ["12 apples", "X:ray", "#tag", '"quoted"', " padded", "a|b", "@home", "0M:1.0"]:
        assert label(text).startswith('"')
    assert label("dark mode") == "dark mode"


BAD = [
    ("agent\n", 1, 1, "starts with `0M:1.0`"),
    ("0M:2.0\n", 1, 4, "knows .0c 1.0"),
    ("0M:1.0\nagent\nagent\n", 3, 1, "already defined on line 2"),
    ("0M:1.0\nagent\n1 uses1\n", 3, 1, "after the `X:` line"),
    ("0M:1.0\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 uses9\n", 5, 3, "no concept 9"),
    ("0M:1.0\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 uses1 120\n", 5, 9, "between 0 and 1"),
    ("0M:1.0\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 uses1 abc\n", 5, 9, "not a confidence"),
    ("0M:1.0\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 uses1;x1\n", 5, 8, "expected `; `"),
    ("0M:1.0\nagent\nX:2026-01-01 s\n", 3, 15, "X:EVENT_TIME SOURCE SCOPE"),
    ("0M:1.0\nagent\nX:yesterday s c\n", 3, 3, "ISO 8601"),
    ("0M:1.0\nagent\nX:2026-01-01 s c q=1\n", 3, 18, "expected a=AGENT"),
    ('0M:1.0\n"agent\n', 2, 1, "bad quoted string"),
    ("0M:1.0\nagent|=2x\n", 2, 8, "not a confidence"),
    ("0M:1.0\nagent\nX:2026-01-01 s c\n1 uses1\n", 4, 1, "no time yet"),
    ("0M:1.0\nagent\nlonely\nX:2026-01-01 s c\n@2026-01-01\n1 uses1\n", 3, 1, "in no relation"),
]


@pytest.mark.parametrize(("text", "line", "column", "words"), BAD)
def test_errors_name_line_and_column_with_a_caret(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(CompactError) as caught:
        parse(text, "bad.0c")
    error = caught.value
    assert words in error.message
    assert error.location() == f"bad.0c:{line}:{column}"
    rendered = error.render().splitlines()
    assert rendered[0].startswith(f"bad.0c:{line}:{column}: ")
    assert rendered[-1].endswith("^")
    assert rendered[-1].index("^") - rendered[-1].index("|") - 2 == column - 1


SYNTAX = [0, 6, 7, 8, 10, 11, 12]  # the BAD cases no grammar can accept (the others are checks of meaning)


@pytest.mark.parametrize("index", SYNTAX)
def test_syntax_errors_are_the_grammars(index: int) -> None:
    from lark.exceptions import LarkError

    with pytest.raises(LarkError):
        build_parser("zeroc", fast=False).parse(BAD[index][0])


HEAD = "0M:1.0\nagent\nX:2026-01-01 s c\n@2026-01-01\n"
WORDED = [
    (HEAD + "1 uses1;x1\n", 5, 8, "expected `; ` and another relation or the end of the line, found `;x1`"),
    (HEAD + "1 uses1 95 x\n", 5, 11, "another relation or the end of the line, found a space"),
    (HEAD + "1 x\n", 5, 3, "expected a predicate and the object's number (`uses12`), found `x`"),
    (HEAD + '1 "v2\n', 5, 3, "bad quoted string"),
    (HEAD + '1 "a b"1 9x\n', 5, 10, "not a confidence: '9x'"),
    ("0M:1.0\nagent\tx\n", 2, 6, "found `\\t` (a label or alias with a tab"),
    ("0M:1.0\na|b|\n", 2, 5, "expected a label, found the end of the line"),
    ("0M:1.0\n@a b\n", 2, 3, "expected the end of the line, found a space"),
    ("0M:1.0\n@\n", 2, 2, "expected a value, found the end of the line"),
    ("0M:1.x\n", 1, 4, "expected the version (`1.0`), found `1.x`"),
    ("0M:1.0\nagent\n0M:1.0\n", 3, 1, "a second header"),
    ("0M:1.0\nagent|@x|=5\n", 2, 9, "expected `|^UPDATED` or the end of the line, found `|=5`"),
    ("0M:1.0\nX:2026-01-01 s c s=1 a=2\n", 2, 22, "expected m={metadata}, c=CREATED or the end"),
    ("0M:1.0\nX:2026-01-01 s c m=[]\n", 2, 20, "expected a JSON object, found `[]`"),
    ('0M:1.0\nX:2026-01-01 s c m={"a":1}\n', 2, 20, "metadata is a JSON object of strings"),
    ('0M:1.0\n"a\\q"\n', 2, 3, "bad quoted string: Invalid \\escape"),
    ("# only a comment\n\n", 1, 1, "starts with `0M:1.0`"),
]


@pytest.mark.parametrize(("text", "line", "column", "words"), WORDED)
def test_syntax_errors_say_what_was_expected_and_found(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(CompactError) as caught:
        parse(text, "bad.0c")
    assert words in caught.value.message
    assert caught.value.location() == f"bad.0c:{line}:{column}"


def test_blank_lines_comments_and_crlf_are_read_as_the_spec_says(example_record: MemoryRecord) -> None:
    text = serialize(example_record)
    padded = "  \n# a note\n\n" + text.replace("\n", "\r\n", 3).replace("\n", "\n \t\n", 1)
    assert parse_record(padded) == example_record
    assert parse_record(text.rstrip("\n")) == example_record


def test_scan_resumes_after_each_syntax_error() -> None:
    text = HEAD + "1 x\nbad\tlabel\n1 uses1 abc\n1 uses1 5\n"
    reader, faults = compact.scan(text)
    assert [(fault.line, fault.column) for fault in faults] == [(5, 3), (6, 4), (7, 9)]
    assert [relation[2] for relation in reader.relations] == [1]


def test_a_document_of_two_contexts_is_not_a_record() -> None:
    text = "0M:1.0\na\nX:2026-01-01 s c\n@2026-01-01\n1 r1\nX:2026-01-02 s c\n@2026-01-01\n1 r1\n"
    assert len(parse(text).contexts) == 2
    with pytest.raises(ZeroError, match="one context"):
        parse_record(text)
