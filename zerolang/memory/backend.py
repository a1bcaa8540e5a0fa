"""`MemoryBackend`: every storage operation 0-memory needs, as one `typing.Protocol`.

A backend is bound to one *space* (`DEFAULT_SPACE` unless asked): every read
and write sees only that space's rows, and `in_space` gives the same store
seen from another space. Content hashes never include the space.

Implementations live in `zerolang.memory.backends` (`sqlite`: the embedded
default, `postgres`: a shared server); nothing else in zerolang writes SQL.
The merge rules they apply are `zerolang.memory.merge`, written once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from zerolang.memory.types import ConceptNode, ContextNode, Fact, MemoryRecord, RelationNode

if TYPE_CHECKING:
    from zerolang.archive.index import IndexStore

DEFAULT_SPACE = "default"
_SPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}")


def check_space(name: str) -> str:
    """A space name: 1-128 letters, digits and `_ . : @ -`, starting with a letter or digit."""
    from zerolang.errors import ZeroError

    if not isinstance(name, str) or not _SPACE.fullmatch(name):
        raise ZeroError(
            f"not a space name: {name!r} (1-128 letters, digits, _ . : @ -, starting with a letter or digit)"
        )
    return name


@dataclass(frozen=True, slots=True)
class InsertResult:
    """What an insert changed; `duplicates` counts relations whose episode was already stored."""

    new_concepts: int = 0
    new_facts: int = 0
    new_episodes: int = 0
    duplicates: int = 0

    def __add__(self, other: InsertResult) -> InsertResult:
        return InsertResult(
            self.new_concepts + other.new_concepts,
            self.new_facts + other.new_facts,
            self.new_episodes + other.new_episodes,
            self.duplicates + other.duplicates,
        )

    def to_json(self) -> dict[str, int]:
        """The `zero memory ingest --json` document."""
        return {
            "new_concepts": self.new_concepts,
            "new_facts": self.new_facts,
            "new_episodes": self.new_episodes,
            "duplicates": self.duplicates,
        }


@dataclass(frozen=True, slots=True)
class Counts:
    concepts: int
    facts: int
    episodes: int
    contexts: int

    def to_json(self) -> dict[str, int]:
        """The `zero memory stats --json` document."""
        return {
            "concepts": self.concepts,
            "facts": self.facts,
            "episodes": self.episodes,
            "contexts": self.contexts,
        }


@dataclass(frozen=True, slots=True)
class EpisodeRow:
    """An episode with what tiers, recall and query read of it: its context and its access record."""

    hash: bytes
    fact_hash: bytes
    context_hash: bytes
    confidence: float
    created_at: str
    event_time: str
    source: str
    scope: str
    access_count: int
    last_access: str | None


@dataclass(frozen=True, slots=True)
class PrunedEpisode:
    """An episode maintenance pruned: kept in the log so checks, deltas and exports can account for it."""

    hash: bytes
    fact_hash: bytes
    context_hash: bytes
    confidence: float
    created_at: str
    pruned_at: str
    reason: str


@dataclass(frozen=True, slots=True)
class SemanticRow:
    fact_hash: bytes
    confidence: float
    observations: int
    first_seen: str
    last_reinforced: str


@dataclass(frozen=True, slots=True)
class FactFilter:
    """Which facts `find_facts` returns: every field set must hold.

    `compares` are `(column, op, value)` with column `confidence` or
    `observations` and op one of `= != < <= > >=`; `bound` restricts one
    column (`subject_hash`, `object_hash` or `predicate`) to a set of values.
    """

    subject: bytes | None = None
    predicate: str | None = None
    object: bytes | None = None
    predicates: frozenset[str] | None = None
    compares: tuple[tuple[str, str, float], ...] = ()
    self_loop: bool = False
    bound: tuple[str, Sequence[bytes | str]] | None = None


COMPARE_COLUMNS = frozenset({"confidence", "observations"})
COMPARE_OPS = frozenset({"=", "!=", "<", "<=", ">", ">="})
BOUND_COLUMNS = frozenset({"subject_hash", "object_hash", "predicate"})


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

    # ---- the archive's summary index ----
    @property
    def index(self) -> IndexStore:
        """The summary index (`memory_index`) of this space: an `IndexStore` sharing the connection;
        closing it leaves the backend open."""

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

    def find_facts(self, where: FactFilter) -> list[Fact]:
        """The facts matching `where`, in hash order."""

    def episodes_of(self, facts: Sequence[bytes]) -> list[EpisodeRow]:
        """The episodes of these facts, with contexts and accesses, by fact then episode hash."""

    def contexts(self, keys: Sequence[bytes]) -> dict[bytes, tuple[ContextNode, str]]:
        """Contexts with the time each was first stored."""

    def degrees(self, concepts: Sequence[bytes]) -> dict[bytes, int]:
        """How many fact ends each concept is (a self-loop counts twice)."""

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

    # ---- maintenance ----
    def prune_episodes(self, keys: Sequence[bytes], stamp: str, reason: str) -> int:
        """Move episodes to the pruned log; facts, concepts and contexts stay. Returns how many moved.

        Each is logged as pruned at `stamp`, or at its own `created_at` if that is later.
        """

    def pruned(self) -> list[PrunedEpisode]: ...
