"""The plain-words question sets (benches/questions: `plain_words`, written beside the code, and
`held_out`, written apart from it) through `zero recall` and its `--json`, in a 400-token context: the answer is held for at least 90% of the questions, a
superseded value never comes before the current one, and a time in the question answers as of
then (the value that held then comes before the ones that came later)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import zerolang.memory
from zerolang.cli.app import app
from zerolang.util.tokens import count_tokens

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benches"))

# The question set's memory and what counts as an answer held: the bench's own (one home for both).
from bench_ask import QUESTIONS as FOLDER  # noqa: E402
from bench_ask import SETS, build, held, in_order  # noqa: E402

BUDGET = 400
AT_LEAST = 0.9
Stores = tuple[str, str, dict[str, Any]]


@pytest.fixture(scope="module", params=SETS)
def stores(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Stores:
    questions: dict[str, Any] = json.loads((FOLDER / f"{request.param}.json").read_text(encoding="utf-8"))
    folder = tmp_path_factory.mktemp(request.param)
    facts, turns = str(folder / "memory.db"), str(folder / "memory.experiences.db")
    with zerolang.memory.open(facts, experiences=turns, archive=folder / "archive") as memory:
        build(memory, questions)
    return facts, turns, questions


def recall(stores: Stores, question: str, *extra: str) -> str:
    facts, turns, questions = stores
    arguments = [
        "recall",
        question,
        "--budget",
        str(BUDGET),
        "--db",
        facts,
        "--experiences",
        turns,
        "--now",
        questions["now"],
        *extra,
    ]
    result = CliRunner().invoke(app, arguments, env={"ZERO_MEMORY_SPACE": ""})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("form", ["text", "json"])
def test_the_answer_is_held_in_400_tokens(stores: Stores, form: str) -> None:
    missed = []
    for question in stores[2]["questions"]:
        if form == "json":
            printed = recall(stores, question["q"], "--json")
            document = json.loads(printed)
            assert count_tokens(printed.rstrip("\n")) <= BUDGET
            context = "\n".join(line["text"] for line in document["lines"])
        else:
            context = recall(stores, question["q"])
            assert count_tokens(context) <= BUDGET
        if not held(context, question):
            missed.append(question["q"])
    assert len(missed) <= (1 - AT_LEAST) * len(stores[2]["questions"]), missed


def test_superseded_values_never_come_before_current_ones(stores: Stores) -> None:
    asked = [q for q in stores[2]["questions"] if q.get("superseded")]
    assert len(asked) >= 10
    wrong = [q["q"] for q in asked if held(context := recall(stores, q["q"]), q) and not in_order(context, q)]
    assert wrong == []


def test_a_year_in_the_question_answers_as_of_then(stores: Stores) -> None:
    dated = [q for q in stores[2]["questions"] if any(ch.isdigit() for ch in q["q"])]
    assert len(dated) >= 5
    for question in dated:
        context = recall(stores, question["q"])
        assert held(context, question) and in_order(context, question), (question["q"], context)


def test_no_hash_ids_in_a_context_without_ids(stores: Stores) -> None:
    import re

    for question in stores[2]["questions"][:10]:
        words = recall(stores, question["q"]).split()
        hexes = [word for word in words if re.fullmatch(r"\[?[0-9a-f]{8,}\]?", word)]
        assert len(hexes) < 0.05 * len(words)
