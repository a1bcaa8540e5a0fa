"""`MemoryBackend`: every storage operation 0-memory needs, as one `typing.Protocol`.

A backend is bound to one *space* (`DEFAULT_SPACE` unless asked): every read
and write sees only that space's rows, and `in_space` gives the same store
seen from another space. Content hashes never include the space.

Implementations live in `zerolang.storage` (`sqlite`: the embedded
default, `postgres`: a shared server); nothing else in zerolang writes SQL.
The merge rules they apply are `zerolang.knowledge.merge`, written once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from zerolang.knowledge.backend.locks import (
    LOCK_TIMEOUT_ENV,
    LOCK_TIMEOUT_S,
    lock_timeout,
    lock_timeout_error,
)
from zerolang.knowledge.backend.rows import (
    BOUND_COLUMNS,
    COMPARE_COLUMNS,
    COMPARE_OPS,
    Counts,
    EpisodeRow,
    FactEnds,
    FactEvent,
    FactFilter,
    FactTimes,
    InsertResult,
    LogEntry,
    PrunedEpisode,
    RecallInputs,
    Removed,
    SemanticRow,
    TierState,
    TombstoneRow,
)
from zerolang.knowledge.types import ConceptNode, ContextNode, Fact, MemoryRecord, RelationNode


class MemoryBackend(Protocol):
    """A memory store's storage, seen from one space."""

    @property
    def location(self) -> str:
        """Where the store is, for messages (a path, or a URL without its password)."""

    @property
    def space(self) -> str: ...

    kind: str  # `sqlite` or `postgres`

    # ---- lifetime ----
    def close(self) -> None: ...
    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction (a savepoint when one is open): all of it, or on error none of it."""

    def in_space(self, space: str) -> MemoryBackend:
        """The same store seen from another space (shares the connection)."""

    def spaces(self) -> list[str]:
        """Every space holding something, sorted."""

    # ---- writing ----
    def apply_records(self, records: Sequence[MemoryRecord]) -> InsertResult:
        """Apply records by the merge rules, atomically (a transaction, or a savepoint of the open one)."""

    # ---- look-ups ----
    def concepts(self, keys: Sequence[bytes]) -> dict[bytes, ConceptNode]: ...
    def concept_by_alias(self, alias_key: str) -> bytes | None:
        """The first concept that was written with this normalised spelling."""

    def concepts_between(self, low: bytes, high: bytes, limit: int) -> list[bytes]:
        """Concept hashes in `[low, high]`, in hash order (prefix look-ups)."""

    def labels(self, keys: Sequence[bytes]) -> dict[bytes, str]: ...
    def facts(self, keys: Sequence[bytes]) -> dict[bytes, Fact]: ...
    def facts_touching(
        self, concepts: Sequence[bytes], min_confidence: float = 0.0, predicates: frozenset[str] | None = None
    ) -> list[Fact]:
        """Every fact a concept of `concepts` is subject or object of: one frontier, one round trip."""

    def edges_touching(
        self, concepts: Sequence[bytes], min_confidence: float = 0.0, predicates: frozenset[str] | None = None
    ) -> list[tuple[bytes, bytes, str, bytes, float]]:
        """As `facts_touching`, as bare (fact, subject, predicate, object, confidence) rows: traversal's
        hot path, where building validated `Fact`s would cost more than the query."""

    def edges_above(
        self,
        floors: Sequence[tuple[bytes, float]],
        predicates: frozenset[str] | None = None,
        limit: int | None = None,
    ) -> list[tuple[bytes, bytes, bytes, str, bytes, float]]:
        """Per (concept, floor) pair, the facts touching the concept with a confidence at or above its
        floor, at most `limit` of them (most confident first, then by fact hash): rows of (that concept,
        fact, subject, predicate, object, confidence), in no particular order. Pruned traversal's read:
        one statement for a whole frontier, each concept with a floor of its own."""

    def find_facts(self, where: FactFilter) -> list[Fact]:
        """The facts matching `where`, in hash order."""

    def episodes_of(self, facts: Sequence[bytes]) -> list[EpisodeRow]:
        """The episodes of these facts, with contexts and accesses, by fact then episode hash."""

    def contexts(self, keys: Sequence[bytes]) -> dict[bytes, tuple[ContextNode, str]]:
        """Contexts with the time each was first stored."""

    def degrees(self, concepts: Sequence[bytes]) -> dict[bytes, int]:
        """How many fact ends each concept is (a self-loop counts twice)."""

    def fact_ends(self, facts: Sequence[bytes]) -> dict[bytes, FactEnds]:
        """Each fact's subject and object with their labels, and its predicate."""

    def recall_inputs(
        self, arriving: Sequence[bytes], concepts: Sequence[bytes], paths: Sequence[bytes]
    ) -> RecallInputs:
        """`episodes_of(arriving)`, `degrees(concepts)`, `fact_ends(paths)`: one round trip on a server."""

    def refresh_statistics(self, added: int | None = None) -> None:
        """Bring the query planner's statistics up to date after a bulk load, where the engine keeps them
        (PostgreSQL's ANALYZE, which autovacuum runs when it is on; SQLite's are fixed by its schema).
        `added`: the episodes the load wrote, when the engine may judge that too few to matter."""

    def counts(self) -> Counts: ...

    # ---- iteration in hash order (checkpoints, exports, copies) ----
    def concept_hashes(self) -> list[bytes]: ...
    def episode_hashes(self) -> list[bytes]: ...
    def scan_concepts(self) -> Iterator[ConceptNode]: ...
    def scan_contexts(self) -> Iterator[tuple[ContextNode, str]]: ...
    def scan_relations(self, facts: Sequence[bytes] | None = None) -> Iterator[RelationNode]: ...
    def scan_episodes(self) -> Iterator[EpisodeRow]: ...

    # ---- the self-check: raw rows, trusting nothing ----
    def integrity_problems(self) -> list[str]: ...
    # keys come as stored (`Any`): a tampered row may hold anything
    def raw_concepts(self) -> Iterator[tuple[Any, str]]: ...
    def raw_aliases(self) -> Iterator[tuple[Any, str]]: ...
    def raw_facts(self) -> Iterator[tuple[Any, Any, str, Any, float, int]]: ...
    def raw_contexts(self) -> Iterator[tuple[Any, str, str, str]]: ...
    def raw_episodes(self) -> Iterator[tuple[Any, Any, Any, float]]: ...
    def raw_pruned(self) -> Iterator[tuple[Any, Any, Any, float]]: ...
    def raw_sealed_rows(self, table: str) -> Iterator[tuple[Any, ...]]:
        """Every row of a sealed table in this space: its `integrity.SEALED` columns, as stored."""

    def raw_seals(self) -> Iterator[tuple[Any, Any, Any]]:
        """(table, rows, digest) of this space's seals, as stored."""

    def raw_seal_markers(self) -> set[str]:
        """The store's marker rows (which generations of `integrity.GENERATIONS` it holds sealed)."""

    # ---- tiers ----
    def working_push(self, session: str, episode: bytes, stamp: str, capacity: int) -> list[bytes]:
        """Add an episode to a session's buffer; the evicted ones, oldest first."""

    def working_peek(self, session: str, n: int) -> list[bytes]: ...
    def working_clear(self, session: str) -> int: ...
    def working_size(self, session: str) -> int: ...
    def working_facts(self, facts: Sequence[bytes]) -> set[bytes]: ...
    def touch(self, episodes: Sequence[bytes], stamp: str) -> None: ...
    def semantic_get(self, fact: bytes) -> SemanticRow | None: ...
    def semantic_merge(self, fact: bytes, confidence: float, source: bytes | None, stamp: str) -> bool:
        """Fold evidence into a semantic fact (Bayesian); False when `source` was merged before."""

    def semantic_merged(self, episode: bytes) -> bool:
        """Whether this episode's evidence was merged into semantic memory."""

    def semantic_count(self) -> int: ...
    def semantic_facts(self, facts: Sequence[bytes]) -> set[bytes]: ...
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

    def pruned(self) -> list[PrunedEpisode]: ...

    # ---- forgetting (tombstones) ----
    def episodes_by(self, column: str, keys: Sequence[bytes]) -> list[bytes]:
        """Episode hashes, live or pruned, whose `fact_hash` or `context_hash` is in `keys`, sorted."""

    def forget(
        self, tombstone: TombstoneRow, episodes: Sequence[bytes], blocked: Sequence[tuple[bytes, str]]
    ) -> Removed:
        """Record the tombstone and its blocked keys; remove the episodes and whatever only they held up."""

    def blocked(self, keys: Sequence[bytes]) -> set[bytes]:
        """Which of `keys` (concept, fact or episode hashes) a live tombstone blocks."""

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

    # ---- bi-temporal facts ----
    def fact_times(self, facts: Sequence[bytes]) -> dict[bytes, FactTimes]: ...
    def has_fact_times(self) -> bool:
        """Whether any fact of the space has non-default times (else every fact is current)."""

    def set_fact_times(self, rows: Sequence[FactTimes]) -> None: ...
    def add_fact_events(self, events: Sequence[FactEvent]) -> None: ...
    def fact_events(self, facts: Sequence[bytes]) -> list[FactEvent]:
        """The facts' history, oldest first."""

    def episode_confidences(self, episodes: Sequence[bytes]) -> dict[bytes, float]: ...
    def restate_episodes(self, changes: Sequence[tuple[bytes, bytes, float]], stamp: str) -> None:
        """Give episodes `(episode, fact, confidence)` a restated confidence; refold their facts."""

    # ---- the space's event log ----
    def append_log(self, at: str, kind: str, subject: bytes, detail: str = "") -> None: ...
    def log_entries(self, limit: int | None = None) -> list[LogEntry]:
        """The space's log, oldest first (the last `limit` entries when given)."""


__all__ = [
    "BOUND_COLUMNS",
    "COMPARE_COLUMNS",
    "COMPARE_OPS",
    "LOCK_TIMEOUT_ENV",
    "LOCK_TIMEOUT_S",
    "Counts",
    "EpisodeRow",
    "FactEnds",
    "FactEvent",
    "FactFilter",
    "FactTimes",
    "InsertResult",
    "LogEntry",
    "MemoryBackend",
    "PrunedEpisode",
    "RecallInputs",
    "Removed",
    "SemanticRow",
    "TierState",
    "TombstoneRow",
    "lock_timeout",
    "lock_timeout_error",
]
