"""benches/loo.py and memo_store.py: leave-one-conversation-out choice, and a store read once."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benches"))

import loo  # noqa: E402
from memo_store import MemoStore  # noqa: E402

from zerolang.experience.capture import TurnRecorder  # noqa: E402
from zerolang.experience.recall import RecallWeights, recall  # noqa: E402
from zerolang.storage.sqlite.experience import SqliteExperienceStore  # noqa: E402


def test_the_grid_starts_with_the_defaults_and_varies_only_its_weights() -> None:
    points = loo.grid({"speaker": (0.5, 2.0), "expand": (10, 20)})
    assert points[0] == RecallWeights()
    assert len(points) == len(set(points)) == 4  # the defaults are one of the four combinations
    assert {p.speaker for p in points} >= {0.5, 2.0}
    assert all(isinstance(p.expand, int) for p in points)


def test_each_conversation_gets_the_point_best_on_the_others() -> None:
    scores = [
        {"a": [0.5, 0.5], "b": [0.5], "c": [0.5]},
        {"a": [1.0, 1.0], "b": [0.0], "c": [0.0]},  # best only where a is counted
        {"a": [0.0, 0.0], "b": [0.9], "c": [0.9]},  # best without a
    ]
    assert loo.leave_one_out(scores) == {"a": 2, "b": 1, "c": 1}  # without b: 2/3 against 1/2
    assert loo.best_point(scores, None) == 0  # ties go to the earlier point: (1+1+0+0)/4 = 0.5


def test_one_conversation_alone_keeps_the_defaults() -> None:
    assert loo.leave_one_out([{"a": [0.1]}, {"a": [0.9]}]) == {"a": 0}
    assert loo.shipped([{"a": [0.1]}, {"a": [0.9]}]) == 0


@given(st.lists(st.lists(st.floats(0, 1), min_size=1, max_size=3), min_size=2, max_size=4), st.integers(1, 4))
def test_a_held_out_conversation_never_moves_its_own_choice(rows: list[list[float]], points: int) -> None:
    names = [f"c{i}" for i in range(len(rows))]
    scores = [
        {n: [v * (p + 1) % 1 for v in r] for n, r in zip(names, rows, strict=True)} for p in range(points)
    ]
    chosen = loo.leave_one_out(scores)
    for name in names:
        changed = [dict(s) | {name: [1.0 - v for v in s[name]]} for s in scores]
        assert loo.leave_one_out(changed)[name] == chosen[name]


def test_the_memo_store_answers_as_the_store() -> None:
    store = SqliteExperienceStore(":memory:")
    recorder = TurnRecorder(store, session="s", user="Ana", agent="Ben")
    for text in ("pottery class on Monday", "a blue bowl with waves", "the kiln cracked it", "glaze next"):
        recorder.record(user_said=text, agent_said=f"tell me about the {text.split()[1]}")
    memo = MemoStore(store)
    for question in ("pottery bowl", "kiln glaze", "what did Ana make?"):
        for _ in range(2):  # cold, then warm
            want = [(h.experience.id, h.score, h.reasons) for h in recall(store, question)]
            assert [(h.experience.id, h.score, h.reasons) for h in recall(memo, question)] == want  # type: ignore[arg-type]
