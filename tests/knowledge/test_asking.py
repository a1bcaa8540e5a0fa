"""A question in plain words, answered from the fact graph (`zerolang.knowledge.asking`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import zerolang.memory
from zerolang.knowledge.asking import FactLine, ask_facts, predicate_words, question_words, stem
from zerolang.memory import Memory

NOW = "2026-06-01T12:00:00.000Z"


@pytest.fixture
def memory() -> Iterator[Memory]:
    with zerolang.memory.open(":memory:") as opened:
        opened.declare_single_valued(["works_at"], now="2000-01-01")
        for company, start in (
            ("initech", "2020-01-15"),
            ("globex", "2022-03-01"),
            ("acme corp", "2024-02-01"),
        ):
            opened.remember([("carol diaz", "works_at", company)], event_time=start)
        opened.remember(
            [
                ("acme corp", "located_in", "lisbon"),
                ("dana kim", "mentor_of", "carol diaz"),
                ("carol diaz", "has_observation", "likes hiking in the alps"),
            ],
            event_time="2024-01-01",
        )
        yield opened


def ask(memory: Memory, question: str, at: str | None = None) -> list[FactLine]:
    return ask_facts(memory.store, question, now=NOW, at=at)


def texts(lines: list[FactLine]) -> list[str]:
    return [line.text() for line in lines]


def test_the_words_of_a_question() -> None:
    assert question_words("Where does Carol's employer work?") == ["carol", "employer", "work"]
    assert question_words("What is it?") == []
    assert [stem(w) for w in ("works", "working", "worked", "mentors", "cities")] == [
        "work",
        "work",
        "work",
        "mentor",
        "citi",
    ]
    # a doer meets the verb, a final e or y meets the forms that drop it
    for word, verb in [
        ("manager", "manages"),
        ("owner", "owns"),
        ("teacher", "teaches"),
        ("employer", "employs"),
        ("living", "lives"),
        ("marry", "married"),
        ("city", "cities"),
    ]:
        assert stem(word) == stem(verb), (word, verb)
    assert predicate_words("works_at") == "works at"


def test_a_first_name_finds_the_current_value_first_and_the_past_with_periods(memory: Memory) -> None:
    first = ask(memory, "Where does Carol work?")[0]
    assert first.text() == (
        "carol diaz works at acme corp (since 2024-02-01; before: globex 2022-2024, initech 2020-2022)"
    )
    assert first.current and "'work' in 'works_at'" in first.reasons


def test_a_prefix_and_a_predicate_word_find_the_fact(memory: Memory) -> None:
    assert any(line.startswith("carol diaz works at acme corp") for line in texts(ask(memory, "car")))
    assert texts(ask(memory, "who mentors Carol?"))[0] == "dana kim mentor of carol diaz"


def test_one_hop_reaches_the_related_concept(memory: Memory) -> None:
    assert "acme corp located in lisbon" in texts(ask(memory, "Which city is Carol's employer in?"))


def test_one_hop_leads_on_from_what_a_concept_names_before_what_names_it() -> None:
    with zerolang.memory.open(":memory:") as opened:
        opened.remember(
            [
                ("ana", "has_pet", "rex"),
                ("rex", "is_a", "beagle"),
                ("bob", "knows", "rex"),  # a fact of a third concept naming rex
                ("trip", "organised_by", "ana"),  # a concept naming ana
                ("trip", "includes", "kyoto"),
            ],
            event_time="2024-01-01",
        )
        lines = texts(ask(opened, "What breed is Ana's dog?"))
    assert lines.index("rex is a beagle") < lines.index("bob knows rex")
    assert lines.index("rex is a beagle") < lines.index("trip includes kyoto")


def test_a_name_with_diacritics_is_found_typed_with_or_without_them() -> None:
    assert question_words("Where does María José live?") == ["maria", "jose", "live"]
    with zerolang.memory.open(":memory:") as opened:
        opened.remember([("søren nielsen", "prefers", "neovim")], event_time="2024-01-01")
        for question in (
            "What does Søren prefer?",
            "What does Soren prefer?",
            "what does soren prefer",
            "Where does soren work?",
            # only a few words are looked up again by their accented spellings: a name first
            "Which quick brown foxes jumped over lazy dogs near Soren?",
        ):
            assert texts(ask(opened, question))[0] == "søren nielsen prefers neovim", question


def test_a_line_tells_when_each_value_began_when_asked() -> None:
    with zerolang.memory.open(":memory:") as opened:
        for language, start in (("russian", "2020-01-01"), ("spanish", "2024-06-01")):
            opened.remember([("ivan", "speaks", language)], event_time=start)
        line = ask(opened, "Since when does Ivan speak Spanish?")[0]
    assert line.text() == "ivan speaks spanish, russian"  # no history: no dates unless asked
    assert line.text(dated=True) == "ivan speaks spanish (since 2024-06-01), russian (since 2020-01-01)"


def test_an_observation_is_a_line_of_its_own(memory: Memory) -> None:
    assert texts(ask(memory, "what does carol like?"))[0] == "carol diaz: likes hiking in the alps"


def test_a_time_asked_about_reads_the_facts_as_of_then(memory: Memory) -> None:
    lines = ask(memory, "Where did Carol work?", at="2021-12-31T23:59:59.000Z")
    assert lines[0].text() == (
        "carol diaz works at initech (since 2020-01-15; later: globex 2022-2024, acme corp since 2024-02-01)"
    )
    # what began after the time asked about is not a line of its own
    assert not any(line.startswith("dana kim") for line in texts(lines))


def test_a_line_of_only_the_past_ranks_after_current_ones(memory: Memory) -> None:
    memory.retract("carol diaz|has_observation|likes hiking in the alps", valid_to="2025-01-01")
    lines = ask(memory, "what does Carol like?")
    past = next(line for line in lines if line.predicate == "has_observation")
    assert not past.current and past.text() == "carol diaz: likes hiking in the alps 2024-2025, in the past"
    assert lines.index(past) > max(lines.index(line) for line in lines if line.current)


def test_hash_ids_only_on_request(memory: Memory) -> None:
    line = ask(memory, "Where does Carol work?")[0]
    assert "[" not in line.text()
    assert all(f"[{key[:10]}]" in line.text(ids=True) for key in line.fact_hashes)


def test_nothing_named_nothing_found(memory: Memory) -> None:
    assert ask(memory, "zebra?") == []
    assert ask(memory, "the of and") == []
