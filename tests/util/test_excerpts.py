"""Issue 41.3: an excerpt's caret sits under the character it means, counted in terminal cells
(East Asian wide characters, combining marks, tabs, escaped controls), and a long line is cut
around the error with `…`, so an error in a 5 MB line prints about one terminal line."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from zerolang.util.errors import source_excerpt
from zerolang.util.limits import EXCERPT_WIDTH
from zerolang.util.span import Span

# Everything but the marker `Z`, which stands where the error is.
PIECES = ["a", " ", "\t", "日", "語", "\u0301", "é", "\x1b", "\u202e", "😀", "ｱ", "\\"]
LINES = st.tuples(
    st.lists(st.sampled_from(PIECES), max_size=300), st.lists(st.sampled_from(PIECES), max_size=300)
)


def excerpt(line: str, column: int, end_column: int | None = None) -> tuple[str, str]:
    shown, carets = source_excerpt(line + "\n", Span(1, column, 1, end_column or column + 1, 0, 0))
    return shown.removeprefix("1 | "), carets.removeprefix("  | ")


@given(LINES)
def test_the_caret_sits_under_the_marked_character_in_terminal_cells(
    parts: tuple[list[str], list[str]],
) -> None:
    before, after = "".join(parts[0]), "".join(parts[1])
    shown, carets = excerpt(before + "Z" + after, len(before) + 1)
    assert carets.strip() == "^"
    assert cell_len(shown[: shown.index("Z")]) == len(carets) - 1
    assert cell_len(shown) <= EXCERPT_WIDTH + 2  # the `…` at each end
    assert "\t" not in shown and "\x1b" not in shown and "\u202e" not in shown


def test_a_wide_character_is_underlined_by_two_carets() -> None:
    shown, carets = excerpt('x = "日本語" + bad', 6, 9)
    assert shown == 'x = "日本語" + bad'
    assert carets == "     ^^^^^^"


def test_cjk_before_the_error_moves_the_caret_by_its_width() -> None:
    line = 'label: "日本語のテキスト", oops'
    _, carets = excerpt(line, line.index("oops") + 1, line.index("oops") + 5)
    assert carets.index("^") == cell_len(line[: line.index("oops")])


def test_a_tab_is_shown_as_spaces_and_counted() -> None:
    shown, carets = excerpt("\t\tbad", 3, 6)
    assert shown == " " * 8 + "bad"
    assert carets == " " * 8 + "^^^"


def test_a_long_line_is_cut_around_the_column_with_ellipses() -> None:
    line = "a" * 5_000_000 + "BAD" + "b" * 5_000
    shown, carets = excerpt(line, 5_000_001, 5_000_004)
    assert shown.startswith("…") and shown.endswith("…")
    assert "BAD" in shown and len(shown) <= EXCERPT_WIDTH + 2
    assert shown[carets.index("^") : carets.index("^") + 3] == "BAD" and carets.count("^") == 3


def test_a_line_that_fits_is_not_cut() -> None:
    line = "x" * (EXCERPT_WIDTH - 5) + " bad"
    shown, _ = excerpt(line, len(line) - 2)
    assert shown == line


def test_an_error_just_past_the_end_of_a_long_line() -> None:
    line = "a" * 1_000
    shown, carets = excerpt(line, 1_001)
    assert shown.startswith("…") and not shown.endswith("…")
    assert len(carets) == len(shown) + 1 and carets.endswith("^")
