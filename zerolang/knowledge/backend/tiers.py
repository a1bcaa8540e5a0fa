"""`Tiers`: the memory tiers' state beside the records: working memory, accesses, semantic memory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from zerolang.knowledge.backend.rows import SemanticRow, TierState


class Tiers(Protocol):
    """Working memory per session, access counts, semantic facts, and pruning decayed episodes."""

    __slots__ = ()

    # ---- working memory ----
    def working_push(self, session: str, episode: bytes, stamp: str, capacity: int) -> list[bytes]:
        """Add an episode to a session's buffer; the evicted ones, oldest first."""

    def working_peek(self, session: str, n: int) -> list[bytes]: ...
    def working_clear(self, session: str) -> int: ...
    def working_size(self, session: str) -> int: ...
    def working_facts(self, facts: Sequence[bytes]) -> set[bytes]: ...

    # ---- accesses ----
    def touch(self, episodes: Sequence[bytes], stamp: str) -> None: ...

    # ---- semantic memory ----
    def semantic_get(self, fact: bytes) -> SemanticRow | None: ...
    def semantic_merge(self, fact: bytes, confidence: float, source: bytes | None, stamp: str) -> bool:
        """Fold evidence into a semantic fact (Bayesian); False when `source` was merged before."""

    def semantic_merged(self, episode: bytes) -> bool:
        """Whether this episode's evidence was merged into semantic memory."""

    def semantic_count(self) -> int: ...
    def semantic_facts(self, facts: Sequence[bytes]) -> set[bytes]: ...

    # ---- the whole state, for copies ----
    def tier_state(self) -> TierState:
        """This space's working memory, access counts and semantic memory, as stored."""

    def put_tier_state(self, state: TierState) -> None:
        """Make this space's tier state `state` (one write; idempotent: a rerun changes nothing).

        Working memory is replaced per session named, access counts and semantic facts are set
        to the given values, merged episodes added; the records they name must be stored.
        """

    # ---- maintenance ----
    def prune_episodes(self, keys: Sequence[bytes], stamp: str, reason: str) -> int:
        """Move episodes to the pruned log; facts, concepts and contexts stay. Returns how many moved.

        Each is logged as pruned at `stamp`, or at its own `created_at` if that is later.
        """
