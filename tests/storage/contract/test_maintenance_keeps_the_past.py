"""Maintenance keeps the past: `sweep` and `consolidate` change ranking and tiers, never what the
store answers about provenance and time. On every backend.

A random store (facts observed at random event times, some long ago, from random sources and
scopes, with random confidences, learned by the store at random times, some with explicit
validity, some used by a query, some retracted) answers a fixed set of questions; then any
sequence of sweeps and consolidations, each at any `--now` (before or after the store learned
anything) with any half-life and thresholds, runs; the answers stay the same:

- `where source = S`, `where scope = C`, `between A and B` (the facts' provenance), and a recall
  filtered by source (the concepts it reaches);
- `as of T`, `known at T`, both, and the current view;
- `zero memory history` of every concept.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from zerolang import storage
from zerolang.knowledge import temporal
from zerolang.knowledge.history import concept_history
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.tiers import EpisodicMemory, consolidate
from zerolang.knowledge.types import CompilerInput, ContextMeta, EpisodeHash, SemanticTuple
from zerolang.memory import MemoryStore, fact_hash, ingest
from zerolang.util.errors import ZeroError
from zerolang.util.times import format_time

CONCEPTS = ["bob", "acme", "initech", "paris", "radium"]
PREDICATES = ["works_at", "lives_in", "knows"]  # `lives_in` is single-valued in this repository
SOURCES = ["encyclopedia", "user_prompt", "observation"]
SCOPES = ["history", "work", "home"]
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # store times are days from here
ASKED_AT = datetime(2031, 1, 1, tzinfo=UTC)  # when the questions are asked: after every store time
# World times: long ago, recent, and a few the drawn event times may hit exactly.
MOMENTS = ["1850-01-01", "1898-12-21", "1899-01-01", "1950-06-01", "2019-01-01", "2021-06-01", "2025-01-01"]
WINDOWS = [("1800-01-01", "1900-01-01"), ("1898-12-21", "1898-12-21"), ("1900-01-01", "2030-01-01")]


def day(n: float) -> str:
    return format_time(EPOCH + timedelta(days=n))


def clock_at(n: float) -> Callable[[], datetime]:
    """A clock stopped `n` days after `EPOCH`."""
    moment = EPOCH + timedelta(days=n)
    return lambda: moment


event_times = st.one_of(
    st.sampled_from(["1898-12-21T00:00:00Z", "2019-01-01T00:00:00Z", "2021-06-01T00:00:00Z"]),
    st.datetimes(min_value=datetime(1850, 1, 1), max_value=datetime(2027, 12, 31)).map(
        lambda moment: moment.replace(microsecond=0).isoformat() + "Z"
    ),
)
triples = st.tuples(st.sampled_from(CONCEPTS), st.sampled_from(PREDICATES), st.sampled_from(CONCEPTS))


@dataclass(frozen=True, slots=True)
class Observe:
    facts: tuple[tuple[str, str, str, float], ...]
    event_time: str
    source: str
    scope: str
    learned: int  # day the store learns it
    validity: tuple[str, str | None] | None  # explicit (valid_from, valid_to) metadata


@dataclass(frozen=True, slots=True)
class Retract:
    fact: tuple[str, str, str]
    at: int
    valid_to: str | None


@dataclass(frozen=True, slots=True)
class Use:
    fact: tuple[str, str, str]
    at: int  # a query returned it then (its episodes' last access)


observations = st.builds(
    Observe,
    st.lists(
        st.tuples(
            st.sampled_from(CONCEPTS),
            st.sampled_from(PREDICATES),
            st.sampled_from(CONCEPTS),
            st.sampled_from([0.3, 0.6, 0.9]),
        ),
        min_size=1,
        max_size=3,
    ).map(tuple),
    event_times,
    st.sampled_from(SOURCES),
    st.sampled_from(SCOPES),
    st.integers(0, 400),
    st.one_of(
        st.none(),
        st.tuples(
            st.sampled_from(MOMENTS), st.one_of(st.none(), st.sampled_from(["1960-01-01", "2030-01-01"]))
        ),
    ),
)
retractions = st.builds(
    Retract, triples, st.integers(0, 500), st.one_of(st.none(), st.sampled_from(["1900-01-01", "2026-06-01"]))
)
uses = st.builds(Use, triples, st.integers(0, 500))
histories = st.lists(st.one_of(observations, observations, retractions, uses), min_size=1, max_size=10)


@dataclass(frozen=True, slots=True)
class Sweep:
    now: int  # day, before or after anything was learned
    half_life_days: float
    min_confidence: float


@dataclass(frozen=True, slots=True)
class Consolidate:
    now: int
    half_life_days: float
    min_episodes: int
    min_confidence: float


half_lives = st.sampled_from([0.5, 7.0, 365.0])
maintained_at = st.one_of(
    st.integers(-100, 30), st.integers(0, 500), st.integers(500, 3000)
)  # days: early, amid, long after
maintenance = st.lists(
    st.one_of(
        st.builds(Sweep, maintained_at, half_lives, st.sampled_from([0.01, 0.5, 0.99])),
        st.builds(
            Consolidate,
            maintained_at,
            half_lives,
            st.integers(1, 3),
            st.sampled_from([0.0, 0.1, 0.5]),
        ),
    ),
    min_size=1,
    max_size=3,
)


def build(store: MemoryStore, steps: Sequence[Observe | Retract | Use]) -> None:
    for step in steps:
        if isinstance(step, Observe):
            metadata = {}
            if step.validity is not None:
                metadata["valid_from"] = step.validity[0]
                if step.validity[1] is not None:
                    metadata["valid_to"] = step.validity[1]
            meta = ContextMeta(step.event_time, step.source, step.scope, metadata=metadata)
            tuples = tuple(SemanticTuple(s, p, o, c) for s, p, o, c in step.facts)
            ingest(store, [CompilerInput(tuples, meta)], now=day(step.learned))
        elif isinstance(step, Retract):
            found = store.get_fact(fact_hash(*step.fact))
            if found is None:
                continue
            # already retired, or closed before it began: refused, nothing changed
            with contextlib.suppress(ZeroError):
                temporal.retract(
                    store.backend,
                    found,
                    at=day(step.at),
                    valid_to=None if step.valid_to is None else temporal.utc(step.valid_to),
                )
        else:
            key = fact_hash(*step.fact).digest
            episodes = [EpisodeHash(row.hash) for row in store.backend.episodes_of([key])]
            EpisodicMemory(store, clock=clock_at(step.at)).touch(episodes)


def maintain(store: MemoryStore, steps: list[Sweep | Consolidate]) -> None:
    pruned = promoted = 0
    for step in steps:
        clock = clock_at(step.now)
        if isinstance(step, Sweep):
            pruned += len(
                EpisodicMemory(store, step.half_life_days * 86400, step.min_confidence, clock).sweep()
            )
        else:
            result = consolidate(
                store,
                min_episodes=step.min_episodes,
                min_confidence=step.min_confidence,
                half_life=step.half_life_days * 86400,
                clock=clock,
            )
            pruned += result.pruned
            promoted += result.promoted
    event(
        f"episodes pruned: {'some' if pruned else 'none'}; facts promoted: {'some' if promoted else 'none'}"
    )


def ask(store: MemoryStore, text: str) -> list[dict[str, object]]:
    """What `zero query TEXT --now ASKED_AT` prints (the rows), as the CLI runs it; nothing touched."""
    return run_query(store, text, clock=lambda: ASKED_AT, touch=False).rows


def provenance_answers(store: MemoryStore) -> dict[str, object]:
    answers: dict[str, object] = {}
    for source in SOURCES:
        answers[f"source {source}"] = ask(store, f"match (?s ?p ?o) where source = {source}")
        for seed in CONCEPTS:
            if store.find_concept(seed) is not None:
                rows = ask(store, f'recall "{seed}" depth 3 limit 50 where source = {source}')
                answers[f"recall {seed} {source}"] = sorted(str(row["concept"]) for row in rows)
    for scope in SCOPES:
        answers[f"scope {scope}"] = ask(store, f"match (?s ?p ?o) where scope = {scope}")
    answers["source and scope"] = ask(
        store, "match (?s ?p ?o) where source = encyclopedia and scope = history"
    )
    for low, high in WINDOWS:
        answers[f"between {low} {high}"] = ask(store, f"match (?s ?p ?o) between {low} and {high}")
    return answers


def temporal_answers(store: MemoryStore, store_times: list[float]) -> dict[str, object]:
    answers: dict[str, object] = {"current": ask(store, "match (?s ?p ?o)")}
    for moment in MOMENTS:
        answers[f"as of {moment}"] = ask(store, f"match (?s ?p ?o) as of {moment}")
    for at in sorted(set(store_times)):
        stamp = day(at)
        answers[f"known at {stamp}"] = ask(store, f"match (?s ?p ?o) known at {stamp}")
        answers[f"as of 1899 known at {stamp}"] = ask(
            store, f"match (?s ?p ?o) as of 1899-01-01 known at {stamp}"
        )
    for label in CONCEPTS:
        if store.find_concept(label) is not None:
            answers[f"history {label}"] = [entry.to_json() for entry in concept_history(store, label)]
    return answers


def store_times(steps: Sequence[Observe | Retract | Use]) -> list[float]:
    """Store times around each change: just before, at and just after it."""
    days = [step.learned if isinstance(step, Observe) else step.at for step in steps]
    return [moment + offset for moment in days for offset in (-0.5, 0.0, 0.5)]


EXAMPLE_1898 = [
    Observe((("bob", "works_at", "acme", 0.9),), "1898-12-21T00:00:00Z", "encyclopedia", "history", 0, None)
]


def _space() -> str:
    return f"k-{secrets.token_hex(6)}"


@pytest.mark.slow
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=25)
@given(steps=histories, chores=maintenance)
@example(steps=EXAMPLE_1898, chores=[Sweep(1, 7.0, 0.01), Sweep(3000, 7.0, 0.01)])
def test_provenance_answers_are_the_same_after_maintenance(
    location: str, steps: list[Observe | Retract | Use], chores: list[Sweep | Consolidate]
) -> None:
    with storage.open_store(location, space=_space(), create=True) as store:
        build(store, steps)
        before = provenance_answers(store)
        maintain(store, chores)
        assert provenance_answers(store) == before
        assert store.check().ok


@pytest.mark.slow
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=25)
@given(steps=histories, chores=maintenance)
@example(steps=EXAMPLE_1898, chores=[Sweep(1, 7.0, 0.01), Sweep(3000, 7.0, 0.01)])
def test_time_and_history_answers_are_the_same_after_maintenance(
    location: str, steps: list[Observe | Retract | Use], chores: list[Sweep | Consolidate]
) -> None:
    with storage.open_store(location, space=_space(), create=True) as store:
        build(store, steps)
        times = store_times(steps)
        before = temporal_answers(store, times)
        maintain(store, chores)
        assert temporal_answers(store, times) == before


def test_facts_about_1898_learned_today_are_not_decayed_by_a_sweep_tomorrow(location: str) -> None:
    with storage.open_store(location, space=_space(), create=True) as store:
        build(store, EXAMPLE_1898)
        assert EpisodicMemory(store, clock=clock_at(1)).sweep() == []
        assert store.relation_count() == 1


def test_a_pruned_episode_keeps_its_provenance(location: str) -> None:
    with storage.open_store(location, space=_space(), create=True) as store:
        build(store, EXAMPLE_1898)
        (swept,) = EpisodicMemory(store, clock=clock_at(3000)).sweep()
        assert store.relation_count() == 0
        assert [row["facts"] for row in ask(store, "match (?s ?p ?o) where source = encyclopedia")] == [
            ["bob works_at acme"]
        ]
        assert ask(store, "match (?s ?p ?o) where scope = work") == []
        (row,) = store.backend.provenance_of([fact_hash("bob", "works_at", "acme").digest])
        assert (row.hash, row.source, row.scope, row.event_time) == (
            swept.episode_hash.digest,
            "encyclopedia",
            "history",
            "1898-12-21T00:00:00Z",
        )
        assert row.pruned_at is not None and row.access_count == 0
        bob = store.get_concept_by_label("bob")
        assert bob is not None
        (view,) = store.recall(bob).facts
        (observed,) = view.episodes
        assert (observed.source, observed.event_time, observed.pruned_at) == (
            "encyclopedia",
            "1898-12-21T00:00:00Z",
            row.pruned_at,
        )


CURIE = {
    "utterance": "Marie Curie discovered radium in Paris.",
    "tuples": [
        {"subject": "curie", "predicate": "discovered", "object": "radium", "confidence": 0.9},
        {"subject": "curie", "predicate": "worked_in", "object": "paris", "confidence": 0.8},
    ],
    "context": {"event_time": "1898-12-21T00:00:00Z", "source": "encyclopedia", "scope": "chemistry"},
}


def _zero(location: str, space: str, *args: str) -> str:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    result = CliRunner().invoke(app, [*args, "--space", space], env={"ZERO_MEMORY_DB": location})
    assert result.exit_code == 0, result.output
    return result.stdout


def _curie(location: str, space: str, tmp_path: Path) -> None:
    source = tmp_path / "curie.json"
    source.write_text(json.dumps([CURIE]), encoding="utf-8")
    _zero(location, space, "memory", "ingest", str(source), "--now", "2026-11-28T10:00:00Z")


def test_the_cli_sweeps_nothing_a_day_after_learning_facts_about_1898(location: str, tmp_path: Path) -> None:
    space = _space()
    _curie(location, space, tmp_path)
    swept = _zero(location, space, "memory", "sweep", "--now", "2026-11-29T10:00:00Z")
    assert swept == "0 decayed episodes pruned (facts and concepts kept)\n"
    assert '"episodes": 2' in _zero(location, space, "memory", "stats", "--json")


def test_the_cli_answers_by_source_and_scope_after_everything_decayed(location: str, tmp_path: Path) -> None:
    space = _space()
    _curie(location, space, tmp_path)
    questions = [
        "match (curie ?p ?o) where source = encyclopedia",
        "match (curie ?p ?o) where scope = chemistry",
        "match (curie ?p ?o) between 1898-01-01 and 1898-12-31",
    ]
    recall = 'recall "curie" where source = encyclopedia'
    asked = ["--now", "2026-12-01T00:00:00Z"]  # a query uses what it returns: decay restarts then

    def recalled() -> list[object]:  # the concepts reached (their scores are ranking: they may change)
        return [
            row["concept"] for row in json.loads(_zero(location, space, "query", recall, "--json", *asked))
        ]

    before = [_zero(location, space, "query", text, *asked) for text in questions]
    assert all("radium" in answer for answer in before) and recalled() == ["radium", "paris"]
    swept = _zero(location, space, "memory", "sweep", "--now", "2029-01-01T00:00:00Z")
    assert swept == "2 decayed episodes pruned (facts and concepts kept)\n"
    assert [_zero(location, space, "query", text, *asked) for text in questions] == before
    assert recalled() == ["radium", "paris"]
    unknown = _zero(location, space, "query", "match (curie ?p ?o) where source = user_prompt", *asked)
    assert unknown == "no results\n"
    shown = _zero(location, space, "memory", "get", "curie")
    assert shown.count("1898-12-21T00:00:00Z  encyclopedia  chemistry") == 2 and "pruned 20" in shown


def test_the_cli_answers_as_of_and_history_after_everything_decayed(location: str, tmp_path: Path) -> None:
    space = _space()
    _curie(location, space, tmp_path)
    asked = ["--now", "2026-12-01T00:00:00Z"]  # a query uses what it returns: decay restarts then
    before = _zero(location, space, "query", "match (curie ?p ?o) as of 1899-01-01", *asked)
    history = _zero(location, space, "memory", "history", "curie")
    assert "radium" in before and "1898-12-21" in history
    _zero(location, space, "memory", "sweep", "--now", "2029-01-01T00:00:00Z")
    _zero(location, space, "memory", "consolidate", "--now", "2029-01-01T00:00:00Z")
    assert _zero(location, space, "query", "match (curie ?p ?o) as of 1899-01-01", *asked) == before
    assert _zero(location, space, "memory", "history", "curie") == history
