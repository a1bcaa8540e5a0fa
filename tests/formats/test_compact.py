"""`.0c`: lossless round trips (records and whole stores), hashes recomputed, errors located with a caret."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from tests.formats.strategies import histories, records
from zerolang.errors import ZeroError
from zerolang.formats import CompactError, Snapshot, parse, parse_record, serialize
from zerolang.formats.compact import confidence, read_confidence
from zerolang.formats.model import read_store
from zerolang.grammar import build_parser
from zerolang.memory.store import MemoryStore
from zerolang.memory.types import MemoryRecord


@settings(max_examples=60, deadline=None)
@given(records())
def test_a_record_round_trips(record: MemoryRecord) -> None:
    text = serialize(record)
    assert parse_record(text) == record
    assert parse(text) == Snapshot.of_record(record)


@settings(max_examples=25, deadline=None)
@given(histories())
def test_a_store_round_trips(history: list[MemoryRecord]) -> None:
    with MemoryStore() as store:
        for record in history:
            store.insert_record(record)
        snapshot = read_store(store)
    assert parse(serialize(snapshot)) == snapshot
    with MemoryStore() as copy:
        from zerolang.formats.model import write_store

        write_store(copy, parse(serialize(snapshot)))
        assert read_store(copy) == snapshot


@settings(max_examples=25, deadline=None)
@given(records())
def test_the_grammar_accepts_what_the_serializer_writes(record: MemoryRecord) -> None:
    build_parser("zeroc", fast=False).parse(serialize(record))


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
    from zerolang.formats.compact import label

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


SYNTAX = [0, 6, 7, 8, 10, 11]  # the BAD cases no grammar can accept (the others are checks of meaning)


@pytest.mark.parametrize("index", SYNTAX)
def test_the_grammar_rejects_what_the_parser_rejects_as_syntax(index: int) -> None:
    from lark.exceptions import LarkError

    with pytest.raises(LarkError):
        build_parser("zeroc", fast=False).parse(BAD[index][0])


def test_a_document_of_two_contexts_is_not_a_record() -> None:
    text = "0M:1.0\na\nX:2026-01-01 s c\n@2026-01-01\n1 r1\nX:2026-01-02 s c\n@2026-01-01\n1 r1\n"
    assert len(parse(text).contexts) == 2
    with pytest.raises(ZeroError, match="one context"):
        parse_record(text)
