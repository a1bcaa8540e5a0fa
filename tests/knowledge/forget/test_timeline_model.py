"""Exact bi-temporal history, against a reference model, on SQLite and PostgreSQL.

Random sequences of assertions (some with an explicit end), single-valued declarations and
retractions, told at random store times (in order, or the assertions in a shuffled order), must
answer every `as of T` / `known at S` query as a replay of the event log in plain Python does.
The model is written pointwise, apart from the store's interval code: at world time T, a
single-valued subject holds the object of the latest-starting claim (then the latest told, then
by fact hash) started by T, if that claim has not ended; any other fact holds where a claim covers T.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

from zerolang import storage
from zerolang.knowledge.forget import fact_key
from zerolang.knowledge.history import concept_history
from zerolang.knowledge.ingest import ingest, parse_inputs
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.temporal import retract
from zerolang.memory import MemoryStore
from zerolang.util.errors import ZeroError

OBJECTS = ("acme", "initech", "globex")
PREDICATES = ("works at", "likes")
BASE = datetime(2026, 1, 1, tzinfo=UTC)


def year(y: int) -> str:
    return f"{y}-01-01T00:00:00.000Z"


def stamp(step: int) -> str:
    return (BASE + timedelta(days=step)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


@dataclass(frozen=True)
class Assert:
    predicate: str
    obj: str
    start: int
    end: int | None


@dataclass(frozen=True)
class Retract:
    predicate: str
    obj: str
    end: int


@dataclass(frozen=True)
class Declare:
    predicate: str


Op = Assert | Retract | Declare

ops = st.one_of(
    st.builds(
        Assert,
        st.sampled_from(PREDICATES),
        st.sampled_from(OBJECTS),
        st.integers(2015, 2025),
        st.one_of(st.none(), st.integers(2016, 2027)),
    ),
    st.builds(Retract, st.sampled_from(PREDICATES), st.sampled_from(OBJECTS), st.integers(2015, 2027)),
    st.builds(Declare, st.just("works at")),
)


@dataclass
class Model:
    """The event log as applied, and its replay."""

    hashes: dict[tuple[str, str], bytes]
    contexts: dict[str, str | None] = field(default_factory=dict)  # start -> end, as first stored
    claims: list[tuple[str, str, str, str | None, str, bytes]] = field(default_factory=list)
    retractions: list[tuple[str, str, str, str]] = field(default_factory=list)  # fact, end, told
    declared: list[tuple[str, str]] = field(default_factory=list)  # predicate, at

    def holds(self, predicate: str, obj: str, moment: str, known_at: str) -> bool:
        single = any(p == predicate.replace(" ", "_") and at <= known_at for p, at in self.declared)
        told = []
        for p, o, start, end, when, key in self.claims:
            if p != predicate or when > known_at:
                continue
            withdrawn = False
            for rp, ro, rend, rtold in self.retractions:
                if (rp, ro) != (p, o) or rtold > known_at or rtold < when:
                    continue
                if start >= rend:
                    withdrawn = True
                elif end is None or rend < end:
                    end = rend
            if not withdrawn:
                told.append((start, when, key, o, end))
        if single:
            started = [c for c in told if c[0] <= moment]
            if not started:
                return False
            latest = max(started, key=lambda c: (c[0], c[1], c[2]))
            return latest[3] == obj and (latest[4] is None or moment < latest[4])
        return any(o == obj and s <= moment and (e is None or moment < e) for s, _, _, o, e in told)


def record(predicate: str, obj: str, start: int, end: int | None) -> str:
    context: dict[str, object] = {"event_time": year(start), "source": "hr", "scope": "work"}
    if end is not None:
        context["metadata"] = {"valid_to": year(end)}
    return json.dumps(
        [
            {
                "tuples": [{"subject": "Bob", "predicate": predicate, "object": obj, "confidence": 0.8}],
                "context": context,
            }
        ]
    )


def answers(store: MemoryStore, predicate: str, clause: str) -> set[str]:
    name = predicate.replace(" ", "_")
    rows = run_query(store, f"match (bob {name} ?x) {clause}", touch=False).rows
    return {str(row["bindings"]["x"]) for row in rows}  # type: ignore[index]


def check(store: MemoryStore, model: Model, last: int) -> None:
    moments = [year(y) for y in range(2014, 2029)]  # every start and end is a year's first day
    for step in range(-1, last + 2):
        known = stamp(step) if step >= 0 else "2025-06-01T00:00:00.000Z"
        for predicate in PREDICATES:
            for moment in moments:
                expected = {o for o in OBJECTS if model.holds(predicate, o, moment, known)}
                found = answers(store, predicate, f"as of {moment} known at {known}")
                assert found == expected, (predicate, moment, known, model)
            expected = {o for o in OBJECTS if model.holds(predicate, o, known, known)}
            assert answers(store, predicate, f"known at {known}") == expected, (predicate, known)
    final = stamp(last + 1)
    for predicate in PREDICATES:
        for moment in moments:
            expected = {o for o in OBJECTS if model.holds(predicate, o, moment, final)}
            assert answers(store, predicate, f"as of {moment}") == expected, (predicate, moment)
    assert store.check().ok


def apply(store: MemoryStore, model: Model, op: Op, step: int) -> None:
    at = stamp(step)
    if isinstance(op, Declare):
        if store.declare_single_valued([op.predicate], at=at):
            model.declared.append((op.predicate.replace(" ", "_"), at))
        return
    if isinstance(op, Assert):
        end = op.end if op.end is not None and op.end > op.start else None
        ingest(store, parse_inputs(record(op.predicate, op.obj, op.start, end)), now=at)
        key, _ = fact_key(store, f"bob|{op.predicate.replace(' ', '_')}|{op.obj}", None)
        model.hashes[(op.predicate, op.obj)] = key
        # a context is its time, source and scope: the metadata of the first one stored stays
        given = model.contexts.setdefault(year(op.start), None if end is None else year(end))
        claim = (op.predicate, op.obj, year(op.start), given)
        # the same fact in the same context (its time, source and scope) is one episode, stored once
        if all(c[:3] != claim[:3] for c in model.claims):
            model.claims.append((*claim, at, key))
        return
    key_of = model.hashes.get((op.predicate, op.obj))
    if key_of is None:
        return
    fact = store.backend.facts([key_of])[key_of]
    try:
        retract(store.backend, fact, at=at, valid_to=year(op.end), single=store.single_valued)
    except ZeroError:
        return
    model.retractions.append((op.predicate, op.obj, year(op.end), at))


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(ops, min_size=1, max_size=9))
def test_history_answers_as_the_replayed_log(location: str, script: list[Op]) -> None:
    with storage.open_store(location, space=f"m-{secrets.token_hex(6)}", single_valued=[]) as store:
        model = Model({})
        for step, op in enumerate(script):
            apply(store, model, op, step)
        check(store, model, len(script))


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.lists(
        st.builds(
            Assert,
            st.just("works at"),
            st.sampled_from(OBJECTS),
            st.integers(2015, 2025),
            st.one_of(st.none(), st.integers(2016, 2027)),
        ),
        min_size=1,
        max_size=7,
    ),
    st.randoms(use_true_random=False),
)
def test_assertions_told_out_of_order_answer_as_the_log_by_store_time(
    location: str, script: list[Assert], random: object
) -> None:
    """Each assertion is told at its own store time, but written in a shuffled order."""
    order = list(enumerate(script))
    random.shuffle(order)  # type: ignore[attr-defined]
    with storage.open_store(location, space=f"o-{secrets.token_hex(6)}", single_valued=["works at"]) as store:
        model = Model({})
        store.declare_single_valued(["works at"], at=stamp(0))
        model.declared.append(("works_at", stamp(0)))
        for step, op in order:
            apply(store, model, op, step + 1)
        check(store, model, len(script) + 1)


def test_a_reasserted_value_keeps_its_past(location: str) -> None:
    """The issue's timeline: Acme (2019), Initech (2021), Globex (2023), Acme again (2025)."""
    with storage.open_store(location, space=f"b-{secrets.token_hex(6)}", single_valued=[]) as store:
        store.declare_single_valued(["works at"], at=stamp(0))
        for step, (obj, start) in enumerate(
            [("acme", 2019), ("initech", 2021), ("globex", 2023), ("acme", 2025)], 1
        ):
            ingest(store, parse_inputs(record("works at", obj, start, None)), now=stamp(step))
        assert answers(store, "works at", "as of 2020-06-01") == {"acme"}
        assert answers(store, "works at", f"known at {stamp(3)}") == {"globex"}
        assert answers(store, "works at", f"as of 2024-01-01 known at {stamp(4)}") == {"globex"}
        assert answers(store, "works at", "") == {"acme"}
        (acme,) = (e for e in concept_history(store, "bob") if e.text == "bob|works_at|acme")
        assert [(p.valid_from[:4], (p.valid_to or "")[:4]) for p in acme.current] == [
            ("2019", "2021"),
            ("2025", ""),
        ]
        closed = [p for p in acme.periods if p.closed_at is not None]
        assert [(p.recorded_at, p.closed_at) for p in closed] == [(stamp(1), stamp(2))]
        assert all(p.recorded_at >= stamp(1) for p in acme.periods)  # nothing dated before its ingest


def test_forgetting_a_value_gives_its_rivals_their_time_back(location: str) -> None:
    """A forget is as if the store had never been told: Initech holds until Acme's return."""
    from zerolang.knowledge.forget import Selector, forget

    with storage.open_store(location, space=f"f-{secrets.token_hex(6)}", single_valued=[]) as store:
        store.declare_single_valued(["works at"], at=stamp(0))
        for step, (obj, start) in enumerate(
            [("acme", 2019), ("initech", 2021), ("globex", 2023), ("acme", 2025)], 1
        ):
            ingest(store, parse_inputs(record("works at", obj, start, None)), now=stamp(step))
        forget(store, Selector("concept", "globex"), at=stamp(6), purge=True)
        assert answers(store, "works at", "as of 2024-01-01") == {"initech"}
        assert (
            answers(store, "works at", f"as of 2024-01-01 known at {stamp(5)}") == set()
        )  # what went is gone
        assert answers(store, "works at", "") == {"acme"}
        assert store.check().ok
