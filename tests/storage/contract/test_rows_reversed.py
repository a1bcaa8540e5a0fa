"""What a store answers does not hang on the order its rows come back in, on every engine.

A read without `ORDER BY` comes back in whatever order the engine finds its rows: SQLite's B-tree
order, PostgreSQL's heap order (which an update, a vacuum or another page changes). Every read
whose order feeds a choice or an output has a total order, in its SQL or in Python above it (the
audit in docs/memory.md, "Row order"). Here every read without an `ORDER BY` returns its rows
reversed, while a store is written and while it is read; the answers (queries, recall, history,
the formats' bytes, the checkpoint, check, the log) are the same as with the rows as they come.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import example as case

from tests.storage.contract.helpers import example, make_input
from tests.storage.contract.test_claims_order import TIED
from tests.storage.contract.test_maintenance_keeps_the_past import (
    CONCEPTS,
    Observe,
    Retract,
    Use,
    build,
    clock_at,
    histories,
    provenance_answers,
    store_times,
    temporal_answers,
)
from tests.storage.contract.test_read_paths import QUERIES, clock
from zerolang import storage
from zerolang.knowledge.forget import Selector, forget
from zerolang.knowledge.formats import checkpoint
from zerolang.knowledge.formats.exchange import Format, export
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.recall import RecallOptions, recall
from zerolang.knowledge.tiers import EpisodicMemory, consolidate
from zerolang.memory import MemoryStore, fact_hash, ingest

# Ties everywhere: facts told at one store time with one confidence, by several episodes; a concept
# with more equally confident edges than a recall's pool; retractions and uses at one moment.
STEPS: list[Observe | Retract | Use] = [
    Observe(
        (("bob", "works_at", "acme", 0.6), ("bob", "knows", "radium", 0.6)),
        "1898-12-21T00:00:00Z",
        source,
        scope,
        3,
        validity,
    )
    for source, scope, validity in (
        ("encyclopedia", "history", None),
        ("user_prompt", "home", ("1850-01-01", None)),
        ("observation", "work", ("1850-01-01", "2030-01-01")),
    )
] + [
    Observe(
        (*(("hub", "knows", other, 0.6) for other in CONCEPTS), ("paris", "lives_in", "hub", 0.6)),
        "2019-01-01T00:00:00Z",
        "user_prompt",
        "home",
        3,
        None,
    ),
    Observe((("bob", "lives_in", "paris", 0.9),), "2019-01-01T00:00:00Z", "observation", "home", 5, None),
    Observe((("bob", "lives_in", "initech", 0.9),), "2019-01-01T00:00:00Z", "encyclopedia", "work", 5, None),
    Observe((("bob", "lives_in", "acme", 0.9),), "2021-06-01T00:00:00Z", "user_prompt", "home", 5, None),
    Retract(("bob", "works_at", "acme"), 9, "2026-06-01"),
    Retract(("bob", "knows", "radium"), 9, None),
    Use(("hub", "knows", "bob"), 9),
    Use(("hub", "knows", "acme"), 9),
    *TIED,  # two episodes open one fact's period at one store time (`test_claims_order`)
]


def _reversed(rows: Sequence[Any], sql: str) -> list[Any]:
    return list(rows) if "ORDER BY" in sql.upper() else list(reversed(rows))


@contextlib.contextmanager
def rows_reversed(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Inside: every read without an `ORDER BY` of `store`'s backend (and of each space it opens)
    returns its rows in reverse order."""
    kind = type(store.backend)
    rows, stream = kind.rows, kind.stream

    def reversed_rows(self: Any, sql: str, args: Sequence[object] = ()) -> list[Any]:
        return _reversed(rows(self, sql, args), sql)

    def reversed_stream(self: Any, sql: str, args: Sequence[object] = ()) -> Iterator[Any]:
        yield from _reversed(list(stream(self, sql, args)), sql)

    with monkeypatch.context() as patch:
        patch.setattr(kind, "rows", reversed_rows)
        patch.setattr(kind, "stream", reversed_stream)
        yield


def _write(store: MemoryStore) -> None:
    example(store)
    build(store, STEPS)
    EpisodicMemory(store, 7.0 * 86400, 0.5, clock_at(40)).sweep()
    consolidate(store, min_episodes=2, min_confidence=0.1, half_life=365 * 86400.0, clock=clock_at(60))
    forget(store, Selector("concept", "initech"), at="2026-03-01T00:00:00.000Z")


def _without_pruned_at(value: object) -> object:
    """`value` without its `pruned_at` stamps: a prune is stamped with the wall clock (`tiers.sweep`)."""
    if isinstance(value, dict):
        return {key: _without_pruned_at(item) for key, item in value.items() if key != "pruned_at"}
    if isinstance(value, list):
        return [_without_pruned_at(item) for item in value]
    return value


def answers(store: MemoryStore) -> dict[str, object]:
    """Everything a reader sees, touching nothing."""
    found: dict[str, object] = {**provenance_answers(store), **temporal_answers(store, store_times(STEPS))}
    for text in [*QUERIES, 'recall "hub" depth 2 limit 3', 'recall "bob" depth 3 limit 2']:
        result = run_query(store, text, clock=clock, touch=False)
        found[text] = (result.rows, result.plan)
    for seed in ("hub", "bob", "agent"):
        for options in (RecallOptions(depth=2, touch=False), RecallOptions(depth=3, limit=2, touch=False)):
            found[f"recall {seed} {options}"] = [
                (r.label, r.score, r.depth, r.factors) for r in recall(store, seed, options, clock=clock)
            ]
    for form in Format:
        found[f"export {form}"] = export(store, form)
    found["checkpoint"] = checkpoint.of_store(store)
    found["check"] = store.check().to_json()
    found["log"] = store.backend.log_entries()
    found["tombstones"] = store.backend.tombstones()
    bob = store.get_concept_by_label("bob")
    assert bob is not None
    found["bob"] = _without_pruned_at(store.recall(bob).to_json())
    return found


