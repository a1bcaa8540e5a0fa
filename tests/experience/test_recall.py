"""Recall over experiences and its budgeted rendering."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerolang.experience.budget import gist, render
from zerolang.experience.capture import TurnRecorder, capture_files
from zerolang.experience.model import Experience, Layer
from zerolang.experience.recall import RecallWeights, recall
from zerolang.experience.store import ExperienceStore
from zerolang.storage.sqlite.experience import SqliteExperienceStore
from zerolang.util.tokens import count_tokens

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"


def fixture_store() -> SqliteExperienceStore:
    store = SqliteExperienceStore(":memory:")
    capture_files(store, sorted(FIXTURES.iterdir()))
    return store


def test_recall_brings_the_layers_of_a_turn_together_with_reasons() -> None:
    store = fixture_store()
    hits = recall(store, "yellow tomato leaves", limit=5)
    top_turn = hits[0].experience.turn
    layers = {hit.experience.layer for hit in hits if hit.experience.turn == top_turn}
    assert layers == {Layer.INPUT, Layer.CONTEMPLATION, Layer.OUTPUT}
    # the turn matched by its words (its answer may rank first: it follows the matching question)
    assert any(hit.reasons[0] == "words match" for hit in hits if hit.experience.turn == top_turn)
    assert all(hit.reasons for hit in hits)
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_graph_expansion_reaches_what_shares_no_keyword() -> None:
    store = SqliteExperienceStore(":memory:")
    recorder = TurnRecorder(store, session="s", user="David", agent="Lilu")
    recorder.record(user_said="I stayed up late with the Philokalia.", agent_said="What draws you to it?")
    recorder.record(user_said="Its calm about the passions.", agent_said="That is apatheia.")
    recorder.record(user_said="Unrelated: the boiler is broken.", agent_said="Call the plumber.")
    hits = recall(store, "Philokalia", limit=10)
    texts = {hit.experience.what: hit for hit in hits}
    assert "That is apatheia." in texts  # no shared word: found through the next turn
    assert any("after" in reason for reason in texts["That is apatheia."].reasons)
    assert "Call the plumber." not in texts


def test_recall_on_an_empty_store_is_empty() -> None:
    assert recall(SqliteExperienceStore(":memory:"), "anything") == []


def test_gist_is_short() -> None:
    text = "word " * 200
    assert count_tokens(gist(text)) <= 17 and gist(text).endswith("…")
    assert gist("short text\nsplit") == "short text split"


def test_unlimited_rendering_holds_everything() -> None:
    store = fixture_store()
    hits = recall(store, "reading list Melissa", limit=6)
    rendering = render(store, "reading list Melissa", hits, budget=None)
    assert rendering.held(("full",)) == {hit.experience.id for hit in hits}
    assert rendering.text.startswith('recall "reading list Melissa"\ngraph:\n')
    assert "edges:" in rendering.text and "summaries:" in rendering.text and "full:" in rendering.text


def test_a_hit_in_full_text_has_no_summary_under_a_budget() -> None:
    store = fixture_store()
    hits = recall(store, "reading list Melissa", limit=6)
    rendering = render(store, "reading list Melissa", hits, budget=400)
    summaries = {item.key for item in rendering.items if item.kind == "summary"}
    full = {item.key for item in rendering.items if item.kind == "full"}
    assert full and not summaries & full


def test_full_texts_are_printed_under_their_when_once() -> None:
    store = fixture_store()
    hits = recall(store, "reading list Melissa", limit=6)
    rendering = render(store, "reading list Melissa", hits, budget=None)
    section = rendering.text.split("\nfull:\n", 1)[1].splitlines()
    whens = [line[2:] for line in section if line.startswith("@ ")]
    assert whens and len(whens) == len(set(whens))
    shown = {str(item.group) for item in rendering.items if item.kind == "full" and item.group}
    assert set(whens) == shown
    assert not any(when in line for line in section if not line.startswith("@ ") for when in whens)


QUERIES = st.sampled_from(
    ["reading list", "tomato", "login test clock", "weather in July", "Miso cat", "zzz"]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    files=st.lists(st.sampled_from(sorted(FIXTURES.iterdir())), min_size=0, max_size=5, unique=True),
    query=QUERIES,
    budget=st.integers(min_value=1, max_value=1200),
    limit=st.integers(min_value=1, max_value=30),
    as_json=st.booleans(),
)
def test_output_never_exceeds_the_budget(
    files: list[Path], query: str, budget: int, limit: int, as_json: bool
) -> None:
    store = SqliteExperienceStore(":memory:")
    capture_files(store, files)
    hits = recall(store, query, limit=limit)
    rendering = render(store, query, hits, budget=budget, as_json=as_json)
    assert count_tokens(rendering.text) == rendering.tokens <= budget
    if rendering.text and as_json:
        document = json.loads(rendering.text)
        listed = {node["id"] for node in document["graph"]}
        assert {item["id"] for item in document["summaries"] + document["full"]} <= listed
    if rendering.text and not as_json:
        listed = {item.key for item in rendering.items if item.kind == "node"}
        assert rendering.held() <= listed


def test_zero_recall_end_to_end(tmp_path: Path) -> None:
    db = str(tmp_path / "e.db")
    run = [sys.executable, "-m", "zerolang"]
    subprocess.run([*run, "capture", *map(str, sorted(FIXTURES.iterdir())), "--db", db], check=True)
    result = subprocess.run(
        [*run, "recall", "yellow tomato leaves", "--budget", "120", "--db", db],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert count_tokens(result.stdout) <= 120
    assert result.stdout.startswith("conversations:\n") and "tomato" in result.stdout
    tiny = subprocess.run(
        [*run, "recall", "tomato", "--budget", "2", "--db", db], capture_output=True, text=True
    )
    assert tiny.returncode == 1 and "too small" in tiny.stderr and tiny.stdout == ""
    missing = subprocess.run(
        [*run, "recall", "x", "--db", str(tmp_path / "none.db")], capture_output=True, text=True
    )
    assert missing.returncode == 1 and "no memory at" in missing.stderr


class Lengthy:
    """A stand-in ranker: longer texts are 'more similar'."""

    weight = 10.0

    def similarity(self, query: str, texts: list[str]) -> list[float]:
        longest = max(len(text) for text in texts)
        return [len(text) / longest for text in texts]


def test_an_optional_ranker_adds_its_similarity() -> None:
    store = fixture_store()
    plain = recall(store, "reading list", limit=3)
    ranked = recall(store, "reading list", limit=3, ranker=Lengthy())
    assert "similar meaning" in ranked[0].reasons
    assert ranked[0].score > plain[0].score


def test_a_question_that_names_a_time_ranks_what_was_said_then_first() -> None:
    store = SqliteExperienceStore(":memory:")
    march = TurnRecorder(store, session="march", user="Ana", agent="Ben")
    march.record(user_said="I watched a film about whales.", when="1:00 pm on 3 March, 2024")
    may = TurnRecorder(store, session="may", user="Ana", agent="Ben")
    may.record(user_said="I watched a film about trains yesterday.", when="2:00 pm on 9 May, 2024")
    for question in ("What film did Ana watch on 8 May, 2024?", "What film did Ana watch in May 2024?"):
        hits = recall(store, question, limit=5)
        assert "trains" in hits[0].experience.what
        assert any(reason.startswith("said near") for reason in hits[0].reasons)
    assert "whales" in recall(store, "What film did Ana watch in March?", limit=5)[0].experience.what


def test_every_seed_that_asks_passes_its_score_to_the_reply() -> None:
    store = SqliteExperienceStore(":memory:")
    recorder = TurnRecorder(store, session="s", user="Ana", agent="Ben")
    recorder.record(user_said="Tea, tea, tea: do you like tea?", agent_said="Sometimes.")
    recorder.record(user_said="Which tea should I buy?", agent_said="Darjeeling, surely.")
    # only the best seed expands; the second question is a seed too, and its reply shares no word
    hits = recall(store, "tea", limit=10, weights=RecallWeights(expand=1, whole_turn=0.0, neighbour=0.0))
    reply = next(hit for hit in hits if hit.experience.what == "Darjeeling, surely.")
    assert any(reason.startswith("answers ") for reason in reply.reasons)
    off = recall(
        store, "tea", limit=10, weights=RecallWeights(expand=1, whole_turn=0.0, neighbour=0.0, answer=0.0)
    )
    assert "Darjeeling, surely." not in {hit.experience.what for hit in off}


def test_the_session_the_query_matches_most_lifts_its_experiences() -> None:
    store = SqliteExperienceStore(":memory:")
    busy = TurnRecorder(store, session="busy", user="Ana", agent="Ben")
    busy.record(user_said="My garden is lovely.", agent_said="The garden needs water though.")
    busy.record(user_said="I planted roses in the garden.")
    quiet = TurnRecorder(store, session="quiet", user="Ana", agent="Ben")
    quiet.record(user_said="My garden is lovely.")
    weights = RecallWeights(session=0.4, turn=0.0, neighbour=0.0, whole_turn=0.0, shared=0.0)
    hits = recall(store, "garden", limit=10, weights=weights)
    same = [h for h in hits if h.experience.what == "My garden is lovely."]
    busy_session = next(h for h in hits if "roses" in h.experience.what).experience.session
    assert len(same) == 2 and same[0].experience.session == busy_session != same[1].experience.session
    assert same[0].score > same[1].score and "its session matches" in same[0].reasons
    plain = [
        h
        for h in recall(store, "garden", limit=10, weights=replace(weights, session=0.0))
        if h.experience.what == "My garden is lovely."
    ]
    assert plain[0].score == plain[1].score


def test_a_question_about_someone_weighs_what_they_said_by_about() -> None:
    store = SqliteExperienceStore(":memory:")
    recorder = TurnRecorder(store, session="s", user="Ana", agent="Ben")
    recorder.record(user_said="I read books about boats.", agent_said="Books about boats bore me.")
    weights = RecallWeights(speaker=0.5, about=1.0, turn=0.0, whole_turn=0.0, session=0.0)

    def ana_over_ben(question: str, w: RecallWeights) -> float:
        scores = {hit.experience.who: hit.score for hit in recall(store, question, limit=10, weights=w)}
        return scores["Ana"] / scores["Ben"]

    several = "What books has Ana read?"  # several things: Ana's experiences x (1 + about)
    assert ana_over_ben(several, weights) / ana_over_ben(
        several, replace(weights, about=0.5)
    ) == pytest.approx((1 + 1.0) / (1 + 0.5))
    one = "Does Ana read books?"  # one thing: x (1 + speaker), whatever `about` is
    assert ana_over_ben(one, weights) == pytest.approx(ana_over_ben(one, replace(weights, about=3.0)))


def test_a_message_that_ends_asking_scores_asking_less() -> None:
    store = SqliteExperienceStore(":memory:")
    recorder = TurnRecorder(store, session="s", user="Ana", agent="Ben")
    recorder.record(user_said="Did you plant the tulips?", agent_said="I planted the tulips in May.")
    weights = RecallWeights(turn=0.0, whole_turn=0.0, neighbour=0.0, answer=0.0, session=0.0, speaker=0.0)

    def asked_over_said(w: RecallWeights) -> float:
        scores = {hit.experience.who: hit.score for hit in recall(store, "tulips", limit=10, weights=w)}
        return scores["Ana"] / scores["Ben"]

    assert asked_over_said(replace(weights, asking=0.2)) == pytest.approx(
        0.8 * asked_over_said(replace(weights, asking=0.0))
    )
    reasons = {hit.experience.who: hit.reasons for hit in recall(store, "tulips", limit=10, weights=weights)}
    assert "asks (its reply answers)" in reasons["Ana"]
    assert "asks (its reply answers)" not in reasons["Ben"]


def test_a_question_for_several_things_spreads_its_ranking_over_sessions() -> None:
    store = SqliteExperienceStore(":memory:")
    first = TurnRecorder(store, session="first", user="Ana", agent="Ben")
    first.record(user_said="I saw boats on the river.", agent_said="The boats on the river were red.")
    first.record(user_said="Boats again today.", agent_said="Nice boats.")
    later = TurnRecorder(store, session="later", user="Ana", agent="Ben")
    later.record(user_said="I once saw a boat on a lake in the north, long ago, with my father.")
    other = TurnRecorder(store, session="other", user="Ana", agent="Ben")
    for text in ("The boiler is broken.", "Call the plumber.", "Tea is ready.", "The garden needs water."):
        other.record(user_said=text)
    weights = RecallWeights(
        turn=0.0, whole_turn=0.0, neighbour=0.0, shared=0.0, session=0.0, speaker=0.0, about=0.0
    )
    lake = next(h for h in recall(store, "lake", limit=1)).experience.session

    def sessions(question: str, w: RecallWeights) -> list[str]:
        hits = recall(store, question, limit=4, weights=w)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        return [h.experience.session for h in hits]

    several = "What boats has Ana seen?"
    assert lake not in sessions(several, replace(weights, spread=0.0))
    assert lake in sessions(several, replace(weights, spread=0.9))
    spread = recall(store, several, limit=10, weights=replace(weights, spread=0.9))
    firsts = [h for h in spread if h.experience.session == spread[0].experience.session]
    assert len(firsts) > 1 and not any(r.startswith("after ") for r in firsts[0].reasons)
    assert "after 1 better of its session" in firsts[1].reasons  # the reason says why it ranks lower
    one = "Which boat did Ana see?"  # one thing: never spread
    assert sessions(one, replace(weights, spread=0.9)) == sessions(one, replace(weights, spread=0.0))


def garden_store() -> SqliteExperienceStore:
    """Ana tells of her garden in one session; Cy, in another, says the words the full text ranks first."""
    store = SqliteExperienceStore(":memory:")
    record_gardens(store)
    return store


def record_gardens(store: ExperienceStore) -> None:
    ana_says(
        store,
        "the garden was full of weeds after the storm",
        "we spent the weekend in the garden pulling weeds",
        "the neighbours say their garden has weeds too",
        "I bought new tools for the garden",
        "the garden gate is broken again",
        "roses in the garden need more sun",
    )
    quiet = TurnRecorder(store, session="quiet", user="Cy", agent="Ben")
    quiet.record(user_said="Tea is ready.")
    quiet.record(user_said="Ana? Garden, garden, my garden!")


def ana_says(store: ExperienceStore, *texts: str) -> None:
    """Ana's turns in the busy session, one a text."""
    busy = TurnRecorder(store, session="busy", user="Ana", agent="Ben")
    for text in texts:
        busy.record(user_said=text)


