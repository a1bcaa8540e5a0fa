"""The default affect and concept extractors: documented, deterministic, in range."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from zerolang.experience.affect import LexiconAffect
from zerolang.experience.concepts import DefaultConcepts, concept_id
from zerolang.experience.model import AFFECTS
from zerolang.knowledge.hashing import concept_hash
from zerolang.knowledge.normalize import AliasTable


def test_affect_lexicon_scores() -> None:
    affect = LexiconAffect()
    assert affect.score("I am so curious, let's explore it?") == {"SEEKING": round(3 / 5, 3)}
    grief = affect.score("I miss her, I feel so lonely since she died")
    assert grief == {"PANIC_GRIEF": 0.6}
    both = affect.score("Thank you for the support, that party was fun")
    assert both["CARE"] == 0.5 and both["PLAY"] == 0.5
    assert affect.score("The invoice number is 42.") == {}
    assert "CARE" not in affect.score("my career")  # whole words, not substrings


@given(st.text(max_size=300))
def test_affect_is_in_range_and_deterministic(text: str) -> None:
    scores = LexiconAffect().score(text)
    assert scores == LexiconAffect().score(text)
    assert set(scores) <= set(AFFECTS)
    assert all(0 < value < 1 for value in scores.values())


def test_concepts_known_labels_names_and_noun_phrases() -> None:
    concepts = DefaultConcepts().extract(
        "Yesterday Caroline told me about LTM. She joined a support group in New York."
    )
    assert "long-term-memory" in concepts
    assert "caroline" in concepts and "new york" in concepts
    assert "support group" in concepts
    assert "yesterday" not in concepts and "she" not in concepts


def test_user_aliases_and_concept_ids_are_the_memorys() -> None:
    table = AliasTable.default().extended({"NIMA": "nima-memory"})
    assert "nima-memory" in DefaultConcepts(table).extract("we rebuilt NIMA today")
    assert concept_id("nima-memory") == concept_hash("nima-memory").digest.hex()


@given(st.text(max_size=300))
def test_concepts_never_crash_and_repeat_nothing(text: str) -> None:
    found = DefaultConcepts().extract(text)
    assert len(found) == len(set(found))
    assert all(label == label.strip().lower() for label in found)


@given(st.text(alphabet=st.sampled_from("aZ .!?,\n\t\r\u2028\u00a0\x1c"), max_size=12), st.data())
def test_a_sentence_opens_after_a_full_stop_or_a_line_break(text: str, data: st.DataObject) -> None:
    """What `_names` reads backwards is what a search of everything before the word finds."""
    import re

    from zerolang.experience.concepts import _opens_sentence

    start = data.draw(st.integers(min_value=0, max_value=len(text)))
    searched = start == 0 or re.search(r"[.!?\n]\s*$", text[:start]) is not None
    assert _opens_sentence(text, start) == searched