def test_reads_answer_the_same_with_their_rows_reversed(
    location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with storage.open_store(location, space=f"r-{secrets.token_hex(6)}", create=True) as store:
        _write(store)
        expected = answers(store)
        with rows_reversed(store, monkeypatch):
            got = answers(store)
        assert [key for key in expected if got[key] != expected[key]] == []


def test_a_store_written_with_its_rows_reversed_is_the_same(
    location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = secrets.token_hex(6)
    with storage.open_store(location, space=f"a-{token}", create=True) as store:
        _write(store)
        expected = answers(store)
    with storage.open_store(location, space=f"b-{token}", create=True) as store:
        with rows_reversed(store, monkeypatch):
            _write(store)
        got = answers(store)
    assert [key for key in expected if got[key] != expected[key]] == []


def test_check_names_the_problems_of_a_hand_edited_store_in_one_order(
    location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several broken rows of one table, and several concepts no fact refers to: `check` lists them in
    the same order however the scans' rows come (and in every process: not in a set's order)."""
    with storage.open_store(location, space=f"c-{secrets.token_hex(6)}", create=True) as store:
        example(store)
        backend: Any = store.backend
        with backend.transaction():
            backend.run(
                "UPDATE concepts SET updated_at = '2000-01-01T00:00:00.000Z' WHERE space = ?", [store.space]
            )
            backend.run_many(
                "INSERT INTO concepts (space, hash, label, confidence, created_at, updated_at)"
                " VALUES (?, ?, ?, 0.5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
                [(store.space, bytes([n]) * 32, f"orphan {n}") for n in range(1, 9)],
            )
        expected = store.check().to_json()
        assert len(expected["problems"]) > 10  # type: ignore[arg-type]
        with rows_reversed(store, monkeypatch):
            assert store.check().to_json() == expected
        orphans = [p["hash"] for p in expected["problems"] if "no fact refers" in p["message"]]  # type: ignore[attr-defined]
        assert orphans == sorted(orphans) and len(orphans) == 8


def test_the_most_confident_edges_of_a_concept_break_ties_by_fact_hash(location: str) -> None:
    """`edges_above` with a limit keeps each concept's most confident facts, then the lowest fact hashes
    (its promise): among equally confident facts, not the ones an index or a heap page gives first."""
    with storage.open_store(location, space=f"e-{secrets.token_hex(6)}", create=True) as store:
        others = [f"node {n}" for n in range(12)]
        ingest(
            store,
            [
                make_input(
                    *(("hub", "knows", other, 0.6) for other in others[:8]),
                    *((other, "likes", "hub", 0.6) for other in others[8:]),
                    ("hub", "knows", "best", 0.9),
                )
            ],
            now="2026-03-01T00:00:00.000Z",
        )
        hub = fact_hash("hub", "knows", "best").digest  # any fact: its subject's hash
        (found,) = store.backend.facts([hub]).values()
        seed = found.subject_hash.digest
        touching = store.backend.edges_touching([seed])
        for limit in (1, 3, 5, 9, 20):
            rows = store.backend.edges_above([(seed, 0.0)], None, limit)
            assert all(row[0] == seed for row in rows)
            wanted = sorted(touching, key=lambda edge: (-edge[4], edge[0]))[:limit]
            assert sorted(row[1] for row in rows) == sorted(edge[0] for edge in wanted)


def test_every_index_row_comes_by_hash_then_space(location: str) -> None:
    """A legacy index file's rows are absorbed first come, first kept: one hash in two spaces comes in
    the order of their names, not of the rows."""
    from datetime import date

    from zerolang.archive.index import IndexRecord
    from zerolang.storage.sql.index import every_record

    token = secrets.token_hex(6)
    digest = secrets.token_hex(32)
    for name in ("b", "a", "c"):
        with storage.open_store(location, space=f"{name}-{token}", create=True) as store:
            record = IndexRecord(
                digest, f"summary {name}", date(2026, 3, 1), "chat", "2026-03-01T00:00:00Z", "self"
            )
            store.backend.index.put(record)  # type: ignore[attr-defined]
    with storage.open_store(location, space=f"a-{token}") as store:
        found = [r.summary for r in every_record(store.backend) if r.hash == digest]  # type: ignore[arg-type]
    assert found == ["summary a", "summary b", "summary c"]


@pytest.mark.slow
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=10, deadline=None)
@given(steps=histories)
@case(steps=list(TIED))
def test_random_stores_answer_the_same_with_their_rows_reversed(
    location: str, steps: list[Observe | Retract | Use]
) -> None:
    """Random histories (observations at random times, retractions, uses): the time and provenance
    answers, history and the compact export read with the rows reversed are the same."""
    with storage.open_store(location, space=f"h-{secrets.token_hex(6)}", create=True) as store:
        build(store, steps)

        def read() -> dict[str, object]:
            return {
                **provenance_answers(store),
                **temporal_answers(store, store_times(steps)),
                "export": export(store, Format.COMPACT),
                "check": store.check().to_json(),
            }

        expected = read()
        with pytest.MonkeyPatch.context() as patch, rows_reversed(store, patch):
            assert read() == expected
