"""Recall's postings as capture counts them: `words.counted_terms` (each distinct word's terms
remembered, a text split once for affect and postings) gives what counting `index_terms` gives,
whatever was met before, and a store keeps the same postings whether capture counted them or the
store did (`index_missing`)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolang.experience import words
from zerolang.experience.affect import LexiconAffect
from zerolang.experience.build import build
from zerolang.experience.concepts import DefaultConcepts
from zerolang.experience.model import Message, Role, Session
from zerolang.experience.stemming import stem
from zerolang.experience.words import STOPWORDS, counted_terms, index_terms, lower_words
from zerolang.storage.sqlite.experience import SqliteExperienceStore

WORDS = [
    "the",
    "Painting",
    "paints",
    "painted",
    "well-known",
    "rock-'n'-roll",
    "Bob's",
    "don't",
    "it's",
    "O'Brien",
    "café",
    "naïve",
    "Straße",
    "İstanbul",
    "’quoted’",
    "x",
    "42",
    "3.14",
    "e-mail",
    "user",
    "assistant",
    "?",
    ",",
    "\n",
]
texts = st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join)


def fresh_count(text: str) -> tuple[dict[str, int], int]:
    """The rule `index_terms` documents, worked out word by word with nothing remembered, counted; and
    the number of words."""
    found: list[str] = []
    for word in lower_words(text):
        if word in STOPWORDS:
            continue
        part_of = word[:-2] if word.endswith("'s") else word
        for part in re.split(r"['\-]+", part_of):
            if len(part) > 1 and part not in STOPWORDS:
                found.append(stem(part))
    assert found == index_terms(text)
    return dict(Counter(found)), len(lower_words(text))


@settings(max_examples=80)
@given(batch=st.lists(texts, min_size=1, max_size=12))
def test_counted_terms_are_what_counting_index_terms_gives(batch: list[str]) -> None:
    for text in batch + batch:  # every text twice: the second time from what was remembered
        counts, length = counted_terms(text)
        assert (dict(counts), length) == fresh_count(text)


def test_the_words_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(words, "_WORD_TERMS", {})
    monkeypatch.setattr(words, "_WORD_TERMS_AT_MOST", 5)
    for index in range(40):
        text = f"painting {index} well-known number{index} rock-'n'-roll"
        assert (dict(counted_terms(text)[0]), counted_terms(text)[1]) == fresh_count(text)
        assert len(words._WORD_TERMS) <= 5


def test_a_text_split_for_affect_is_not_split_again_and_others_are() -> None:
    text = "Painted walls, painted doors"
    first = lower_words(text)
    assert lower_words(text) is first  # the same text: its words as they were split
    other = "painted walls, painted doors"
    assert lower_words(other) == first and lower_words(other) is not first
    assert lower_words("".join(["Painted walls, ", "painted doors"])) == first  # an equal text, apart


def chat(count: int) -> Session:
    said = [" ".join(WORDS[(index * 7 + k) % len(WORDS)] for k in range(9)) for index in range(count)]
    messages = tuple(
        Message(
            Role.USER if index % 2 == 0 else Role.ASSISTANT, "user" if index % 2 == 0 else "assistant", text=t
        )
        for index, t in enumerate(said)
    )
    return Session("s-counted", "openai", messages)


def postings(store: SqliteExperienceStore) -> list[tuple[object, ...]]:
    db = store.db
    terms = db.rows("SELECT term, seq, what, who FROM exp_term ORDER BY term, seq")
    lengths = db.rows("SELECT seq, what, who, space FROM exp_length ORDER BY seq")
    return [*terms, *lengths]


def test_postings_capture_counted_are_those_the_store_counts() -> None:
    batch = build([chat(60)], affect=LexiconAffect(), concepts=DefaultConcepts())
    assert len(batch.terms) == len(batch.experiences)
    with SqliteExperienceStore() as counted_by_capture, SqliteExperienceStore() as counted_by_store:
        counted_by_capture.add(batch)
        batch.terms.clear()  # none given: the store counts every text itself
        counted_by_store.add(batch)
        assert postings(counted_by_capture) == postings(counted_by_store)
        counted_by_store.db.run("DELETE FROM exp_term")
        counted_by_store.db.run("DELETE FROM exp_length")
        assert counted_by_store.index_missing() == len(batch.experiences)  # as a store rebuilt from 2
        assert postings(counted_by_capture) == postings(counted_by_store)