GARDEN = "What did Ana do in the garden?"
ANA_FIRST = RecallWeights(speaker=2.0, kept=0)  # what Ana said fills the first places; room kept in them


def test_the_full_texts_first_session_keeps_a_place_in_the_first_five() -> None:
    store = garden_store()
    plain = recall(store, GARDEN, limit=8, weights=replace(ANA_FIRST, sessions=0))
    assert [h.experience.who for h in plain[:5]] == ["Ana"] * 5  # the graph piles up one session
    hits = recall(store, GARDEN, limit=8, weights=replace(ANA_FIRST, sessions=1))
    cy = next(i for i, h in enumerate(hits) if h.experience.who == "Cy")
    assert cy == 4  # the last of the first five places, not above what the graph ranks best
    assert "its session is the full text's first" in hits[cy].reasons
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    # the others keep their order, only moved down by one place
    assert [h.experience.id for h in hits if h.experience.who != "Cy"] == [
        h.experience.id for h in plain if h.experience.who != "Cy"
    ][: len(hits) - 1]
    assert all("full text's" not in r for h in hits if h.experience.who != "Cy" for r in h.reasons)


def test_by_default_the_first_five_stay_the_graphs_and_room_is_kept_after_them() -> None:
    store = garden_store()
    plain = recall(store, GARDEN, limit=10, weights=RecallWeights(speaker=2.0, sessions=0))
    hits = recall(store, GARDEN, limit=10, weights=RecallWeights(speaker=2.0, sessions=2))
    assert RecallWeights().kept == 5
    assert [h.experience.id for h in hits[:5]] == [h.experience.id for h in plain[:5]]
    assert [h.experience.who for h in hits[:5]] == ["Ana"] * 5
    assert "Cy" in [h.experience.who for h in hits[5:10]]


