"""RFC 8785 canonical JSON: the RFC's own vectors, refusals, and agreement with an independent implementation."""

from __future__ import annotations

import json
import math
import struct

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolang.archive.canonical import CanonicalError, canonical_bytes, canonical_number, loads_strict

# RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text.
APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("bits", "expected"), APPENDIX_B)
def test_appendix_b_numbers(bits: str, expected: str) -> None:
    (number,) = struct.unpack(">d", bytes.fromhex(bits))
    assert canonical_number(number) == expected


def test_section_3_2_2_example() -> None:
    source = (
        '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],'
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",'
        ' "literals": [null, true, false]}'
    )
    expected = (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
    assert canonical_bytes(loads_strict(source)) == expected.encode("utf-8")


def test_section_3_2_3_key_order_is_utf16() -> None:
    value = {
        "€": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "😀": "Emoji: Grinning Face",
        "\u0080": "Control",
        "ö": "Latin Small Letter O With Diaeresis",
    }
    keys = list(json.loads(canonical_bytes(value)))
    assert keys == ["\r", "1", "\u0080", "ö", "€", "😀", "\ufb33"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.nan, "no JSON form"),
        (math.inf, "no JSON form"),
        (2**53 + 1, "not exact"),
        (-(2**60) - 1, "not exact"),
        (10**400, "not exact"),
        ("\ud800", "lone surrogate"),
        ({1: "x"}, "keys must be strings"),
        ({"a": {1, 2}}, "not a JSON value"),
    ],
)
def test_values_without_a_canonical_form_are_refused(value: object, message: str) -> None:
    with pytest.raises(CanonicalError, match=message):
        canonical_bytes(value)


def test_large_integers_that_doubles_hold_are_numbers() -> None:
    assert canonical_bytes([2**53, -(2**60), 10**21]) == b"[9007199254740992,-1152921504606847000,1e+21]"


def test_strict_parse_refuses_duplicate_keys_and_nan() -> None:
    with pytest.raises(CanonicalError, match="appears twice"):
        loads_strict('{"a": 1, "a": 2}')
    with pytest.raises(CanonicalError, match="NaN is not JSON"):
        loads_strict("[NaN]")
    with pytest.raises(CanonicalError, match=r"doc:1:2: not JSON"):
        loads_strict("{,}", "doc")


def test_strict_parse_refuses_integers_a_double_would_round() -> None:
    assert loads_strict("[62764790538600970, -9007199254740992]") == [62764790538600970.0, -(2.0**53)]
    with pytest.raises(CanonicalError, match="12345678901234567891 is not exact"):
        loads_strict('{"id": 12345678901234567891}')


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    value: object = []
    for _ in range(100_000):
        value = [value]
    with pytest.raises(CanonicalError, match="nested too deeply"):
        canonical_bytes(value)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(exclude_categories=("Cs",))),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=6), children, max_size=4
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_agrees_with_the_rfc8785_package(value: object) -> None:
    assert canonical_bytes(value) == rfc8785.dumps(value)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_canonical_bytes_are_a_fixed_point(value: object) -> None:
    once = canonical_bytes(value)
    assert canonical_bytes(loads_strict(once)) == once


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_numbers_read_back_exactly(number: float) -> None:
    assert float(canonical_number(number)) == number
