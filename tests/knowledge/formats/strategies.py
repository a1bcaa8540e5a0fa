"""Hypothesis strategies: records with labels of any characters, and stores built from them."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import strategies as st

from zerolang.knowledge.compiler import compile_record
from zerolang.knowledge.normalize import AliasTable, normalize_label, normalize_predicate
from zerolang.knowledge.types import CompilerInput, ContextMeta, MemoryRecord, SemanticTuple

# any Unicode text a store can hold (no lone surrogates), often with separators and quotes
_ALPHABET = st.characters(exclude_categories=["Cs"])
_TRICKY = st.sampled_from(
    ["|", ";", " ", '"', "\\", "\n", "\t", "#", "@", "^", "=", "X:", "0M:", "1 ", "7", "é"]
)
text = st.lists(st.one_of(st.text(_ALPHABET, min_size=1, max_size=6), _TRICKY), min_size=1, max_size=4).map(
    "".join
)
label = text.filter(lambda t: bool(normalize_label(t)))
verb = text.filter(lambda t: bool(normalize_predicate(t)))
field = text.filter(lambda t: bool(t.strip()))
confidence = st.one_of(st.sampled_from([1.0, 0.0, 0.5, 0.95, 0.07]), st.floats(0.0, 1.0))
times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 1, 1), timezones=st.just(UTC))
stamp = times.map(lambda t: t.isoformat(timespec="milliseconds").replace("+00:00", "Z"))


@st.composite
def inputs(draw: st.DrawFn, labels: st.SearchStrategy[str] = label) -> CompilerInput:
    pool = draw(st.lists(labels, min_size=1, max_size=5))
    tuples = draw(
        st.lists(
            st.builds(SemanticTuple, st.sampled_from(pool), verb, st.sampled_from(pool), confidence),
            min_size=1,
            max_size=6,
        )
    )
    context = ContextMeta(
        event_time=draw(times).isoformat(),
        source=draw(field),
        scope=draw(field),
        agent_id=draw(st.none() | field),
        session_id=draw(st.none() | field),
        metadata=draw(st.dictionaries(text, text, max_size=2)),
    )
    return CompilerInput(tuple(tuples), context)


@st.composite
def records(draw: st.DrawFn) -> MemoryRecord:
    return compile_record(draw(inputs()), AliasTable.empty(), now=draw(stamp))


@st.composite
def histories(draw: st.DrawFn) -> list[MemoryRecord]:
    """Records over time that share concepts (a small label pool), as a store receives them."""
    pool = st.sampled_from(draw(st.lists(label, min_size=2, max_size=6, unique_by=normalize_label)))
    count = draw(st.integers(1, 6))
    # Each ingest at its own millisecond: `delta.since` finds past states by creation time.
    stamps = sorted(draw(st.lists(stamp, min_size=count, max_size=count, unique=True)))
    return [compile_record(draw(inputs(pool)), AliasTable.empty(), now=now) for now in stamps]
