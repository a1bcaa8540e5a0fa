"""Recall's own full text: our terms (tokenizer and Porter stemmer) and BM25 over the store's postings."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolang.experience.capture import TurnRecorder
from zerolang.experience.ranking import K1, WHO, B, full_text, query_terms
from zerolang.experience.stemming import stem
from zerolang.experience.words import index_terms, lower_words
from zerolang.storage.sqlite.experience import SqliteExperienceStore

# From Porter's paper (1980) and its published vocabulary.
PORTER = {
    "caresses": "caress",
    "ponies": "poni",
    "cats": "cat",
    "agreed": "agre",
    "plastered": "plaster",
    "motoring": "motor",
    "conflated": "conflat",
    "hopping": "hop",
    "filing": "file",
    "happy": "happi",
    "relational": "relat",
    "generalizations": "gener",
    "adjustment": "adjust",
    "adoption": "adopt",
    "controll": "control",
    "painting": "paint",
    "painted": "paint",
    "sky": "sky",
    "at": "at",
}


@pytest.mark.parametrize(("word", "stemmed"), sorted(PORTER.items()))
def test_the_porter_stemmer(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed


def test_index_terms_fold_forms_possessives_hyphens_and_stopwords() -> None:
    assert index_terms("Carol's well-known PAINTINGS: she's painting, don't 2023") == [
        "carol",
        "well",
        "known",
        "paint",
        "paint",
        "2023",
    ]
    assert query_terms(["paints", "Painted", "the"]) == ["paint"]


def _reference(texts: dict[str, tuple[str, str]], question: str) -> dict[str, float]:
    """BM25 over whole texts (who at `WHO`; lengths in words, terms matched; FTS5's idf, floored),
    written out from the definition: the store's postings, lengths and totals give the same."""
    what = {ident: Counter(index_terms(said)) for ident, (_, said) in texts.items()}
    who = {ident: Counter(index_terms(by)) for ident, (by, _) in texts.items()}
    length = {i: len(lower_words(texts[i][1])) + WHO * len(lower_words(texts[i][0])) for i in texts}
    average = sum(length.values()) / len(texts)
    out: dict[str, float] = {}
    for ident in texts:
        total = 0.0
        for term in query_terms([question]):
            held = sum(1 for i in texts if what[i][term] or who[i][term])
            tf = what[ident][term] + WHO * who[ident][term]
            if tf:
                idf = max(math.log((len(texts) - held + 0.5) / (held + 0.5)), 1e-6)
                total += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length[ident] / average))
        if total:
            out[ident] = total
    return out


WORDS = [
    "garden",
    "gardens",
    "Ana",
    "Ben",
    "tea",
    "teas",
    "painting",
    "paints",
    "the",
    "of",
    "well-known",
    "compost",
]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["Ana", "Ben"]), st.lists(st.sampled_from(WORDS), min_size=1, max_size=6)),
        min_size=1,
        max_size=8,
    ),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
)
def test_full_text_is_bm25_over_the_texts_best_first_ties_by_id(
    said: list[tuple[str, list[str]]], question: list[str]
) -> None:
    with SqliteExperienceStore(":memory:") as store:
        for index, (who, words) in enumerate(said):
            TurnRecorder(store, session="s", user=who, agent="Lilu").record(user_said=" ".join(words))
            assert index + 1 == store.counts()["experiences"]
        (session,) = store.sessions("", 10)
        turns = [turn for turn, _ in store.session_turns(session.session, -1, 100)]
        texts = {e.id: (e.who, e.what) for e in store.experiences_of_turns(turns)}
        assert len(texts) == len(said)
        ranked = full_text(store, question, 100).experiences
        want = _reference(texts, " ".join(question))
        assert [ident for ident, _ in ranked] == sorted(want, key=lambda i: (-want[i], i))
        for ident, score in ranked:
            assert score == pytest.approx(want[ident], rel=1e-12)
