"""Recalled context (`zerolang.agents.context`): memory is asked once, and what is given fits the budget
counted whole, the header's join included."""

from __future__ import annotations

from typing import Any

import pytest

from zerolang.agents.context import HEADER, recalled_context, within
from zerolang.memory import asking
from zerolang.util import tokens
from zerolang.util.tokens import count_tokens

LINES = [
    "facts:",
    "carol works at acme",
    "conversations:",
    "2024-05-01 user: the billing token expired again",
]


def test_within_keeps_every_line_that_fits() -> None:
    text = within(HEADER, list(LINES), 1000)
    assert text == HEADER + "\n".join(LINES) + "\n"


def test_within_leaves_out_the_last_lines_and_a_heading_left_alone() -> None:
    facts_only = HEADER + "facts:\ncarol works at acme\n"
    budget = count_tokens(facts_only)
    assert within(HEADER, list(LINES), budget) == facts_only  # no "conversations:" under it
    assert within(HEADER, list(LINES), budget - 1) == ""
    assert within(HEADER, [], 1000) == ""


def test_memory_is_asked_once_when_the_join_tokenizes_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """The header and the answer counted whole cost more than apart (here: made to): the answer's last
    lines give way; memory is not asked again with less room."""
    asked: list[int | None] = []

    def answer(question: str, **options: Any) -> asking.Answer:
        asked.append(options["budget"])
        found = asking.Answer(question, [], None, options["budget"])
        found.text = "\n".join(LINES) + "\n"
        return found

    real = tokens.count_tokens

    def joined_costs_more(text: str) -> int:
        return real(text) + (8 if text.startswith(HEADER) and text != HEADER else 0)

    monkeypatch.setattr(asking, "answer", answer)
    monkeypatch.setattr(tokens, "count_tokens", joined_costs_more)
    whole = real(HEADER + "\n".join(LINES) + "\n")
    text = recalled_context(None, "billing token", budget=whole + 2)  # type: ignore[arg-type]
    assert asked == [whole + 2 - real(HEADER)]
    assert text == HEADER + "\n".join(LINES[:2]) + "\n"
    assert joined_costs_more(text) <= whole + 2


def test_nothing_recalled_gives_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def answer(question: str, **options: Any) -> asking.Answer:
        return asking.Answer(question, [], None, options["budget"])

    monkeypatch.setattr(asking, "answer", answer)
    assert recalled_context(None, "billing", budget=500) == ""  # type: ignore[arg-type]
    assert recalled_context(None, "billing", budget=count_tokens(HEADER)) == ""  # type: ignore[arg-type]
