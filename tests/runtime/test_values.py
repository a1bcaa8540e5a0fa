"""The runtime value model: variants, truthiness, equality, JSON."""

from __future__ import annotations

import hashlib
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolang.runtime.values import (
    Confidence,
    Hash,
    as_number,
    canonical_json,
    from_json,
    from_literal,
    is_truthy,
    to_json,
    type_name,
    values_equal,
)
from zerolang.syntax.parser import parse
from zerolang.util.errors import ZeroError

DIGEST = hashlib.sha256(b"x").digest()


def literal(text: str) -> object:
    """The runtime value of a `.0` literal, read through a Constant node."""
    node = f'{{ id: "c", type: Constant, value: {text} }}'
    graph = parse(f'Graph {{ name: "t", nodes: [ {node} ], outputs: [] }}')
    value = graph.nodes[0].get("value")
    assert value is not None
    return from_literal(value)


# -- Hash and Confidence ------------------------------------------------------------------


def test_hash_is_exactly_32_bytes() -> None:
    digest = Hash(DIGEST)
    assert bytes(digest) == DIGEST
    assert digest.hex() == DIGEST.hex()
    assert repr(digest) == f"Hash({DIGEST.hex()!r})"
    with pytest.raises(ValueError, match="32 bytes"):
        Hash(b"short")


@pytest.mark.parametrize(
    ("given_value", "stored"), [(0.5, 0.5), (-1, 0.0), (3, 1.0), (1.0, 1.0), (math.nan, 0.0), (math.inf, 1.0)]
)
def test_confidence_is_clamped(given_value: float, stored: float) -> None:
    confidence = Confidence(given_value)
    assert type(confidence) is Confidence
    assert float(confidence) == stored


# -- literals and JSON --------------------------------------------------------------------


def test_from_literal_converts_every_kind() -> None:
    assert literal('"hi"') == "hi"
    assert literal("Operation") == "Operation"  # a bare identifier is a string
    assert type(literal("3")) is int
    assert type(literal("3.0")) is float
    assert literal("true") is True
    assert literal("null") is None
    assert literal('[1, "a", [null]]') == [1, "a", [None]]
    assert literal('{ a: 1, "b": { c: [] }, a: 2 }') == {"a": 2, "b": {"c": []}}  # later keys win


def test_struct_literal_becomes_its_fields() -> None:
    assert literal("HaltingProof { max_steps: 3, fuel_budget: 100 }") == {"max_steps": 3, "fuel_budget": 100}


def test_from_json_keeps_types_and_widens_huge_ints() -> None:
    assert from_json({"a": [1, 2.5, None, True, "s"]}) == {"a": [1, 2.5, None, True, "s"]}
    assert type(from_json(2**63 - 1)) is int
    assert from_json(2**64) == float(2**64)
    assert from_json((1, 2)) == [1, 2]
    with pytest.raises(ZeroError):
        from_json(10**400)
    with pytest.raises(ZeroError):
        from_json({1, 2})


def test_to_json_hex_and_nonfinite() -> None:
    value = {
        "hash": Hash(DIGEST),
        "bytes": b"\x00\xff",
        "conf": Confidence(0.25),
        "nan": math.nan,
        "inf": [math.inf, -math.inf],
        "nested": [{"n": 1}],
    }
    assert to_json(value) == {
        "hash": DIGEST.hex(),
        "bytes": "00ff",
        "conf": 0.25,
        "nan": None,
        "inf": [None, None],
        "nested": [{"n": 1}],
    }
    assert type(to_json(Confidence(0.25))) is float
    with pytest.raises(TypeError):
        to_json(object())


