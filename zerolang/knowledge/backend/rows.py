"""The rows a backend takes and returns: plain frozen dataclasses, no behaviour beyond their JSON."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from zerolang.knowledge.types import ContextNode


@dataclass(frozen=True, slots=True)
class InsertResult:
    """What an insert changed; `duplicates` counts relations whose episode was already stored."""

    new_concepts: int = 0
    new_facts: int = 0
    new_episodes: int = 0
    duplicates: int = 0
    forgotten: int = 0  # relations a tombstone blocks (not counted as duplicates)
    restated: int = 0  # duplicates restating their episode with another confidence
    # What one write did, for the temporal rules (not summed, not shown): the episodes it stored,
    # and the facts already stored that gained one.
    fresh_episodes: frozenset[bytes] = field(default=frozenset(), compare=False, repr=False)
    known_facts: frozenset[bytes] = field(default=frozenset(), compare=False, repr=False)

    def __add__(self, other: InsertResult) -> InsertResult:
        return InsertResult(
            self.new_concepts + other.new_concepts,
            self.new_facts + other.new_facts,
            self.new_episodes + other.new_episodes,
            self.duplicates + other.duplicates,
            self.forgotten + other.forgotten,
            self.restated + other.restated,
        )

    def to_json(self) -> dict[str, int]:
        """The `zero memory ingest --json` document (`forgotten` only when a tombstone blocked something)."""
        document = {
            "new_concepts": self.new_concepts,
            "new_facts": self.new_facts,
            "new_episodes": self.new_episodes,
            "duplicates": self.duplicates,
        }
        if self.forgotten:
            document["forgotten"] = self.forgotten
        if self.restated:
            document["restated"] = self.restated
        return document


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
    """An episode with what tiers, recall and query read of it: its context and its access record.

    `created_at` is when the store learned it, `last_access` when a recall or query last used it
    (what decay counts from); `event_time` is when it was observed in the world (provenance).
    `pruned_at` is set on an episode maintenance pruned (`Records.provenance_of` returns those too):
    it has no accesses any more, but its provenance stays.
    """

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
    pruned_at: str | None = None


FactEnds = tuple[bytes, str, str, bytes, str]  # subject hash and label, predicate, object hash and label


@dataclass(frozen=True, slots=True)
class RecallInputs:
    """What ranking and showing a recall's pool read, in one go: `MemoryBackend.recall_inputs`."""

    episodes: list[EpisodeRow]  # of the facts that reached each concept, as `episodes_of`
    degrees: dict[bytes, int]  # of the concepts, as `degrees`
    ends: dict[bytes, FactEnds]  # of every fact on a path
    labels: dict[bytes, str] = field(default_factory=dict)  # of the concepts asked for by label


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
class TierState:
    """A space's tier state beyond its episodes: what `zero memory migrate` copies after the records.

    Working memory `(session, episode, added_at)` in push order, access counts `(episode, count,
    last_access)`, semantic facts and the episodes merged into them `(episode, fact)`; each list in
    a fixed order, so two stores with the same state give equal values.
    """

    working: tuple[tuple[str, bytes, str], ...] = ()
    accesses: tuple[tuple[bytes, int, str], ...] = ()
    semantic: tuple[SemanticRow, ...] = ()
    sources: tuple[tuple[bytes, bytes], ...] = ()


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


@dataclass(frozen=True, slots=True)
class TombstoneRow:
    """A recorded forget: its hash, what it forgot (`target` and `payload` are None once purged)."""

    hash: bytes
    kind: str
    target: str | None
    created_at: str
    payload: str | None
    purged_at: str | None
    restored_at: str | None


@dataclass(frozen=True, slots=True)
class Removed:
    """What a forget took out of the live tables."""

    concepts: int = 0
    facts: int = 0
    episodes: int = 0
    contexts: int = 0

    def to_json(self) -> dict[str, int]:
        return {
            "concepts": self.concepts,
            "facts": self.facts,
            "episodes": self.episodes,
            "contexts": self.contexts,
        }


@dataclass(frozen=True, slots=True)
class Redaction:
    """A context rewritten without what mentions a forgotten term (`zerolang.knowledge.scope`).

    `old` is the stored context's hash, `context` the rewritten one (the same hash when only fields
    outside the hash changed), `created_at` the store time the context row keeps, and `moves` each
    kept episode's hash before and after (the same when the hash did not change).
    """

    old: bytes
    context: ContextNode
    created_at: str
    moves: tuple[tuple[bytes, bytes], ...]

    @property
    def new(self) -> bytes:
        return self.context.hash.digest


@dataclass(frozen=True, slots=True)
class FactTimes:
    """A fact's times as recall shows them (`zerolang.knowledge.temporal.summary`): its validity from
    the start of its first period to the end of its last (None: open-ended), and, when it no longer
    holds because a retraction or a rival ended it, when the store learned that and what it was.
    Times are the store's UTC format."""

    fact: bytes
    valid_from: str | None
    valid_to: str | None
    retired_at: str | None
    retired_by: str | None  # "retracted", or the superseding fact's hash (hex)


@dataclass(frozen=True, slots=True)
class PeriodRow:
    """One stored validity period of a fact (`fact_periods`): the world interval `[valid_from,
    valid_to)` and what ended it (`timeline.Period.ended_by`), believed from store time
    `recorded_at` until `closed_at` (None: still believed), with the write that opened and closed
    it ("episode HEX", "retract", "declare single-valued P", ...). `id` is None before it is stored."""

    fact: bytes
    valid_from: str
    valid_to: str | None
    ended_by: str | None
    recorded_at: str
    recorded_by: str
    closed_at: str | None = None
    closed_by: str | None = None
    id: int | None = None


@dataclass(frozen=True, slots=True)
class ClaimRow:
    """An episode (kept or pruned) as a claim on its fact's validity: when it was stored, its
    context's event time and metadata (which may give `valid_from` / `valid_to`)."""

    fact: bytes
    episode: bytes
    created_at: str
    event_time: str
    metadata: str


@dataclass(frozen=True, slots=True)
class Declaration:
    """A setting a space declared (`declared`) or undeclared at store time `at`, e.g.
    `single-valued works_at`."""

    at: str
    setting: str
    value: str
    declared: bool


@dataclass(frozen=True, slots=True)
class FactEvent:
    """One entry of a fact's history: learned, restated, superseded, retracted, reasserted."""

    fact: bytes
    kind: str
    at: str
    valid_from: str | None
    valid_to: str | None
    confidence: float | None
    detail: str


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a space's append-only event log: hashes and counts, never labels."""

    seq: int
    at: str
    kind: str  # ingest, forget, restore, purge, retract, receive
    subject: bytes  # the tombstone, fact, batch or bundle hash
    detail: str

    def to_json(self) -> dict[str, object]:
        return {
            "seq": self.seq,
            "at": self.at,
            "kind": self.kind,
            "subject": self.subject.hex(),
            "detail": self.detail,
        }


COMPARE_COLUMNS = frozenset({"confidence", "observations"})
COMPARE_OPS = frozenset({"=", "!=", "<", "<=", ">", ">="})
BOUND_COLUMNS = frozenset({"subject_hash", "object_hash", "predicate"})
