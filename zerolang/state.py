"""Where `LoadState` and `SaveState` keep values: in memory per run, or in SQLite.

The old runtime's `LoadState` was a stub that always returned the same map;
ours stores real values. The SQLite store persists across runs (`zero run
--state FILE`) and keeps every variant exact, so a `Hash` saved in one run is
a `Hash` again (not a hex string) when loaded in the next.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Final, Protocol

from zerolang.errors import ZeroError
from zerolang.values import Confidence, Hash, Value


class _Missing:
    """The type of `MISSING`: nothing is stored (distinct from a stored null)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()


class StateStore(Protocol):
    """What the `LoadState` / `SaveState` builtins need."""

    def load(self, key: str) -> Value:
        """The value stored under `key`, or `MISSING`."""
        ...

    def save(self, key: str, value: Value) -> None: ...


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


class SqliteStateStore:
    """A persistent store in one SQLite table; each save commits on its own.

    WAL mode lets a reader (another `zero run`) load while one run saves.
    Values are stored as tagged JSON (`encode_value`) so every variant
    round-trips exactly.
    """

    def __init__(self, path: str | Path, *, timeout: float = 5.0) -> None:
        self.path = str(path)
        try:
            # isolation_level=None: autocommit, so every statement is its own transaction.
            self._connection: sqlite3.Connection | None = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None
            )
        except sqlite3.Error as error:
            raise ZeroError(f"{self.path}: cannot open the state database ({error})") from None
        try:
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute(
                "CREATE TABLE IF NOT EXISTS zero_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
        except sqlite3.Error as error:
            self._connection.close()
            self._connection = None
            raise ZeroError(f"{self.path}: not a usable state database ({error})") from None

    def _db(self) -> sqlite3.Connection:
        if self._connection is None:
            raise ZeroError(f"{self.path}: the state database is closed")
        return self._connection

    def load(self, key: str) -> Value:
        try:
            row = self._db().execute("SELECT value FROM zero_state WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as error:
            raise ZeroError(f"{self.path}: cannot read state `{key}` ({error})") from None
        if row is None:
            return MISSING
        try:
            return decode_value(json.loads(row[0]))
        except (ValueError, TypeError, KeyError) as error:
            raise ZeroError(f"{self.path}: state `{key}` is corrupt ({error})") from None

    def save(self, key: str, value: Value) -> None:
        text = json.dumps(encode_value(value), ensure_ascii=False, separators=(",", ":"))
        try:
            self._db().execute(
                "INSERT INTO zero_state (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, text),
            )
        except sqlite3.Error as error:
            raise ZeroError(f"{self.path}: cannot save state `{key}` ({error})") from None

    def keys(self) -> list[str]:
        return [row[0] for row in self._db().execute("SELECT key FROM zero_state ORDER BY key")]

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> SqliteStateStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


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
