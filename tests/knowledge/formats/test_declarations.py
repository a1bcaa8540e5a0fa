"""A store's declarations in `.0c`, JSON and deltas: `!single-valued PRED @TIME` lines that round-trip."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.knowledge.formats.strategies import records, stamp, verb
from tests.knowledge.formats.test_compact import _only_the_contextual_lexer
from zerolang.knowledge.backend import Declaration
from zerolang.knowledge.formats import CompactError, Snapshot, jsonform, parse, parse_record, serialize
from zerolang.knowledge.formats import delta as deltas
from zerolang.knowledge.formats.compact import declaration_line, label
from zerolang.knowledge.formats.levels import Level, render
from zerolang.knowledge.normalize import normalize_predicate
from zerolang.knowledge.temporal import SINGLE_VALUED
from zerolang.syntax.grammar import build_parser
from zerolang.util.errors import ZeroError

declaration = st.builds(
    Declaration, stamp, st.just(SINGLE_VALUED), verb.map(normalize_predicate), st.booleans()
)


@st.composite
def declared(draw: st.DrawFn) -> Snapshot:
    """A record's snapshot with any declarations (predicates of any characters)."""
    snapshot = Snapshot.of_record(draw(records()))
    return replace(snapshot, declarations=tuple(draw(st.lists(declaration, max_size=4))))


@settings(max_examples=60, deadline=None)
@given(declared())
def test_declarations_round_trip_in_every_importable_form(snapshot: Snapshot) -> None:
    text = serialize(snapshot)
    assert parse(text) == snapshot
    assert parse(render(snapshot, Level.L2)) == snapshot  # sealed, as exports and bundles are
    assert jsonform.loads(jsonform.dumps(snapshot)) == snapshot
    build_parser("zeroc", fast=False).parse(text)
    with _only_the_contextual_lexer():
        assert parse(text) == snapshot


def test_the_line_forms() -> None:
    at = "2026-02-01T00:00:00.000Z"
    assert (
        declaration_line(Declaration(at, SINGLE_VALUED, "works_at", True)) == f"!single-valued works_at @{at}"
    )
    assert (
        declaration_line(Declaration(at, SINGLE_VALUED, "works_at", False))
        == f"!-single-valued works_at @{at}"
    )
    assert declaration_line(Declaration(at, SINGLE_VALUED, "a b", True)) == f'!single-valued "a b" @{at}'
    with pytest.raises(ValueError, match="not a setting name"):
        declaration_line(Declaration(at, "Bad Setting", "x", True))


DOCUMENT = """0M:1.0
!single-valued works_at @2026-02-01T00:00:00.000Z
bob
acme
!-single-valued "works at" @2026-02-03
X:2019-01-01 hr cv
@2026-01-01T00:00:00.000Z
1 works_at2
"""


def test_a_declaration_is_read_anywhere_its_time_and_predicate_normalised() -> None:
    snapshot = parse(DOCUMENT)
    assert snapshot.declarations == (
        Declaration("2026-02-01T00:00:00.000Z", SINGLE_VALUED, "works_at", True),
        Declaration("2026-02-03T00:00:00.000Z", SINGLE_VALUED, "works_at", False),
    )
    assert [c.label for c in snapshot.concepts] == ["bob", "acme"]  # not numbered: not concepts
    text = serialize(snapshot)
    assert text.splitlines()[1:3] == [
        "!single-valued works_at @2026-02-01T00:00:00.000Z",
        "!-single-valued works_at @2026-02-03T00:00:00.000Z",
    ]
    with pytest.raises(ZeroError, match="holds no declarations"):
        parse_record(text)


def test_a_label_starting_with_an_exclamation_mark_is_quoted_and_old_bare_ones_still_read() -> None:
    assert label("!important") == '"!important"'
    assert label("!single-valued works_at @2026-01-01").startswith('"')
    old = "0M:1.0\n!important\n!single-valued works_at\nX:2019-01-01 hr cv\n@2026-01-01\n1 likes2\n"
    snapshot = parse(old)  # a 1.0 document written before declarations: read as it was
    assert [c.label for c in snapshot.concepts] == ["!important", "!single-valued works_at"]
    assert snapshot.declarations == ()
    assert parse(serialize(snapshot)) == snapshot


@pytest.mark.parametrize(
    ("line", "column", "words"),
    [
        ("!multi-valued works_at @2026-01-01", 2, "unknown setting `multi-valued`"),
        ("!-other x @2026-01-01", 3, "unknown setting `other`"),
        ("!single-valued works_at @yesterday", 26, "not an ISO 8601 time"),
        ('!single-valued "  " @2026-01-01', 16, "not a predicate"),
    ],
)
def test_a_bad_declaration_is_an_error_at_its_column(line: str, column: int, words: str) -> None:
    with pytest.raises(CompactError) as caught:
        parse(f"0M:1.0\n{line}\n", "bad.0c")
    assert caught.value.location() == f"bad.0c:2:{column}"
    assert words in caught.value.message


def test_json_without_declarations_loads_and_bad_ones_are_refused() -> None:
    snapshot = parse(DOCUMENT)
    document = jsonform.to_json(snapshot)
    plain = {key: value for key, value in document.items() if key != "declarations"}
    assert jsonform.from_json(plain) == replace(snapshot, declarations=())
    assert "declarations" not in jsonform.to_json(replace(snapshot, declarations=()))  # old form kept
    for bad in (
        {"at": "2026-01-01", "setting": "other", "value": "x", "declared": True},
        {"at": "2026-01-01", "setting": SINGLE_VALUED, "value": "x", "declared": "yes"},
        {"at": 3, "setting": SINGLE_VALUED, "value": "x", "declared": True},
        {"setting": SINGLE_VALUED, "value": "x", "declared": True},
    ):
        with pytest.raises(ZeroError, match="not a 0-memory JSON export") as caught:
            jsonform.loads(json.dumps({**document, "declarations": [bad]}), "m.json")
        assert "\n" not in str(caught.value)


def test_a_delta_carries_the_declarations_its_base_lacks() -> None:
    old = parse(DOCUMENT)
    later = Declaration("2026-02-05T00:00:00.000Z", SINGLE_VALUED, "lives_in", True)
    new = replace(old, declarations=(*old.declarations, later))
    delta = deltas.diff(old, new)
    assert delta.additions.declarations == (later,) and delta.additions.relations == ()
    assert deltas.parse_delta(delta.to_text()).additions == delta.additions
    with pytest.raises(deltas.DeltaError, match="declarations of the old memory are gone"):
        deltas.diff(new, old)
