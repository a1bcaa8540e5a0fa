"""Conversation recall ranks one question alike on SQLite and PostgreSQL (issue 40, point 6).

The engines' own full text ranked differently (FTS5's bm25 against `ts_rank`, the `porter`
tokenizer against the `english` configuration). Recall now ranks the store's postings of our
own terms in one place (`zerolang.experience.ranking`), so the same captured conversations give
the same ranked lists, ids, scores and order, on both engines: for the fixtures' transcripts and
questions, and for random turns and questions (a hypothesis property). Each example writes to a
space of its own, which spaces isolate completely.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerolang.experience.capture import TurnRecorder, capture_files
from zerolang.experience.ranking import FullText, full_text
from zerolang.experience.recall import recall
from zerolang.experience.store import ExperienceStore
from zerolang.experience.words import terms
from zerolang.storage import open_experiences

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"
QUESTIONS = (
    "What did David say about tomatoes and compost?",
    "nitrogen in the garden",
    "Which python tests failed?",
    "Why does the Philokalia make him calm?",
    "Where is Lyon?",
    "what was planted",
    "tests",
)


@pytest.fixture
def both(tmp_path: Path, postgres_url: str) -> Iterator[tuple[str, str]]:
    """(SQLite file, PostgreSQL URL): one experience database on each engine."""
    yield str(tmp_path / "recall.db"), postgres_url


def _stores(both: tuple[str, str], space: str) -> list[ExperienceStore]:
    return [open_experiences(where, space=space) for where in both]


def _rankings(store: ExperienceStore, question: str) -> tuple[FullText, list[tuple[str, float]]]:
    hits = recall(store, question, limit=20)
    return full_text(store, terms(question), 60), [(hit.experience.id, hit.score) for hit in hits]


def test_captured_conversations_rank_alike_on_both_engines(both: tuple[str, str]) -> None:
    stores = _stores(both, f"engines-{secrets.token_hex(4)}")
    try:
        for store in stores:
            capture_files(store, sorted(TRANSCRIPTS.iterdir()))
        for question in QUESTIONS:
            sqlite, postgres = (_rankings(store, question) for store in stores)
            assert sqlite == postgres, question
        assert any(_rankings(stores[0], question)[1] for question in QUESTIONS)  # something is found
    finally:
        for store in stores:
            store.close()


# Word forms, possessives, hyphens, names and stopwords: what the engines' tokenizers read apart.
VOCABULARY = [
    "garden",
    "gardens",
    "gardening",
    "gardener",
    "Ana",
    "Ana's",
    "Ben",
    "ben's",
    "paint",
    "painted",
    "painting",
    "paints",
    "well-known",
    "x-ray",
    "don't",
    "it's",
    "the",
    "a",
    "of",
    "Lyon",
    "lyon",
    "café",
    "tea",
    "teas",
    "relational",
    "relations",
    "2023",
    "running",
    "runs",
    "ran",
    "compost",
    "composting",
    "tomatoes",
    "tomato",
    "caresses",
    "happy",
    "happiness",
]
_TEXT = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=8).map(" ".join)
_TURNS = st.lists(st.tuples(st.sampled_from(["Ana", "Ben"]), _TEXT, _TEXT), min_size=1, max_size=6)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(turns=_TURNS, questions=st.lists(_TEXT, min_size=1, max_size=3))
def test_random_turns_and_questions_rank_alike_on_both_engines(
    both: tuple[str, str], turns: list[tuple[str, str, str]], questions: list[str]
) -> None:
    stores = _stores(both, f"engines-{secrets.token_hex(6)}")
    try:
        for store in stores:
            for index, (user, said, replied) in enumerate(turns):
                recorder = TurnRecorder(store, session=f"s{index % 2}", user=user, agent="Lilu")
                recorder.record(user_said=said, agent_said=replied)
        for question in questions:
            sqlite, postgres = (_rankings(store, question) for store in stores)
            assert sqlite == postgres, question
    finally:
        for store in stores:
            store.close()
