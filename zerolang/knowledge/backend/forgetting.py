"""`Forgetting`: tombstones, what they remove and block, restoring and purging them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from zerolang.knowledge.backend.rows import Redaction, Removed, TombstoneRow
from zerolang.knowledge.terms import Forgotten


class Forgetting(Protocol):
    """Recording a forget (a tombstone), removing what it names, and keeping it out."""

    __slots__ = ()

    def episodes_by(self, column: str, keys: Sequence[bytes]) -> list[bytes]:
        """Episode hashes, live or pruned, whose `fact_hash` or `context_hash` is in `keys`, sorted."""

    def forget(
        self, tombstone: TombstoneRow, episodes: Sequence[bytes], blocked: Sequence[tuple[bytes, str]]
    ) -> Removed:
        """Record the tombstone and its blocked keys; remove the episodes and whatever only they held up."""

    def episode_places(self) -> list[tuple[bytes, bytes, bytes, bool]]:
        """`(episode, fact, context, live)` for every episode of the space, live then pruned."""
        ...

    def predicates(self) -> list[str]:
        """The space's distinct fact predicates, sorted."""
        ...

    def redact(self, redactions: Sequence[Redaction]) -> int:
        """Rewrite each context as redacted, moving its listed episodes (live or pruned) with their
        confidence, times, accesses, working-memory and semantic sources to their new hashes (one
        already stored absorbs it: its fact is folded again); drop the old context once nothing
        refers to it. How many episodes moved to a new hash."""
        ...

    def blocked(self, keys: Sequence[bytes]) -> set[bytes]:
        """Which of `keys` (concept, fact or episode hashes) a live tombstone blocks."""

    def blocked_terms(self) -> Forgotten:
        """The terms the space's purges blocked (`zerolang.knowledge.terms`)."""
        ...

    def tombstones(self) -> list[TombstoneRow]:
        """Every tombstone of the space, oldest first."""

    def forgotten_keys(self) -> list[tuple[bytes, str, bytes]]:
        """`(key, kind, tombstone)` for every key a live tombstone blocks, sorted."""

    def add_tombstone_keys(
        self, tombstone: bytes, created_at: str, keys: Sequence[tuple[bytes, str]]
    ) -> bool:
        """Record a tombstone known only by hash (a received or purged one); False if it was known."""

    def record_tombstone(self, row: TombstoneRow, keys: Sequence[tuple[bytes, str]]) -> bool:
        """Record a tombstone as it is (a copy) and apply its blocks; False if it was known."""

    def purge_tombstone(self, tombstone: bytes, stamp: str) -> bool:
        """Erase a tombstone's target and payload, keeping its hash and keys; False if already purged."""

    def restore_tombstone(self, tombstone: bytes, stamp: str) -> bool:
        """Lift a tombstone's blocks (it stays recorded, restored); False if it was not live."""

    def erase_freed(self) -> None:
        """Make deleted content unrecoverable from the store's files (SQLite: checkpoint, VACUUM)."""