def test_a_session_already_in_the_first_five_moves_nothing() -> None:
    store = garden_store()
    # Ana's session is the full text's second: it is in the first five already, so 2 moves only Cy
    once = recall(store, GARDEN, limit=8, weights=replace(ANA_FIRST, sessions=1))
    twice = recall(store, GARDEN, limit=8, weights=replace(ANA_FIRST, sessions=2))
    assert [(h.experience.id, h.score, h.reasons) for h in twice] == [
        (h.experience.id, h.score, h.reasons) for h in once
    ]
    # without a person to prefer, the full text's own first hit leads: nothing to reserve
    open_question = "garden"
    assert [h.experience.id for h in recall(store, open_question, limit=8)] == [
        h.experience.id for h in recall(store, open_question, limit=8, weights=RecallWeights(sessions=0))
    ]


def crowded_garden_store() -> SqliteExperienceStore:
    """Ana fills more than ten places with her garden; Cy, in another session, says the words the full
    text over whole turns ranks first."""
    store = SqliteExperienceStore(":memory:")
    record_gardens(store)
    ana_says(
        store,
        "the garden hose sprang a leak",
        "birds keep eating the seeds in the garden",
        "the garden path needs new gravel",
        "a fox dug up the garden bed",
        "the garden looks lovely in the evening",
        "my sister visited the garden today",
    )
    return store


