"""`SqliteStateStore`: where `zero run --state FILE` keeps `LoadState`/`SaveState` values.

One table, `zero_state (key, value)`; values as tagged JSON (`zerolang.runtime.state.encode_value`).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import TracebackType

from zerolang.runtime.state import MISSING, decode_value, encode_value
from zerolang.runtime.values import Value
from zerolang.storage.errors import StorageError, translating


@translating
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
            raise StorageError(f"{self.path}: cannot open the state database ({error})") from None
        try:
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute(
                "CREATE TABLE IF NOT EXISTS zero_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
        except sqlite3.Error as error:
            self._connection.close()
            self._connection = None
            raise StorageError(f"{self.path}: not a usable state database ({error})") from None

    def _db(self) -> sqlite3.Connection:
        if self._connection is None:
            raise StorageError(f"{self.path}: the state database is closed")
        return self._connection

    def load(self, key: str) -> Value:
        try:
            row = self._db().execute("SELECT value FROM zero_state WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as error:
            raise StorageError(f"{self.path}: cannot read state `{key}` ({error})") from None
        if row is None:
            return MISSING
        try:
            return decode_value(json.loads(row[0]))
        except (ValueError, TypeError, KeyError) as error:
            raise StorageError(f"{self.path}: state `{key}` is corrupt ({error})") from None

    def save(self, key: str, value: Value) -> None:
        text = json.dumps(encode_value(value), ensure_ascii=False, separators=(",", ":"))
        try:
            self._db().execute(
                "INSERT INTO zero_state (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, text),
            )
        except sqlite3.Error as error:
            raise StorageError(f"{self.path}: cannot save state `{key}` ({error})") from None

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
