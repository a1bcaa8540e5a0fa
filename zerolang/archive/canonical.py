"""Canonical bytes of a JSON value: the JSON Canonicalization Scheme (RFC 8785, "JCS").

The archive hashes these bytes, so two writers that agree on a document agree
on its hash, whatever their JSON library, key order or number spelling:

- objects: members sorted by key, compared as UTF-16 code units (RFC 8785 §3.2.3);
  no whitespace anywhere;
- strings: `"` and `\\` escaped, `\\b \\f \\n \\r \\t` by name, other controls below
  U+0020 as `\\u00xx` (lower-case hex), everything else as literal UTF-8; a lone
  surrogate is not Unicode and is refused;
- numbers: IEEE 754 doubles printed as ECMAScript's `Number.prototype.toString`
  (shortest round-trip digits; `1e+21` and up and below `1e-6` in exponent form);
  `-0` prints `0`; NaN and infinities are refused; an integer a double cannot hold
  exactly (e.g. 2**53 + 1) is refused rather than silently rounded (store it as a string);
- `true`, `false`, `null` as themselves; arrays keep their order.

Pure functions, no dependencies; `tests/archive/test_canonical.py` checks the
RFC's own vectors and agrees with the independent `rfc8785` package on random values.
"""

from __future__ import annotations

import json
import math
from typing import Any

from zerolang.util.errors import ZeroError

MAX_EXACT_INTEGER = 2**53 - 1
_NAMED_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


class CanonicalError(ZeroError):
    """A value that has no canonical JSON form (NaN, a huge integer, a lone surrogate, a set...)."""


def canonical_bytes(value: Any) -> bytes:
    """The RFC 8785 canonical UTF-8 bytes of a JSON value (dict, list, str, int, float, bool, None)."""
    parts: list[str] = []
    try:
        _write(value, parts, "$")
    except RecursionError:
        raise CanonicalError("the value is nested too deeply to canonicalise") from None
    try:
        return "".join(parts).encode("utf-8")
    except UnicodeEncodeError:  # pragma: no cover - strings are checked as they are written
        raise CanonicalError("a string holds a lone surrogate: not Unicode, no canonical form") from None


def _write(value: Any, parts: list[str], where: str) -> None:
    if value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, str):
        parts.append(canonical_string(value, where))
    elif isinstance(value, int):
        parts.append(str(value) if abs(value) <= MAX_EXACT_INTEGER else _large_integer(value, where))
    elif isinstance(value, float):
        parts.append(canonical_number(value, where))
    elif isinstance(value, dict):
        keys = list(value)
        for key in keys:
            if not isinstance(key, str):
                raise CanonicalError(f"{where}: object keys must be strings, not {type(key).__name__}")
        parts.append("{")
        for index, key in enumerate(sorted(keys, key=_utf16_order)):
            if index:
                parts.append(",")
            parts.append(canonical_string(key, where))
            parts.append(":")
            _write(value[key], parts, f"{where}.{key}")
        parts.append("}")
    elif isinstance(value, list | tuple):
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            _write(item, parts, f"{where}[{index}]")
        parts.append("]")
    else:
        raise CanonicalError(f"{where}: a {type(value).__name__} is not a JSON value")


def _large_integer(value: int, where: str) -> str:
    """An integer past 2**53 - 1 is fine only if a double holds it exactly (e.g. 2**53 itself)."""
    try:
        exact = float(value) == value
    except OverflowError:
        exact = False
    if not exact:
        raise CanonicalError(
            f"{where}: the integer {value} is not exact as a JSON number (a double); store it as a string"
        )
    return canonical_number(float(value), where)


def _utf16_order(key: str) -> bytes:
    # Big-endian UTF-16 bytes compare exactly as the code units do (RFC 8785 §3.2.3).
    return key.encode("utf-16-be", "surrogatepass")


def canonical_string(text: str, where: str = "$") -> str:
    """A JSON string literal the way RFC 8785 (and ECMAScript's JSON.stringify) writes it."""
    out = ['"']
    for character in text:
        code = ord(character)
        if character in _NAMED_ESCAPES:
            out.append(_NAMED_ESCAPES[character])
        elif code < 0x20:
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            raise CanonicalError(f"{where}: a string holds a lone surrogate U+{code:04X}: not Unicode")
        else:
            out.append(character)
    out.append('"')
    return "".join(out)


def canonical_number(number: float, where: str = "$") -> str:
    """ECMAScript's Number.prototype.toString of a double (RFC 8785 §3.2.2.3)."""
    if math.isnan(number) or math.isinf(number):
        raise CanonicalError(f"{where}: {number} has no JSON form")
    if number == 0:
        return "0"  # -0 too
    sign = "-" if number < 0 else ""
    digits, point = _shortest_digits(abs(number))
    k, n = len(digits), point
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        body = "0." + "0" * -n + digits
    else:
        exponent = n - 1
        mantissa = digits if k == 1 else f"{digits[0]}.{digits[1:]}"
        body = f"{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
    return sign + body


def _shortest_digits(number: float) -> tuple[str, int]:
    """(s, n) with s the shortest round-trip digits (no leading/trailing zeros) and value 0.s × 10**n."""
    text = repr(number)  # Python's repr is the shortest string that reads back as the same double
    mantissa, _, exponent_text = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent_text) if exponent_text else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    return stripped.rstrip("0"), point


def loads_strict(text: str | bytes, what: str = "JSON") -> Any:
    """Parse JSON refusing duplicate keys and NaN/Infinity: values that would canonicalise ambiguously."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise CanonicalError(f"{what}: the key {key!r} appears twice in one object")
            result[key] = value
        return result

    def no_constant(name: str) -> Any:
        raise CanonicalError(f"{what}: {name} is not JSON")

    def integer(digits: str) -> int | float:
        value = int(digits)
        if abs(value) <= MAX_EXACT_INTEGER:
            return value
        # Past 2**53 a JSON integer is a double (I-JSON): accept only the double's canonical
        # spelling, so reading canonical bytes back is exact and nothing is silently rounded.
        number = float(value)
        if canonical_number(number) != digits:
            raise CanonicalError(f"{what}: the integer {digits} is not exact as a JSON number; use a string")
        return number

    try:
        return json.loads(
            text, object_pairs_hook=no_duplicates, parse_constant=no_constant, parse_int=integer
        )
    except json.JSONDecodeError as error:
        raise CanonicalError(f"{what}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    except UnicodeDecodeError as error:
        raise CanonicalError(f"{what}: not UTF-8 ({error.reason})") from None
    except RecursionError:
        raise CanonicalError(f"{what}: nested too deeply") from None
