"""Did you mean: the index answers exactly as the plain rule does, without comparing every candidate."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from zerolang.util.suggest import Suggester, suggest

NAMES = st.text(alphabet="abcAB_1é", max_size=9)


@settings(max_examples=300)
@given(st.lists(NAMES, max_size=40), st.lists(NAMES, min_size=1, max_size=10))
def test_the_index_gives_the_same_answer_as_the_plain_rule(candidates: list[str], asked: list[str]) -> None:
    meant = Suggester(candidates)
    for name in asked:
        assert meant(name) == suggest(name, candidates)


def test_aliases_first_then_case_then_close_names() -> None:
    meant = Suggester(["Add", "Concat", "Equals"], {"Plus": "Add"})
    assert meant("Plus") == "Add"
    assert meant("concat") == "Concat"
    assert meant("Equal") == "Equals"
    assert meant("Zzz") is None


def test_thousands_of_ids_still_get_the_meant_one() -> None:
    ids = [f"step_{index}" for index in range(20_000)] + ["message"]
    meant = Suggester(ids)
    assert meant("mesage") == "message" == difflib.get_close_matches("mesage", ids, n=1, cutoff=0.75)[0]
    assert meant("missing17") is None
    assert meant("step_1234x") in ids
