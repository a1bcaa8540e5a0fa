"""zerolang.util.folding: words compared without case and diacritics, and a plain word's accented spellings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from zerolang.util.folding import accented, fold


def test_fold_drops_case_and_diacritics() -> None:
    assert fold("María José FERNÁNDEZ") == "maria jose fernandez"
    assert fold("Zoë Okafor, Montréal") == "zoe okafor, montreal"
    # letters that do not decompose are spelled plain
    assert [fold(word) for word in ("Søren", "Łódź", "Straße", "Æsir", "Œuvre", "Þór")] == [
        "soren",
        "lodz",
        "strasse",
        "aesir",
        "oeuvre",
        "thor",
    ]
    assert fold("plain ascii 42") == "plain ascii 42"


def test_a_plain_word_has_its_spellings_with_one_letter_accented() -> None:
    assert "søren" in accented("soren") and "sören" in accented("soren")
    assert "maría" in accented("maria") and "mària" in accented("maria")
    assert "straße" in accented("strasse") and "łukasz" in accented("lukasz")
    assert all(fold(spelling) == "fernandez" for spelling in accented("fernandez"))
    assert accented("søren") == [] and accented("Soren") == []  # only a folded word has spellings
    assert accented("2024") == []


@given(st.text(max_size=40))
def test_folding_is_idempotent_and_every_spelling_folds_back(text: str) -> None:
    folded = fold(text)
    assert fold(folded) == folded
    assert all(fold(spelling) == folded for spelling in accented(folded))
