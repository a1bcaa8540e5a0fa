"""Runtime values: plain Python objects, plus `Hash` and `Confidence`.

The runtime's ten variants map onto Python types so the interpreter's hot loop
does no boxing:

    Null -> None        Bool -> bool      Int -> int        Float -> float
    String -> str       Bytes -> bytes    Array -> list     Map -> dict[str, ...]
    Hash -> Hash (a 32-byte `bytes`)      Confidence -> Confidence (a `float` in [0, 1])

Because `bool` is an `int`, `Hash` a `bytes` and `Confidence` a `float`,
everything here dispatches on `type(x) is ...`, never on `isinstance` alone.
"""

from __future__ import annotations

import json
import math
from typing import TypeAlias

from zerolang.syntax import ast
from zerolang.util.errors import ZeroError

# Any runtime value (see the module docstring). `object` rather than a recursive
# union: every consumer checks the variant it needs anyway, and lists stay invariant-free.
Value: TypeAlias = object

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class Hash(bytes):
    """A SHA-256 digest: exactly 32 bytes, a variant distinct from plain `Bytes`."""

    __slots__ = ()

    def __new__(cls, digest: bytes) -> Hash:
        if len(digest) != 32:
            raise ValueError(f"a Hash is 32 bytes, not {len(digest)}")
        return super().__new__(cls, digest)

    def __repr__(self) -> str:
        return f"Hash({self.hex()!r})"


class Confidence(float):
    """A confidence in [0, 1]; values outside are clamped, NaN becomes 0."""

    __slots__ = ()

    def __new__(cls, value: float = 0.0) -> Confidence:
        number = float(value)
        if not number >= 0.0:  # also catches NaN
            number = 0.0
        elif number > 1.0:
            number = 1.0
        return super().__new__(cls, number)

    def __repr__(self) -> str:
        return f"Confidence({float(self)!r})"


_SCALAR_LITERALS = (ast.String, ast.Int, ast.Float, ast.Bool)


def from_literal(value: ast.Value) -> Value:
    """The runtime value of a `.0` literal; a struct literal becomes a map of its fields."""
    if isinstance(value, _SCALAR_LITERALS):
        return value.value
    if isinstance(value, ast.Null):
        return None
    if isinstance(value, ast.Array):
        return [from_literal(item) for item in value.items]
    # Map, Struct (its name is dropped) and Node: later duplicate keys win, as in `Map.get`.
    return {entry.key: from_literal(entry.value) for entry in value.entries}


def from_json(obj: object) -> Value:
    """A runtime value from parsed JSON (run inputs); ints beyond 64 bits become floats."""
    if obj is None or type(obj) is bool or type(obj) is str:
        return obj
    if type(obj) is int:
        if INT64_MIN <= obj <= INT64_MAX:
            return obj
        try:
            return float(obj)
        except OverflowError:
            raise ZeroError(f"integer {obj} is too large for a number") from None
    if type(obj) is float:
        return obj
    if isinstance(obj, (list, tuple)):
        return [from_json(item) for item in obj]
    if isinstance(obj, dict):
        return {str(key): from_json(item) for key, item in obj.items()}
    raise ZeroError(f"a {type(obj).__name__} is not a JSON value")


def to_json(value: Value) -> object:
    """Plain JSON data: Hash and Bytes as lowercase hex, non-finite floats as null (as serde_json)."""
    if value is None or type(value) is str or type(value) is int or type(value) is bool:
        return value
    if type(value) is float:
        return value if math.isfinite(value) else None
    if type(value) is Confidence:
        return float(value)
    if type(value) is bytes or type(value) is Hash:
        return value.hex()
    if type(value) is dict:
        return {key if type(key) is str else str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    raise TypeError(f"not a zerolang value: {type(value).__name__}")


_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
_encode_string = json.encoder.encode_basestring  # the C string escaper the encoder itself uses


def canonical_json(value: Value) -> bytes:
    """Sorted keys, no spaces, UTF-8: the same bytes on every run and machine.

    Scalars take a fast path (the interpreter hashes every node's value) that
    produces exactly what the encoder would. Every reader refuses lone surrogates
    (zerolang.util.escapes), so a run never holds one; `surrogatepass` only keeps this
    function total for values built by hand.
    """
    if type(value) is int:
        return int.__repr__(value).encode()
    if type(value) is str:
        return _encode_string(value).encode("utf-8", "surrogatepass")
    if value is None:
        return b"null"
    if type(value) is float:
        return float.__repr__(value).encode() if math.isfinite(value) else b"null"
    if type(value) is bool:
        return b"true" if value else b"false"
    return _ENCODER.encode(to_json(value)).encode("utf-8", "surrogatepass")


def is_truthy(value: Value) -> bool:
    """Spec §4: empty and zero are false, a Hash is always true, a Confidence when > 0."""
    if value is None:
        return False
    if type(value) is bool:
        return value
    if type(value) is int or type(value) is float:
        return value != 0  # NaN is truthy, as `f != 0.0` in Rust
    if type(value) is str or type(value) is list or type(value) is dict or type(value) is bytes:
        return len(value) > 0
    if type(value) is Hash:
        return True
    if type(value) is Confidence:
        return value > 0
    return bool(value)


def as_number(value: Value) -> float | None:
    """Int, Float and Confidence as a float; anything else (Bool included) is not a number."""
    if type(value) is int or type(value) is float or type(value) is Confidence:
        return float(value)
    return None


def values_equal(a: Value, b: Value) -> bool:
    """Structural equality that is variant-strict, like Rust's derived `PartialEq`.

    `1 != 1.0`, `True != 1`, `Confidence(0.5) != 0.5`, `Hash(x) != bytes(x)`,
    and NaN is unequal to itself even inside a list (where Python's `==`
    would say equal by identity).
    """
    if type(a) is not type(b):
        return False
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is dict and type(b) is dict:
        return a.keys() == b.keys() and all(values_equal(item, b[key]) for key, item in a.items())
    return bool(a == b)


_TYPE_NAMES: dict[type, str] = {
    type(None): "Null",
    bool: "Bool",
    int: "Int",
    float: "Float",
    str: "String",
    bytes: "Bytes",
    list: "Array",
    dict: "Map",
    Hash: "Hash",
    Confidence: "Confidence",
}


def type_name(value: Value) -> str:
    """The runtime variant's name, as error messages and the CLI's table show it."""
    name = _TYPE_NAMES.get(type(value))
    if name is None:
        raise TypeError(f"not a zerolang value: {type(value).__name__}")
    return name
