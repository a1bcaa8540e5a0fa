"""Tombstones in exchanged memory: what a store forgot travels with what it holds.

An export (`.0c` or JSON) and a bundle carry each live tombstone as its hash, when it was made and
the keys it blocks (concept, fact and episode hashes, and a purge's term hashes): never its target
or payload, which a purge erased. Importing one records the tombstone and its blocks before the
content, so the copy keeps forgetting: re-ingesting the source there brings nothing forgotten back,
and what a received purge's terms mention is erased there too.

Forms: JSON `{"hash": HEX, "created_at": TIME, "keys": [[HEX, KIND], ...]}` (a bundle's, an export's
`"tombstones"`); `.0c` one line `!forgotten HASH=KIND:KEY,KIND:KEY,... @TIME`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from zerolang.knowledge.backend import Forgetting, TombstoneRow
from zerolang.knowledge.mentions import erase_terms
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.temporal import utc
from zerolang.knowledge.terms import from_blocked, is_term_kind
from zerolang.util.errors import ZeroError

SETTING = "forgotten"
"""The `.0c` declaration word of a tombstone line."""

_HEX = re.compile(r"[0-9a-f]{64}")
KINDS = ("concept", "fact", "episode")
"""The keys a forget blocks, beside a purge's terms (`term:N`, `zerolang.knowledge.terms`)."""


@dataclass(frozen=True, slots=True)
class Tombstone:
    """A live tombstone as exchanged: its hash, when it was made, the `(key, kind)` pairs it blocks."""

    hash: bytes
    created_at: str
    keys: tuple[tuple[bytes, str], ...]

    def to_json(self) -> dict[str, object]:
        return {
            "hash": self.hash.hex(),
            "created_at": self.created_at,
            "keys": [[key.hex(), kind] for key, kind in self.keys],
        }

    def line(self) -> str:
        """The `.0c` line: `!forgotten HASH=KIND:KEY,... @TIME`."""
        keys = ",".join(f"{kind}:{key.hex()}" for key, kind in self.keys)
        return f"!{SETTING} {self.hash.hex()}={keys} @{self.created_at}"


def read_tombstones(backend: Forgetting) -> tuple[Tombstone, ...]:
    """The space's live tombstones that block something, oldest first, each with its keys sorted."""
    keys: dict[bytes, list[tuple[bytes, str]]] = {}
    for key, kind, tombstone in backend.forgotten_keys():
        keys.setdefault(tombstone, []).append((key, kind))
    return tuple(
        Tombstone(row.hash, row.created_at, tuple(sorted(keys[row.hash])))
        for row in backend.tombstones()
        if row.restored_at is None and row.hash in keys
    )


def from_json(value: Any) -> Tombstone:
    """A tombstone's JSON form; ValueError naming what is wrong."""
    if not isinstance(value, dict) or set(value) != {"hash", "created_at", "keys"}:
        raise ValueError('a tombstone is {"hash", "created_at", "keys"}')
    keys = value["keys"]
    if not isinstance(keys, list) or not all(isinstance(k, list) and len(k) == 2 for k in keys):
        raise ValueError("a tombstone's keys are [HEX, KIND] pairs")
    return _checked(value["hash"], value["created_at"], [(k[0], k[1]) for k in keys])


def from_line(value: str, at: str) -> Tombstone:
    """The `HASH=KIND:KEY,...` value and `@TIME` of a `.0c` tombstone line; ValueError if malformed."""
    hash_text, equals, listed = value.partition("=")
    if not equals or not listed:
        raise ValueError("a tombstone line is `!forgotten HASH=KIND:KEY,... @TIME`")
    pairs = []
    for item in listed.split(","):
        kind, colon, key = item.rpartition(":")
        if not colon:
            raise ValueError(f"a blocked key is KIND:HEX, not {item[:40]!r}")
        pairs.append((key, kind))
    return _checked(hash_text, at, pairs)


def _checked(hash_text: object, created_at: object, pairs: Sequence[tuple[object, object]]) -> Tombstone:
    if not isinstance(hash_text, str) or not _HEX.fullmatch(hash_text):
        raise ValueError("a tombstone's hash is 64 lowercase hex digits")
    if not isinstance(created_at, str):
        raise ValueError("a tombstone's created_at is a time")
    try:
        utc(created_at, "a tombstone's time")
    except ZeroError as error:
        raise ValueError(error.message) from None
    keys = []
    for key, kind in pairs:
        if not isinstance(key, str) or not _HEX.fullmatch(key):
            raise ValueError("a blocked key is 64 lowercase hex digits")
        if not isinstance(kind, str) or not (kind in KINDS or is_term_kind(kind)):
            raise ValueError(f"not a kind of blocked key: {str(kind)[:40]!r}")
        keys.append((bytes.fromhex(key), kind))
    if not keys:
        raise ValueError("a tombstone blocks at least one key")
    return Tombstone(bytes.fromhex(hash_text), created_at, tuple(sorted(set(keys))))


def apply_tombstones(store: MemoryStore, tombstones: Iterable[Tombstone]) -> tuple[int, bool]:
    """Record the tombstones the store lacks and apply their blocks (inside the caller's transaction):
    how many were new, and whether a purge's terms erased anything here (then the caller makes the
    freed content unrecoverable once the transaction commits: `backend.erase_freed`)."""
    applied, erased = 0, False
    for tombstone in tombstones:
        added = store.backend.add_tombstone_keys(tombstone.hash, tombstone.created_at, tombstone.keys)
        if added and from_blocked(tombstone.keys):  # a purge's terms: what mentions them here goes too
            at = tombstone.created_at
            row = TombstoneRow(tombstone.hash, "received", None, at, None, at, None)
            erase_terms(store, row, (), at)
            erased = True
        applied += added
    return applied, erased
