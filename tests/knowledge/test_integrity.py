"""Row digests: the one-step format of typed rows is the exact encoding, for every table."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from zerolang.knowledge.integrity import SEALED, exact_digest, row_digest, seal_of

_HASH = st.binary(min_size=0, max_size=40)
_TEXT = st.text(max_size=20)  # any code point, lone surrogates included
_FLOAT = st.floats(allow_nan=False) | st.integers(-3, 3).map(float)
# What a column may hold: its own type (what writers make) and what a driver or a hand edit gives.
_VALUE = {
    "b": _HASH | _HASH.map(bytearray) | _HASH.map(memoryview) | _TEXT,
    "t": _TEXT | st.integers(-5, 5) | _FLOAT,
    "T": _TEXT | st.none() | st.integers(-5, 5),
    "r": _FLOAT | st.integers(-5, 5) | st.booleans(),
    "R": _FLOAT | st.none() | st.integers(-5, 5),
    "i": st.integers(-(2**70), 2**70) | _FLOAT | st.booleans(),
}


@st.composite
def rows(draw: st.DrawFn) -> tuple[str, tuple[object, ...]]:
    table = draw(st.sampled_from(sorted(SEALED)))
    return table, tuple(draw(_VALUE[kind]) for _, kind in SEALED[table])


@given(rows())
def test_the_fast_path_gives_the_exact_digest(case: tuple[str, tuple[object, ...]]) -> None:
    table, row = case
    assert row_digest(table, row) == exact_digest(table, row)
    assert row_digest(table, list(row)) == exact_digest(table, row)


def test_a_number_counts_as_its_column_stores_it() -> None:
    digest = row_digest("episodes", (b"h", b"f", b"c", 1.0, "t"))
    assert row_digest("episodes", (b"h", b"f", b"c", 1, "t")) == digest  # REAL: 1 is 1.0
    assert row_digest("episodes", (bytearray(b"h"), memoryview(b"f"), b"c", 1.0, "t")) == digest
    facts = (b"h", b"s", "p", b"o", 0.5, 2, "a", "b")
    assert row_digest("facts", facts) == row_digest("facts", (*facts[:5], 2.0, *facts[6:]))  # INTEGER
    assert row_digest("facts", facts) != row_digest("facts", (*facts[:5], 3, *facts[6:]))
    assert row_digest("episodes", (b"h", b"f", b"c", 0.5, "t")) != row_digest(
        "episodes", (b"h", b"f", b"c", 0.5, "t2")
    )


def test_the_encoding_never_changes() -> None:
    """Stored seals were summed from these digests: a change here breaks every store's `check`."""
    episode = row_digest("episodes", (b"h", b"f", b"c", 1.0, "t"))
    assert episode == 0xA5B57FF56E71AA77A6063251D3030AD84E51AE042D256B37F85D79F1CF59C0A6
    context = row_digest("contexts", (b"\x00\xff", "2026-01-01", "s\udcff", "c", None, "\u00e9", "{}", "t"))
    assert context == 0xAFB3008B5EE6E21DA912E61C0634A54EF787AB8148C211BD4E7908B1EDF4A85
    assert seal_of("episodes", [(b"h", b"f", b"c", 1.0, "t")]).total == episode


def test_a_row_of_another_width_is_refused() -> None:
    try:
        row_digest("episodes", (b"h",))
    except ValueError as error:
        assert "5 sealed columns, not 1" in str(error)
    else:
        raise AssertionError("a short row was digested")
