"""Issue 40, point 4: the corners a reliability probe reached, each a located one-line error now.

A confidence written as an integer past every float, a `.0c` store time that is no time, and a
`match` of tens of thousands of chained patterns (the join check was quadratic in them).
(MCP's too-deep line: tests/mcp/test_keeps_answering.py; the hooks' transcript that is no file:
tests/agents/test_claude_code_hook.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.hardening.support import zero
from zerolang.knowledge.formats.compact import CompactError
from zerolang.knowledge.formats.compact import parse as parse_compact
from zerolang.knowledge.query import QueryError, parse_query
from zerolang.knowledge.query.parser import MAX_PATTERNS
from zerolang.util import strictjson

CONTEXT = {"event_time": "2024-01-01T00:00:00Z", "source": "probe", "scope": "general"}


def record(confidence: str) -> str:
    tuple_text = f'{{"subject": "a", "predicate": "b", "object": "c", "confidence": {confidence}}}'
    return f'{{"tuples": [{tuple_text}], "context": {json.dumps(CONTEXT)}}}\n'


@pytest.mark.parametrize("number", ["1" + "0" * 400, "-" + "9" * 5000, "1e400"])
def test_a_number_past_every_float_is_a_located_error(tmp_path: Path, number: str) -> None:
    source = tmp_path / "big.json"
    source.write_text(record(number))
    line = zero("memory", "ingest", str(source), "--db", str(tmp_path / "m.db")).clear_error()
    column = record(number).index(number) + 1
    assert line.startswith(f"error: {source}:1:{column}: the number ") and "out of range" in line, line
    assert len(line) < 200, line  # the number is shown cut, not whole
    assert not (tmp_path / "m.db").exists()  # a refused first write leaves no store behind


def test_an_integer_within_float_range_still_reads() -> None:
    assert strictjson.DECODER.decode("[" + "9" * 300 + "]") == [int("9" * 300)]
    assert strictjson.locate("[" + "9" * 300 + "]") is None
    problem = strictjson.locate('{"a": [1, ' + "9" * 310 + "]}")
    assert problem is not None and problem.offset == 10


def test_a_huge_integer_confidence_through_the_python_api() -> None:
    import zerolang.memory
    from zerolang.util.errors import ZeroError

    with zerolang.memory.open(":memory:") as memory, pytest.raises(ZeroError, match="out of range"):
        memory.remember([("a", "b", "c", 10**400)])


DOCUMENT = "0M:1.0\nagent\nb\nX:2026-01-01 s c\n@{time}\n1 uses2 95\n"


@pytest.mark.parametrize("time", ["hello", "2026-13-01", "yesterday", "2026-01-01T25:00:00Z"])
def test_a_compact_store_time_is_read_as_every_time_is(time: str) -> None:
    with pytest.raises(CompactError) as caught:
        parse_compact(DOCUMENT.format(time=time))
    error = caught.value
    assert error.span is not None and (error.span.line, error.span.column) == (5, 2), str(error)
    assert "not an ISO 8601 time" in str(error)


def test_a_valid_compact_store_time_is_kept_as_written() -> None:
    snapshot = parse_compact(DOCUMENT.format(time="2026-02-01T01:00:00+01:00"))
    assert {relation.created_at for relation in snapshot.relations} == {"2026-02-01T01:00:00+01:00"}


@pytest.mark.parametrize(
    ("line", "column"),
    [("alice|@soon\n", 8), ("alice|^later\n", 8)],
)
def test_a_concept_time_is_validated(line: str, column: int) -> None:
    text = "0M:1.0\n" + line + "X:2026-01-01 s c\n@2026-01-01T00:00:00.000Z\n1 knows1\n"
    with pytest.raises(CompactError) as caught:
        parse_compact(text)
    span = caught.value.span
    assert span is not None and (span.line, span.column) == (2, column), str(caught.value)


def test_a_compact_import_of_a_bad_time_changes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "bad.0c"
    source.write_text(DOCUMENT.format(time="hello"))
    db = tmp_path / "m.db"
    line = zero("memory", "import", str(source), "--db", str(db)).clear_error()
    assert line.startswith(f"error: {source}:5:2: "), line
    assert not db.exists()


def chain(count: int) -> str:
    return "match " + ", ".join(f"(?a{n} p ?a{n + 1})" for n in range(count))


def test_a_match_holds_at_most_the_documented_number_of_patterns() -> None:
    assert len(parse_query(chain(MAX_PATTERNS)).patterns) == MAX_PATTERNS
    text = chain(32_000)
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    assert f"at most {MAX_PATTERNS}" in str(caught.value)
    assert caught.value.span is not None and caught.value.span.start == text.index(f"(?a{MAX_PATTERNS} ")
    limits = (Path(__file__).parents[2] / "docs" / "limits.md").read_text()
    assert f"At most {MAX_PATTERNS} patterns in a `match`" in limits


@given(st.lists(st.integers(0, 6), min_size=1, max_size=12), st.data())
def test_the_join_check_agrees_with_a_reference(links: list[int], data: st.DataObject) -> None:
    """Patterns (?vA p ?vB) over a few variables: refused exactly when they form two or more
    connected groups, naming the first pattern outside the first pattern's group."""
    pairs = [(a, data.draw(st.integers(0, 6))) for a in links]
    text = "match " + ", ".join(f"(?v{a} p ?v{b})" for a, b in pairs)
    group = {pairs[0][0], pairs[0][1]}
    changed = True
    while changed:
        changed = False
        for a, b in pairs:
            if (a in group or b in group) and not {a, b} <= group:
                group |= {a, b}
                changed = True
    lonely = next((n for n, (a, _) in enumerate(pairs) if a not in group), None)
    if lonely is None:
        assert len(parse_query(text).patterns) == len(pairs)
        return
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    starts = [0] * len(pairs)
    position = 6
    for n, (a, b) in enumerate(pairs):
        starts[n] = text.index(f"(?v{a} p ?v{b})", position)
        position = starts[n] + 1
    assert caught.value.span is not None and caught.value.span.start == starts[lonely]