def test_fused_sessions_bring_the_full_texts_first_session_within_the_first_ten() -> None:
    store = crowded_garden_store()
    graph_only = RecallWeights(speaker=2.0, sessions=0)
    plain = recall(store, GARDEN, limit=12, weights=graph_only)
    assert [h.experience.who for h in plain[:10]] == ["Ana"] * 10  # BM25's first session is missing
    hits = recall(store, GARDEN, limit=12, weights=replace(graph_only, fused=2))
    cy = next(i for i, h in enumerate(hits) if h.experience.who == "Cy")
    assert cy == 9  # within the first ten, in the last place: the graph's best keep theirs
    assert "its session is among the first of both rankings fused" in hits[cy].reasons
    assert [h.experience.id for h in hits[:9]] == [h.experience.id for h in plain[:9]]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    # the fusion's first session is the graph's own, shown already: one fused session moves nothing
    once = recall(store, GARDEN, limit=12, weights=replace(graph_only, fused=1))
    assert [h.experience.id for h in once] == [h.experience.id for h in plain]
    assert RecallWeights().fused == 0  # the leave-one-out rule's choice (docs/benchmarks.md, round 8)


def test_reciprocal_rank_fusion_puts_a_session_both_orders_reach_early_first() -> None:
    from zerolang.experience.recall import _fused_sessions

    found = {
        f"e{i}": Experience(f"e{i}", Layer.INPUT, "Ana", "x", None, session, f"t{i}", i, 0)
        for i, session in enumerate(["a", "b", "c", "d"])
    }
    graph = [("e0", 4.0), ("e1", 3.0), ("e2", 2.0), ("e3", 1.0)]  # sessions a, b, c, d
    text = [("t3", 9.0), ("t2", 8.0), ("t1", 7.0)]  # the full text: d, c, b (a not at all)
    # d (ranks 4 and 1) just edges b and c (2 and 3, 3 and 2: tied, so the graph's order), and all
    # three beat a, first in the graph's order alone
    assert _fused_sessions(graph, text, found) == ["d", "b", "c", "a"]
    assert _fused_sessions(graph, [], found) == ["a", "b", "c", "d"]


