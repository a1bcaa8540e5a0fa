"""A memory's state as one hash: what a delta is based on, what `--since` names.

    checkpoint = sha256("0M-checkpoint\\n" ++ u64 concept count ++ sorted concept digests
                        ++ u64 episode count ++ sorted episode digests)

Concepts and episodes are the store's identities; everything else a store
holds (facts, merged confidences, aliases) follows from the episodes it was
given, so two stores with the same checkpoint hold the same memory.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from zerolang.knowledge.formats.model import Snapshot
from zerolang.knowledge.store import MemoryStore
from zerolang.util.errors import ZeroError

_DOMAIN = b"0M-checkpoint\n"


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The hash of a state and its counts (the counts are informative, the hash decides)."""

    hash: str
    concepts: int
    relations: int

    def __str__(self) -> str:
        return f"{self.hash} concepts={self.concepts} relations={self.relations}"

    def matches(self, other: Checkpoint) -> bool:
        return self.hash == other.hash


def compute(concepts: Iterable[bytes], episodes: Iterable[bytes]) -> Checkpoint:
    """The checkpoint of these concept and episode digests (any order)."""
    concept_list, episode_list = sorted(concepts), sorted(episodes)
    digest = hashlib.sha256(_DOMAIN)
    digest.update(len(concept_list).to_bytes(8, "big"))
    digest.update(b"".join(concept_list))
    digest.update(len(episode_list).to_bytes(8, "big"))
    digest.update(b"".join(episode_list))
    return Checkpoint(digest.hexdigest(), len(concept_list), len(episode_list))


def of_snapshot(snapshot: Snapshot) -> Checkpoint:
    return compute(
        (c.hash.digest for c in snapshot.concepts), (r.episode_hash.digest for r in snapshot.relations)
    )


def of_store(store: MemoryStore) -> Checkpoint:
    """The store's current checkpoint (two index scans, in hash order)."""
    with store.snapshot():  # both scans of one state
        return compute(store.backend.concept_hashes(), store.backend.episode_hashes())


def parse_checkpoint(text: str) -> str:
    """The 64-hex hash a user typed (a `checkpoint` line's first word is enough); ZeroError otherwise."""
    word = text.strip().split(" ", 1)[0].lower()
    if not re.fullmatch(r"[0-9a-f]{64}", word):
        raise ZeroError(f"not a checkpoint: expected 64 hex digits, got {text.strip()[:80]!r}")
    return word
