"""A golden set of queries over the example store, with snapshot results (fixed clock, fresh store each)."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.knowledge.query.conftest import fixed_clock
from zerolang.knowledge.query import QueryError
from zerolang.knowledge.query.executor import run_query
from zerolang.memory import MemoryStore

GOLDEN = [
    'recall "agent" depth 2 limit 10',
    "recall agent depth 1",
    "recall ltm rank by activation",
    "recall ltm depth 2 where confidence > 0.8",
    "recall ltm where predicate in (includes, provides) depth 2",
    "recall ltm order by label limit 3",
    'recall "long term memory" where scope = "0-memory_review"',
    "match (?x needs long-term-memory)",
    "match (?x ?p long-term-memory), (?y ?q ?x)",
    "match (?x ?p ?y) where confidence > 0.8",
    "match (?x ?p ?y) since 10d",
    "match (?x ?p ?y) between 2026-02-19 and 2026-02-19 order by ?x",
    'match (?x ?p ?y) where predicate in (needs, "is part of")',
    "match (?x ?p ?y) where source = tool_output",
    "match (?x ?p ?y) from semantic",
    "match (?x ?p ?y) from episodic limit 2",
    "match (0-memory ?p ?y), (?y ?q ?z)",
    "match (?x needs ?y) as L1",
    "match (nobody ?p ?y)",
]


@pytest.mark.parametrize("text", GOLDEN)
def test_golden(example_store: MemoryStore, text: str, snapshot: SnapshotAssertion) -> None:
    result = run_query(example_store, text, clock=fixed_clock)
    assert {"rows": result.rows, "plan": result.plan, "notes": result.notes} == snapshot


def test_unknown_seed_points_at_it(example_store: MemoryStore) -> None:
    with pytest.raises(QueryError, match="no concept 'nobody'") as caught:
        run_query(example_store, "recall nobody depth 2", clock=fixed_clock)
    assert caught.value.span is not None and caught.value.span.column == 8


def test_a_variable_is_a_concept_or_a_predicate(example_store: MemoryStore) -> None:
    with pytest.raises(QueryError, match=r"\?x is used both as a concept and as a predicate"):
        run_query(example_store, "match (?x ?x ?y)", clock=fixed_clock)


def test_queries_touch_what_they_return(example_store: MemoryStore) -> None:
    run_query(example_store, "recall agent depth 1", clock=fixed_clock)
    again = run_query(example_store, "recall agent depth 1", clock=fixed_clock, touch=False)
    assert again.rows[0]["factors"]["frequency"] == 1.0  # type: ignore[index]


def test_recall_after_consolidation_from_semantic(example_store: MemoryStore) -> None:
    from zerolang.knowledge.tiers import consolidate

    result = consolidate(example_store, min_episodes=2, clock=fixed_clock)
    assert (result.promoted, result.pruned) == (1, 0)  # agent needs long-term-memory: two episodes
    rows = run_query(example_store, "match (?x ?p ?y) from semantic", clock=fixed_clock).rows
    assert [row["facts"] for row in rows] == [["agent needs long-term-memory"]]


def test_a_seed_in_words_names_the_concept_its_words_name() -> None:
    import zerolang.memory

    with zerolang.memory.open(":memory:") as memory:
        memory.remember([("carol diaz", "works_at", "acme corp"), ("acme corp", "located_in", "lisbon")])
        result = run_query(memory.store, 'recall "where does Carol work?"', clock=fixed_clock)
        assert [row["concept"] for row in result.rows] == ["acme corp", "lisbon"]
        assert result.plan[0].startswith("seed: 'carol diaz', named by the words 'carol'")
        memory.remember([("carol smith", "works_at", "globex")])
        with pytest.raises(QueryError, match="its words name 'carol diaz', 'carol smith'") as caught:
            run_query(memory.store, 'recall "carol"', clock=fixed_clock)  # a tie names both, picks neither
        assert caught.value.span is not None and caught.value.span.column == 8
        assert (
            run_query(memory.store, 'recall "carol smith"', clock=fixed_clock).rows[0]["concept"] == "globex"
        )
