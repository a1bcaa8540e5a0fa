"""Every value placed in a page is text: a property over any string."""

from __future__ import annotations

from html import unescape

from hypothesis import given
from hypothesis import strategies as st

from zerolang.explore.markup import html, lines, text
from zerolang.util.escapes import escaped


@given(st.text())
def test_any_value_is_shown_as_its_text_and_never_as_markup(value: str) -> None:
    shown = text(value)
    assert not set("<>\"'") & set(shown)
    assert all(character.isprintable() for character in shown)
    assert unescape(shown) == escaped(value, exact=False)
    assert html("<td title='{}'>{}</td>", value, value) == f"<td title='{shown}'>{shown}</td>"


@given(st.text())
def test_lines_keep_only_the_line_breaks(value: str) -> None:
    shown = lines(value)
    assert shown.count("\n") == value.count("\n")
    assert not set("<>\"'") & set(shown)
