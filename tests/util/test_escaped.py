"""`escaped`, the one way user data is shown to a human: visible escapes, exact round trip."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from zerolang.util.escapes import escaped, escaped_lines, unescaped

HOSTILE = st.text(
    alphabet=st.one_of(
        st.characters(codec=None),
        st.sampled_from(
            ["\\", "x", "u", "U", "1", "b", "n", "t", "r", "[", "]", "/", "\x1b", "\u202e", "\x9b"]
        ),
    )
)


def _no_controls(shown: str) -> bool:
    return all(
        unicodedata.category(c) not in ("Cc", "Cs")
        and c not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
        for c in shown
    )


@given(HOSTILE)
def test_escaped_round_trips_and_holds_no_control_character(text: str) -> None:
    shown = escaped(text)
    assert unescaped(shown) == text
    assert shown.isprintable()
    assert _no_controls(shown)


@given(HOSTILE)
def test_escaped_lines_keeps_only_the_layout_line_breaks(text: str) -> None:
    shown = escaped_lines(text)
    assert shown.count("\n") == text.count("\n")
    assert all(line.isprintable() for line in shown.split("\n"))


def test_escaped_shows_controls_bidi_and_markup_as_data() -> None:
    assert escaped("see [x] and [/]") == "see [x] and [/]"
    assert escaped("\x1b]0;PWNED\x07\x1b[2J") == "\\x1b]0;PWNED\\x07\\x1b[2J"
    assert escaped("a\u202eb\u2066c\u2069") == "a\\u202eb\\u2066c\\u2069"
    assert escaped("del\x7f c1\x9b nl\n tab\t") == "del\\x7f c1\\x9b nl\\n tab\\t"
    assert escaped("\ud800") == "\\ud800"


def test_a_backslash_is_doubled_only_where_it_would_read_as_an_escape() -> None:
    assert escaped("C:\\dir\\file") == "C:\\dir\\file"
    assert escaped("\\x1b") == "\\\\x1b"
    assert escaped("\\\x1b") == "\\\\\\x1b"
    assert escaped("\\n") == "\\\\n"
    assert unescaped("C:\\dir") == "C:\\dir"