@given(
    st.lists(st.integers(0, 4), min_size=0, max_size=12),
    st.lists(st.integers(0, 4), min_size=0, max_size=3, unique=True),
)
def test_reserving_keeps_every_hit_and_puts_each_favoured_session_in_the_first_places(
    sessions: list[int], favoured: list[int]
) -> None:
    from zerolang.experience.recall import FIRST, _reserve

    found = {
        f"e{i}": Experience(f"e{i}", Layer.INPUT, "Ana", "x", None, f"s{s}", f"t{i}", i, 0)
        for i, s in enumerate(sessions)
    }
    ranked = [(f"e{i}", float(len(sessions) - i)) for i in range(len(sessions))]
    wanted = [f"s{s}" for s in favoured]
    out, moved = _reserve(ranked, found, wanted, FIRST)
    assert sorted(ident for ident, _ in out) == sorted(found)  # nothing lost, nothing doubled
    assert [score for _, score in out] == sorted((score for _, score in out), reverse=True)
    assert [i for i, _ in out if i not in moved] == [i for i, _ in ranked if i not in moved]
    shown = {found[ident].session for ident, _ in out[:FIRST]}
    present = [s for s in wanted if s in set(f"s{x}" for x in sessions)]
    if len(out) >= FIRST:
        assert set(present[:FIRST]) <= shown
    assert all(found[ident].session in wanted for ident in moved)
