"""What the extractors remember between texts (a clause's phrases, a word's affects) never changes
what a text gives: one extractor over many texts answers as a fresh one for each."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolang.experience import concepts
from zerolang.experience.affect import LexiconAffect
from zerolang.experience.concepts import DefaultConcepts

WORDS = [
    "the",
    "pottery",
    "Ada",
    "support",
    "group",
    "memory",
    "LTM",
    "happy",
    "lonely",
    "fed",
    "up",
    "curious",
    "can't",
    "x-ray",
    "café",
    "Big-Deal",
    "?",
    ".",
    ",",
    ";",
    "\n",
    "(",
]
texts = st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join)


@settings(max_examples=60)
@given(batch=st.lists(texts, min_size=1, max_size=12))
def test_remembered_clauses_and_words_give_what_a_fresh_extractor_gives(batch: list[str]) -> None:
    shared_concepts, shared_affect = DefaultConcepts(), LexiconAffect()
    for text in batch + batch:  # every text twice: the second time from what was remembered
        assert shared_concepts.extract(text) == DefaultConcepts().extract(text)
        assert shared_affect.score(text) == LexiconAffect().score(text)


def test_the_clauses_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(concepts, "_CLAUSE_CHARS_AT_MOST", 40)
    extractor = DefaultConcepts()
    for index in range(20):
        text = f"pottery class number {index} and support group; a very long clause of many many words here"
        assert extractor.extract(text) == DefaultConcepts().extract(text)
        assert 0 < extractor._clauses.chars <= 40
