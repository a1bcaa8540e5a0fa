"""benches/bench_locomo.py: its JSON has the issue's shape and sane numbers.

Runs on a tiny conversation of our own in LoCoMo's format; the real data set
(CC BY-NC, never in the repository) is for the benchmark itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TINY = ROOT / "tests" / "fixtures" / "locomo_tiny.json"
KEYS = {"recall@1", "recall@5", "recall@10", "recall@20", "by_category", "budget_tokens", "budget_recall"}
SESSION_KEYS = {"session_recall@5", "session_recall@10"}


def bench(path: Path, *extra: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "benches" / "bench_locomo.py"), str(path), "--json", *extra],
        capture_output=True,
        text=True,
        check=True,
    )
    document = json.loads(result.stdout)
    assert isinstance(document, dict)
    return document


def test_bench_json_shape_on_a_tiny_conversation(tmp_path: Path) -> None:
    import importlib.util

    chart = tmp_path / "chart.png"
    # The chart needs matplotlib (the `bench` extra); the test extra may not have it.
    drawn = importlib.util.find_spec("matplotlib") is not None
    document = bench(TINY, "--budget", "300", *(["--chart", str(chart)] if drawn else []))
    if drawn:
        assert chart.read_bytes().startswith(b"\x89PNG")
    assert document["questions"] == 4  # the adversarial question without evidence is left out
    for side in ("ours", "bm25"):
        scores = document[side]
        assert isinstance(scores, dict)
        assert set(scores) >= KEYS
        values = [scores[f"recall@{k}"] for k in (1, 5, 10, 20)]
        assert all(0 <= v <= 1 for v in values) and values == sorted(values)
        assert set(scores["by_category"]) == {"1", "2", "3", "4"}
        assert set(scores) >= SESSION_KEYS
        assert all(set(figures) >= SESSION_KEYS for figures in scores["by_category"].values())
        assert all(set(figures) >= SESSION_KEYS for figures in scores["by_conversation"].values())
        # a turn of evidence among the first k puts its session there too
        assert scores["session_recall@5"] <= scores["session_recall@10"]
        assert scores["session_recall@10"] >= scores["recall@10"]
        assert 0 < scores["budget_tokens"] <= 300
    ours = document["ours"]
    assert isinstance(ours, dict)
    assert ours["recall@20"] == 1.0  # every turn of a tiny conversation is within reach
    assert ours["by_category"]["3"]["recall@20"] == 1.0  # "D2:1; D2:2" counts as two ids
    # ours' session misses BM25 catches, and the other way round: the session recalls' difference
    base = document["bm25"]
    assert isinstance(base, dict)
    for k in (5, 10):
        misses, catches = ours[f"session_misses_bm25_catches@{k}"], ours[f"bm25_misses_ours_catch@{k}"]
        difference = (ours[f"session_recall@{k}"] - base[f"session_recall@{k}"]) * document["questions"]
        assert round(difference) == catches - misses and min(misses, catches) >= 0
        per = [figures[f"session_misses_bm25_catches@{k}"] for figures in ours["by_conversation"].values()]
        assert sum(per) == misses
    full = document["full_context_tokens"]
    assert isinstance(full, int) and full > 50


def test_bench_reports_a_missing_file(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "benches" / "bench_locomo.py"), str(tmp_path / "none.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0 and "no such file" in result.stderr


def test_bench_loo_scores_each_conversation_with_settings_chosen_on_the_others(tmp_path: Path) -> None:
    conversation = json.loads(TINY.read_text(encoding="utf-8"))[0]
    twin = json.loads(json.dumps(conversation)) | {"sample_id": "tiny-2"}
    path = tmp_path / "two.json"
    path.write_text(json.dumps([conversation, twin]), encoding="utf-8")
    document = bench(path, "--budget", "300", "--loo")
    loo = document["loo"]
    assert isinstance(loo, dict)
    assert set(loo) >= KEYS | {"by_conversation", "chosen", "grid", "defaults_rule"}
    assert set(loo["chosen"]) == set(loo["by_conversation"]) == {"tiny-1", "tiny-2"}
    assert loo["grid_points"] > 1
    assert all(set(chosen) == set(loo["grid"]) for chosen in loo["chosen"].values())
    assert 0 <= loo["recall@10"] <= 1
    assert set(loo) >= SESSION_KEYS and loo["session_recall@5"] <= loo["session_recall@10"]
    assert loo["session_misses_bm25_catches@10"] >= 0 and loo["bm25_misses_ours_catch@10"] >= 0


def test_session_misses_count_the_questions_only_the_baseline_finds_at_session_level() -> None:
    sys.path.insert(0, str(ROOT / "benches"))
    from bench_locomo import Tally, session_misses

    session_of = {"D1:1": 1, "D2:1": 2, "D3:1": 3}
    ours, base = Tally(), Tally()
    # question 1: both find its session; 2: only BM25; 3: only ours; 4: neither
    for mine, theirs, evidence in (
        (["D1:1"], ["D1:1"], ("D1:1",)),
        (["D3:1"], ["D2:1"], ("D2:1",)),
        (["D3:1"], ["D1:1"], ("D3:1",)),
        (["D1:1"], ["D1:1"], ("D2:1",)),
    ):
        ours.add(1, mine, evidence, "c", session_of)
        base.add(1, theirs, evidence, "c", session_of)
    figures = session_misses(ours, base)
    assert figures["session_misses_bm25_catches@5"] == figures["session_misses_bm25_catches@10"] == 1
    assert figures["bm25_misses_ours_catch@5"] == 1
    assert figures["by_conversation"] == {"c": {key: 1 for key in figures if key != "by_conversation"}}


def test_session_recall_counts_a_question_whose_evidence_session_is_among_the_first_turns() -> None:
    sys.path.insert(0, str(ROOT / "benches"))
    from bench_locomo import session_recall

    session_of = {"D1:1": 1, "D1:2": 1, "D2:1": 2, "D3:1": 3, "D3:2": 3}
    ranked = ["D3:1", "D3:2", "D3:1", "D1:1", "D1:2", "D2:1"]
    # the evidence turn itself is not retrieved, but a turn of its session is, at 4
    assert session_recall(ranked, ("D1:2",), session_of) == {
        "session_recall@5": 1.0,
        "session_recall@10": 1.0,
    }
    assert session_recall(ranked, ("D2:1",), session_of) == {
        "session_recall@5": 0.0,
        "session_recall@10": 1.0,
    }
    # one of several pieces of evidence is enough
    assert session_recall(ranked[:2], ("D2:1", "D3:2"), session_of)["session_recall@5"] == 1.0
    assert session_recall([], ("D2:1",), session_of)["session_recall@10"] == 0.0
