"""`Memory.ask`: one question answered from the facts and the conversations, in one budgeted context."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zerolang.memory
from zerolang.memory import Memory
from zerolang.memory.asking import asked_time, clip, noise, spoken
from zerolang.util.errors import ZeroError
from zerolang.util.tokens import count_tokens

NOW = "2026-06-01T12:00:00Z"
LONG = (
    "Carol told me she moved to Lisbon for the new job at Acme. She loves the tram rides along the river,"
    " the bakeries near the office and the light in the evening over the water, and she hopes her sister"
    " visits in the autumn when the crowds are gone and the weather is still warm enough for the beach."
)
HEX = re.compile(r"\b[0-9a-f]{8,}\b")


@pytest.fixture(scope="module")
def memory() -> Iterator[Memory]:
    with zerolang.memory.open(":memory:", experiences=":memory:") as opened:
        opened.declare_single_valued(["works_at"], now="2000-01-01")
        for company, start in (
            ("initech", "2020-01-15"),
            ("globex", "2022-03-01"),
            ("acme corp", "2024-02-01"),
        ):
            opened.remember([("carol diaz", "works_at", company)], event_time=start)
        opened.remember([("acme corp", "located_in", "lisbon")], event_time="2015-01-01")
        opened.capture(session="s1", user_said=LONG, agent_said="ok", when="2024-03-09T10:00:00Z")
        opened.capture(session="s2", user_said="Where does Carol work now?", agent_said="File written")
        yield opened


def test_facts_and_turns_answer_together_in_plain_lines(memory: Memory) -> None:
    found = memory.ask("Where does Carol work?", now=NOW)
    lines = found.text.splitlines()
    assert lines[0] == "facts:"
    assert lines[1] == (
        "carol diaz works at acme corp (since 2024-02-01; before: globex 2022-2024, initech 2020-2022)"
    )
    assert "conversations:" in lines
    assert any(line.startswith("2024-03-09 user: Carol told me") for line in lines)  # who, when, what
    assert "File written" not in found.text and "\nassistant: ok" not in found.text  # noise left out
    assert HEX.search(found.text) is None and found.tokens == count_tokens(found.text)


def test_hash_ids_only_when_asked(memory: Memory) -> None:
    plain = memory.ask("Where does Carol work?", now=NOW)
    words = plain.text.split()
    assert sum(bool(HEX.fullmatch(word.strip("[]"))) for word in words) < 0.05 * len(words)
    with_ids = memory.ask("Where does Carol work?", now=NOW, ids=True)
    assert HEX.search(with_ids.text) is not None
    assert all(item.ids for item in with_ids.items)


def test_reasons_are_given_and_not_spent_from_the_budget(memory: Memory) -> None:
    plain = memory.ask("Where does Carol work?", now=NOW, budget=80)
    told = memory.ask("Where does Carol work?", now=NOW, budget=80, explain=True)
    assert told.text == plain.text and told.tokens == plain.tokens <= 80
    assert "  why: 'carol' in 'carol diaz'; 'work' in 'works_at'" in told.explained()
    document = json.loads(told.json)
    assert all(line["why"] for line in document["lines"])
    assert "why" not in json.loads(plain.json)["lines"][0]


@settings(max_examples=25, deadline=None)
@given(budget=st.integers(min_value=1, max_value=260), as_json=st.booleans())
def test_the_context_never_exceeds_its_budget(memory: Memory, budget: int, as_json: bool) -> None:
    question = "Where does Carol work and where did she move?"
    if as_json and budget < 25:  # the JSON form's frame alone is 25 tokens here
        with pytest.raises(ZeroError, match="too small for the JSON form"):
            memory.ask(question, now=NOW, budget=budget, as_json=True)
        return
    found = memory.ask(question, now=NOW, budget=budget, as_json=as_json)
    if as_json:
        assert found.json_tokens <= budget
        document = json.loads(found.json)
        assert [line["text"] for line in document["lines"]] == [item.text for item in found.items]
    else:
        assert found.tokens <= budget
    if budget >= 60:
        assert found.items, "a context of 60 tokens holds a line"


def test_json_with_a_small_budget_carries_the_text(memory: Memory) -> None:
    found = memory.ask("Where does Carol work?", now=NOW, budget=60, as_json=True)
    document = json.loads(found.json)
    assert document["lines"][0]["text"].startswith("carol diaz works at acme corp")
    assert found.json_tokens <= 60


def test_a_question_asking_when_gets_the_dates() -> None:
    with zerolang.memory.open(":memory:", experiences=":memory:") as opened:
        opened.remember([("bob", "married_to", "alice")], event_time="2019-08-10T00:00:00Z")
        assert (
            "bob married to alice (since 2019-08-10)" in opened.ask("When did Bob marry Alice?", now=NOW).text
        )
        assert "(since 2019-08-10)" in opened.ask("How long has Bob been married?", now=NOW).text
        assert "since" not in opened.ask("Who is Bob married to?", now=NOW).text


def test_json_keeps_letters_as_they_are_and_escapes_what_does_not_print() -> None:
    with zerolang.memory.open(":memory:", experiences=":memory:") as opened:
        opened.remember([("maría josé", "lives_in", "bilbao\u202e")], event_time="2024-01-01")
        printed = opened.ask("Where does María José live?", now=NOW, as_json=True).json
    assert "maría josé lives in bilbao" in printed  # not "mar\\u00eda", three times the tokens
    assert "\u202e" not in printed and "\\u202e" in printed
    assert json.loads(printed)["lines"][0]["text"] == "maría josé lives in bilbao\u202e"


def test_a_long_turn_is_cut_at_a_sentence_or_a_word_end(memory: Memory) -> None:
    found = memory.ask("tram rides along the river", now=NOW, budget=45)
    (turn,) = [item for item in found.items if item.kind == "turn"]
    said = turn.text.split(": ", 1)[1]
    assert said != LONG and (said.endswith(".") or said.endswith("…"))
    kept = said.removesuffix("…")
    assert LONG.startswith(kept) and LONG[len(kept)] in " ,." and found.tokens <= 45


def test_clip() -> None:
    assert clip("Short enough.", 10) == "Short enough."
    assert clip("One sentence here. And another one that is long.", 8) == "One sentence here."
    cut = clip("wordy words without any sentence end at all in here", 6)
    assert cut.endswith("…") and "wordy words without any sentence".startswith(cut[:-1].rstrip())
    assert clip("supercalifragilistic", 1) == ""


def test_noise() -> None:
    calls = '→ read_notes({"topic": "Philokalia"}) → bash({"command":"ls"})'
    for text in (
        "ok",
        "OK.",
        "Got it.",
        "File written",
        "thanks!",
        "Wrote src/app.py",
        "exit code 0",
        "  ",
        calls,
    ):
        assert noise(text), text
    for text in ("In Lisbon.", "No, she moved to Oslo.", "ok so the meeting is at 5"):
        assert not noise(text), text


def test_tool_calls_are_not_spoken() -> None:
    """A capture appends an assistant's tool calls to its thinking; a model's context leaves them out."""
    thought = 'A one-in-ten failure smells like a clock dependency.\n→ Read({"file_path": "/srv/app.py"})'
    assert spoken(thought) == "A one-in-ten failure smells like a clock dependency."
    assert noise(spoken('→ bash({"command": "ls"})'))
    assert spoken("2 → 3 is a step") == "2 → 3 is a step"


def test_a_time_in_the_question() -> None:
    now = "2026-06-01T12:00:00.000Z"
    assert asked_time("where did she work in 2021?", now) == "2021-12-31T23:59:59.000Z"
    assert asked_time("where did she work last year?", now) == "2025-12-31T23:59:59.000Z"
    assert asked_time("where did she live before March?", now) == "2026-02-28T23:59:59.000Z"
    assert asked_time("where did she live before March 2022?", now) == "2022-02-28T23:59:59.000Z"
    assert asked_time("where did she work in December?", now) == "2025-12-31T23:59:59.000Z"
    assert asked_time("where does she work?", now) is None
    assert asked_time("what did she drive two years ago?", now) == "2024-06-01T23:59:59.000Z"
    assert asked_time("what did she drive on 2023-05-05?", now) == "2023-05-05T23:59:59.000Z"
    assert asked_time("where did she live in mid-2023?", now) == "2023-08-31T23:59:59.000Z"
    # since and after a time: what holds now (with what held before it), not the end of that year
    assert asked_time("where has she lived since 2020?", now) is None
    assert asked_time("which team was he on after 2023?", now) is None


def test_a_year_in_the_question_answers_as_of_then(memory: Memory) -> None:
    found = memory.ask("Where did Carol work in 2021?", now=NOW)
    assert found.at == "2021-12-31T23:59:59.000Z"
    text = found.text
    assert text.index("initech") < text.index("globex") < text.index("acme corp")


def test_an_empty_question_or_budget_is_refused(memory: Memory) -> None:
    with pytest.raises(ZeroError, match="empty"):
        memory.ask("   ")
    with pytest.raises(ZeroError, match="positive"):
        memory.ask("carol", budget=0)


def test_sessions_can_be_left_out(memory: Memory) -> None:
    session = memory.recall_turns("tram rides along the river")[0].experience.session
    found = memory.ask("tram rides along the river", now=NOW, skip_sessions=[session])
    assert not [item for item in found.items if item.kind == "turn" and "tram" in item.text]


def test_another_scorer_can_rank_the_facts(memory: Memory) -> None:
    """The door for a model: a scorer that knows "employer" means `works_at` finds that line first."""
    from collections.abc import Sequence

    from zerolang.knowledge.asking import WordScorer
    from zerolang.memory.asking import answer

    words = WordScorer()

    def synonyms(asked: Sequence[str], text: str) -> tuple[float, tuple[str, ...]]:
        score, matched = words(asked, text)
        if "employer" in asked and "works" in text:
            return score + 5.0, (*matched, "employer")
        return score, matched

    found = answer("Carol's employer's city?", facts=memory.store, experiences=None, now=NOW, scorer=synonyms)
    assert found.items[0].text.startswith("carol diaz works at acme corp")
    assert "'employer' in 'works_at'" in found.items[0].why
    nothing = answer(
        "Carol's employer?", facts=memory.store, experiences=None, now=NOW, scorer=lambda a, t: (0.0, ())
    )
    assert nothing.items == []
