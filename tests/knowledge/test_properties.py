"""Hypothesis: arbitrary Unicode labels and confidences compile, print, parse, run to the same hashes,
and ingesting anything twice changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from zerolang.memory import (
    CompilerInput,
    ContextMeta,
    SemanticTuple,
    compile_input,
    compile_record,
    normalize_label,
    normalize_predicate,
)
from zerolang.storage import open_store

from .conftest import assert_graph_reproduces, dump

UNICODE = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=24)  # no lone surrogates
TEXT = UNICODE.filter(bool)
LABELS = TEXT.filter(lambda text: normalize_label(text) != "")
PREDICATES = TEXT.filter(lambda text: normalize_predicate(text) != "")
NON_BLANK = TEXT.filter(lambda text: text.strip() != "")
CONFIDENCES = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
EVENT_TIMES = st.datetimes(
    min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.none() | st.just(UTC)
).map(lambda moment: moment.isoformat().replace("+00:00", "Z"))
TUPLES = st.builds(SemanticTuple, LABELS, PREDICATES, LABELS, CONFIDENCES)
CONTEXTS = st.builds(
    ContextMeta,
    EVENT_TIMES,
    NON_BLANK,
    NON_BLANK,
    st.none() | NON_BLANK,
    st.none() | NON_BLANK,
    st.dictionaries(UNICODE.map(lambda text: text[:5]), UNICODE, max_size=2),
)
INPUTS = st.builds(
    CompilerInput, st.lists(TUPLES, min_size=1, max_size=5).map(tuple), CONTEXTS, st.none() | TEXT
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(INPUTS)
def test_compile_print_parse_run_gives_the_same_hashes(source: CompilerInput) -> None:
    graph, record = compile_input(source)
    assert_graph_reproduces(graph, record)


@settings(max_examples=60, deadline=None)
@given(st.lists(INPUTS, min_size=1, max_size=3))
# One episode stated twice in a batch with two confidences: the first counts, on every ingest.
@example(
    [
        CompilerInput((SemanticTuple("0", "0", "0", 0.0),), ContextMeta("2000-01-01T00:00:00", "0", "0")),
        CompilerInput((SemanticTuple("0", "0", "0", 1.0),), ContextMeta("2000-01-01T00:00:00", "0", "0")),
    ]
)
def test_ingesting_twice_changes_nothing(sources: list[CompilerInput]) -> None:
    with open_store() as store:
        records = [compile_record(source) for source in sources]
        store.insert_records(records)
        before = dump(store)
        again = store.insert_records([compile_record(source) for source in sources])
        assert (again.new_concepts, again.new_facts, again.new_episodes) == (0, 0, 0)
        assert again.duplicates == sum(len(record.relations) for record in records)
        assert dump(store) == before
        assert store.check().ok, store.check().problems


@given(INPUTS)
def test_inputs_round_trip_through_json(source: CompilerInput) -> None:
    assert CompilerInput.from_json(source.to_json()) == source
