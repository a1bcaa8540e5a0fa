"""Where `LoadState` and `SaveState` keep values: in memory per run, or in SQLite.

The protocol the builtins need is `zerolang.runtime.ports.StateStore`; the
persistent store is opened by the storage registry (`zerolang.storage.open_state`;
all SQL lives in the storage layer).

The old runtime's `LoadState` was a stub that always returned the same map;
ours stores real values. The SQLite store persists across runs (`zero run
--state FILE`) and keeps every variant exact, so a `Hash` saved in one run is
a `Hash` again (not a hex string) when loaded in the next.
"""

from __future__ import annotations

from typing import Final

from zerolang.runtime.values import Confidence, Hash, Value


class _Missing:
    """The type of `MISSING`: nothing is stored (distinct from a stored null)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()


class MemoryStateStore:
    """The default store: a dict that lives as long as the run (or the caller keeps it)."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[str, Value] = {}

    def load(self, key: str) -> Value:
        return self._values.get(key, MISSING)

    def save(self, key: str, value: Value) -> None:
        self._values[key] = value

    def __len__(self) -> int:
        return len(self._values)


_PLAIN = (bool, int, float, str)


def encode_value(value: Value) -> object:
    """JSON data that keeps the variant: scalars and arrays as themselves, every
    dict a one-key tag (`{"map": ...}`, `{"bytes": hex}`, `{"hash": hex}`,
    `{"confidence": x}`), so a user's map can never be mistaken for a tag.

    Python's json writes an Int as `1` and a Float as `1.0` and reads them back
    as the same types; non-finite floats are written as `NaN` / `Infinity`,
    which Python's json reads back too.
    """
    if value is None or type(value) in _PLAIN:
        return value
    if type(value) is Confidence:
        return {"confidence": float(value)}
    if type(value) is Hash:
        return {"hash": value.hex()}
    if type(value) is bytes:
        return {"bytes": value.hex()}
    if type(value) is list:
        return [encode_value(item) for item in value]
    if type(value) is dict:
        return {"map": {str(key): encode_value(item) for key, item in value.items()}}
    raise TypeError(f"cannot store a {type(value).__name__}")


def decode_value(data: object) -> Value:
    """The inverse of `encode_value`."""
    if type(data) is list:
        return [decode_value(item) for item in data]
    if type(data) is dict:
        ((tag, payload),) = data.items()
        if tag == "map" and type(payload) is dict:
            return {key: decode_value(item) for key, item in payload.items()}
        if tag == "bytes" and type(payload) is str:
            return bytes.fromhex(payload)
        if tag == "hash" and type(payload) is str:
            return Hash(bytes.fromhex(payload))
        if tag == "confidence" and isinstance(payload, (int, float)):
            return Confidence(payload)
        raise ValueError(f"unknown tag {tag!r}")
    return data