def test_canonical_json_sorts_keys_and_has_no_spaces() -> None:
    assert canonical_json({"b": 1, "a": [1.5, "é", None, True]}) == '{"a":[1.5,"é",null,true],"b":1}'.encode()
    assert canonical_json('a"b\n') == b'"a\\"b\\n"'
    assert canonical_json(7) == b"7"
    assert canonical_json(1.0) == b"1.0"
    assert canonical_json(math.nan) == b"null"
    assert canonical_json(False) == b"false"
    assert canonical_json(None) == b"null"
    assert canonical_json(Confidence(0.5)) == b"0.5"
    assert canonical_json(b"\x01") == b'"01"'


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.binary()
    | st.binary(min_size=32, max_size=32).map(Hash)
    | st.floats(min_value=0, max_value=1).map(Confidence)
)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)


@given(values)
def test_canonical_json_is_stable_and_matches_the_encoder(value: object) -> None:
    first = canonical_json(value)
    assert canonical_json(value) == first
    expected = json.dumps(to_json(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert first == expected.encode("utf-8", "surrogatepass")


@given(st.dictionaries(st.text(max_size=4), st.integers(), max_size=6))
def test_canonical_json_ignores_insertion_order(mapping: dict[str, int]) -> None:
    reordered = dict(reversed(list(mapping.items())))
    assert canonical_json(mapping) == canonical_json(reordered)


# -- truthiness, numbers, equality --------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "truthy"),
    [
        (None, False),
        (True, True),
        (False, False),
        (0, False),
        (-3, True),
        (0.0, False),
        (0.1, True),
        (math.nan, True),
        ("", False),
        ("x", True),
        (b"", False),
        (b"\x00", True),
        ([], False),
        ([None], True),
        ({}, False),
        ({"a": None}, True),
        (Hash(bytes(32)), True),  # a Hash is always truthy, even all zeros
        (Confidence(0.0), False),
        (Confidence(0.01), True),
    ],
)
def test_truthiness_table(value: object, truthy: bool) -> None:
    assert is_truthy(value) is truthy


def test_as_number_excludes_bool() -> None:
    assert as_number(3) == 3.0
    assert type(as_number(3)) is float
    assert as_number(2.5) == 2.5
    assert as_number(Confidence(0.5)) == 0.5
    for not_a_number in (True, False, None, "3", b"3", [3], {"a": 3}, Hash(bytes(32))):
        assert as_number(not_a_number) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (1, 1.0),
        (True, 1),
        (False, 0),
        (Confidence(0.5), 0.5),
        (Hash(DIGEST), DIGEST),
        ([1], [1.0]),
        ({"a": 1}, {"a": True}),
        ([1, 2], [1]),
        ({"a": 1}, {"b": 1}),
        (math.nan, math.nan),
        (None, False),
        ("1", 1),
    ],
)
def test_equality_is_variant_strict(a: object, b: object) -> None:
    assert not values_equal(a, b)
    assert not values_equal(b, a)


def test_equality_is_structural() -> None:
    assert values_equal({"a": [1, {"b": "c"}]}, {"a": [1, {"b": "c"}]})
    assert values_equal(Confidence(0.5), Confidence(0.5))
    assert values_equal(Hash(DIGEST), Hash(DIGEST))
    assert values_equal(-0.0, 0.0)
    nan = math.nan
    assert not values_equal([nan], [nan])  # Python's == would say equal by identity


def _has_nan(value: object) -> bool:
    if type(value) is float:
        return math.isnan(value)
    if type(value) is list:
        return any(_has_nan(item) for item in value)
    if type(value) is dict:
        return any(_has_nan(item) for item in value.values())
    return False


@given(values)
def test_equality_is_reflexive_without_nan(value: object) -> None:
    assert values_equal(value, value) is not _has_nan(value)


def test_type_names() -> None:
    cases: list[tuple[object, str]] = [
        (None, "Null"),
        (True, "Bool"),  # not "Int", though bool is an int subclass
        (1, "Int"),
        (1.5, "Float"),
        ("s", "String"),
        (b"b", "Bytes"),
        ([], "Array"),
        ({}, "Map"),
        (Hash(DIGEST), "Hash"),
        (Confidence(0.3), "Confidence"),
    ]
    for value, name in cases:
        assert type_name(value) == name
    with pytest.raises(TypeError):
        type_name(object())
