"""What a question asks for, from its wording (`zerolang.experience.asking`)."""

from __future__ import annotations

import pytest

from zerolang.experience.asking import asks_about_someone, asks_for_several, ends_asking


@pytest.mark.parametrize(
    "question",
    [
        "What books has Ana read?",
        "Which cities has Ben visited?",
        "In what ways does Ana help her neighbours?",
        "What do Ana and Ben both like?",
        "Would Ana enjoy a trip to the mountains?",
        "What might Ben's degree be in?",
        "Is Ana likely to move?",
        "What could Ben do after he retires?",
    ],
)
def test_several_things_or_an_inference(question: str) -> None:
    assert asks_about_someone(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Ana realize after the race?",
        "What is Ben's favourite book?",
        "What was discussed at the meeting?",
        "When did Ana go hiking?",
        "What does Ben's necklace symbolize?",
        "What class is Ana taking?",
        "",
    ],
)
def test_one_thing(question: str) -> None:
    assert not asks_about_someone(question)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("That's great! How did it go?", True),
        ("Which tea should I buy?  ", True),
        ("How? I went there by train.", False),
        ("I went there by train.", False),
        ("", False),
    ],
)
def test_a_message_asks_when_it_ends_with_a_question(text: str, asks: bool) -> None:
    assert ends_asking(text) is asks


@pytest.mark.parametrize(
    ("question", "several"),
    [
        ("What books has Ana read?", True),
        ("Which big cities has Ben visited?", True),
        ("What do Ana and Ben both like?", True),
        ("What events for children has Ana joined?", True),
        ("What books?", True),
        ("Would Ana enjoy a trip to the mountains?", False),  # an inference, not several things
        ("What motivates Ana to run?", False),  # a verb, not a plural
        ("Which song helps Ben relax?", False),
        ("What is Ben's favourite book?", False),
        ("", False),
    ],
)
def test_several_things_are_a_plural_after_what_or_both(question: str, several: bool) -> None:
    assert asks_for_several(question) is several
    assert asks_about_someone(question) or not several
