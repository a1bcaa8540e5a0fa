"""`MemoryStore`: a 0-memory store in one space, on the backend it is given.

The store is the API recall, query, tiers and formats use; it holds no SQL.
Storage is a `zerolang.knowledge.backend.MemoryBackend` (opened by
`zerolang.storage.open_store` from a path or URL), and the merge rules every
backend applies are written once in `zerolang.knowledge.merge`:

- **Episodes** are stored once (a re-ingest is a no-op);
- **Facts** fold each new episode in as `1 - (1 - old) * (1 - new)`;
- **Concepts** keep the highest confidence, the latest update and every spelling;
- **Contexts**: the first stored one keeps its optional fields.

Every record is atomic: `insert_records` applies a batch of records as one
transaction; if the batch fails it is replayed record by record, so the
records before the culprit are kept. A killed process keeps every committed
batch, and a rerun skips those records as duplicates and completes the rest.

Every record belongs to a *space* (default `default`): a store sees only its
own space, and content hashes never include it, so the same fact in two
spaces has the same FactHash.

Dates are the records' (`compile_record(now=...)`; one per ingest): UTC ISO
8601 with milliseconds and `Z`, one fixed format, so they compare as text.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from zerolang.knowledge import temporal
from zerolang.knowledge.backend import Counts, FactTimes, InsertResult, Log, MemoryBackend
from zerolang.knowledge.check import Problem
from zerolang.knowledge.hashing import concept_hash, verify_record
from zerolang.knowledge.normalize import AliasTable, normalize_label
from zerolang.knowledge.types import (
    HEX_DIGEST,
    ConceptHash,
    ConceptNode,
    ContextHash,
    ContextNode,
    EpisodeHash,
    Fact,
    FactHash,
    MemoryRecord,
    RelationNode,
    require_type,
)
from zerolang.util.errors import ZeroError
from zerolang.util.locations import display
from zerolang.util.spaces import DEFAULT_SPACE
from zerolang.util.times import utc_now

# Records per transaction of an ingest. A batch's new facts and episodes have random keys, so each
# commit writes (SQLite: to its WAL) most pages of those tables' B-trees, and each batch pays its
# reads, its seal row and its round trips once: 5,000 records (about 50,000 relations) commit 1.5
# times as fast as 1,000 did, and keep progress and a killed run's loss to a few seconds of work.
DEFAULT_BATCH_SIZE = 5000
# New episodes from which an insert asks the backend to refresh its planner's statistics.
STATISTICS_FROM = 1000

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_SPACE",
    "CheckReport",
    "ConceptView",
    "Counts",
    "FactView",
    "InsertResult",
    "MemoryStore",
    "Observation",
    "Progress",
]


# ---- results --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a batch insert is: records applied, records committed (durable), totals so far."""

    done: int
    committed: int
    totals: InsertResult


@dataclass(frozen=True, slots=True)
class Observation:
    """One episode of a fact with the context it was observed in, as `get` shows it; `pruned_at`
    when maintenance pruned it (its provenance stays)."""

    episode_hash: EpisodeHash
    context_hash: ContextHash
    confidence: float
    event_time: str
    source: str
    scope: str
    created_at: str
    pruned_at: str | None = None

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "episode_hash": str(self.episode_hash),
            "context_hash": str(self.context_hash),
            "confidence": self.confidence,
            "event_time": self.event_time,
            "source": self.source,
            "scope": self.scope,
        }
        if self.pruned_at is not None:
            document["pruned_at"] = self.pruned_at
        return document


@dataclass(frozen=True, slots=True)
class FactView:
    """A fact with its subject and object as labels, its episodes oldest first, and its times
    where they differ from the defaults (`times`: closed validity, retired by a retraction or a
    superseding fact; None for a current, open-ended fact)."""

    fact: Fact
    subject: str
    object: str
    episodes: tuple[Observation, ...]
    times: FactTimes | None = None

    @property
    def retired(self) -> bool:
        return self.times is not None and self.times.retired_at is not None

    def to_json(self) -> dict[str, builtins.object]:
        times = self.times
        return {
            "fact_hash": str(self.fact.fact_hash),
            "subject": self.subject,
            "predicate": self.fact.predicate,
            "object": self.object,
            "confidence": self.fact.confidence,
            "observations": self.fact.observations,
            "valid_to": times.valid_to if times is not None else None,
            "retired_at": times.retired_at if times is not None else None,
            "retired_by": times.retired_by if times is not None else None,
            "episodes": [episode.to_json() for episode in self.episodes],
        }


@dataclass(frozen=True, slots=True)
class ConceptView:
    """A concept and every fact it takes part in, as subject or object (`zero memory get`)."""

    concept: ConceptNode
    facts: tuple[FactView, ...]

    def to_json(self) -> dict[str, object]:
        """The `zero memory get --json` document."""
        concept = self.concept
        return {
            "concept": {
                "hash": str(concept.hash),
                "label": concept.label,
                "aliases": list(concept.aliases),
                "confidence": concept.confidence,
                "created_at": concept.created_at,
                "updated_at": concept.updated_at,
            },
            "facts": [fact.to_json() for fact in self.facts],
        }


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The outcome of `check`: the problems (empty when everything verifies) and what was checked."""

    problems: tuple[Problem, ...]
    counts: Counts

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "checked": self.counts.to_json(),
            "problems": [problem.to_json() for problem in self.problems],
        }


# ---- the store ------------------------------------------------------------------------------


_LOWEST, _HIGHEST = bytes(32), b"\xff" * 32  # every concept hash lies between


class MemoryStore:
    """A 0-memory store seen from one space, on the backend it is given.

    `zerolang.storage.open_store(location, space=...)` opens one from a SQLite path,
    `:memory:` or a server URL; `MemoryStore(backend)` wraps a backend already open.
    """

    def __init__(self, backend: MemoryBackend, *, single_valued: Iterable[str] | None = None) -> None:
        if isinstance(backend, str | Path):  # what `MemoryStore` took before the storage registry
            raise TypeError(
                f"MemoryStore takes an open backend, not {str(backend)!r}:"
                " open a store with zerolang.storage.open_store(location)"
            )
        # Predicates to declare single-valued if the store has not (at its first write), or None:
        # a new store then takes those of the nearest pyproject.toml, once, with a notice.
        self._single_valued_given = None if single_valued is None else tuple(single_valued)
        self._declared = False
        self.backend = backend
        self.path = display(backend.location)

    @property
    def single_valued(self) -> frozenset[str]:
        """The predicates this space declares single-valued now (`zero memory single-valued`)."""
        return temporal.single_valued_of(self.backend.declarations())

    def declare_single_valued(self, predicates: Iterable[str], *, at: str, remove: bool = False) -> list[str]:
        """Declare (`remove`: undeclare) predicates single-valued from store time `at` on; the
        normalised predicates that changed (see `zerolang.knowledge.temporal.declare`)."""
        from zerolang.knowledge.normalize import normalize_predicate

        names = []
        for given in predicates:
            name = normalize_predicate(given)
            if not name:
                raise ZeroError(f"not a predicate: {given!r}")
            names.append(name)
        return temporal.declare(self.backend, names, at=at, remove=remove)

    def keep_own_settings(self) -> None:
        """Never declare the project's settings into this store on its first write (a copy carries
        its source's declarations)."""
        self._declared = True

    def _adopt_declarations(self, at: str) -> None:
        """Before the first write: declare the predicates this store was opened with, or, in a new
        space, those `[tool.zero.memory] single-valued` of the nearest pyproject.toml names."""
        if self._declared:
            return
        given = self._single_valued_given
        if given is None:
            if self.backend.declarations() or self.backend.concepts_between(_LOWEST, _HIGHEST, 1):
                self._declared = True
                return
            from zerolang.util.config import settings_for

            settings = settings_for()
            self._declared = True
            if not settings.single_valued:
                return
            changed = self.declare_single_valued(settings.single_valued, at=at)
            if changed:
                import sys

                where = settings.root / "pyproject.toml" if settings.root else "pyproject.toml"
                print(
                    f"zero: the new store declares {', '.join(sorted(changed))} single-valued, from {where}"
                    " (`zero memory single-valued` lists and changes what a store declares)",
                    file=sys.stderr,
                )
            return
        if given:
            self.declare_single_valued(given, at=at)
        self._declared = True

    @property
    def space(self) -> str:
        return self.backend.space

    @property
    def kind(self) -> str:
        return self.backend.kind

    def in_space(self, space: str) -> MemoryStore:
        """The same store seen from another space (shares the connection; close this one)."""
        return MemoryStore(self.backend.in_space(space), single_valued=self._single_valued_given)

    def spaces(self) -> list[str]:
        return self.backend.spaces()

    # ---- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemoryStore({self.path!r}, space={self.space!r})"

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction; nested, a savepoint: all of it or, on error, none of it."""
        return self.backend.transaction()

    def whole(self) -> AbstractContextManager[None]:
        """One write transaction that an error undoes whole (`Lifetime.whole`): the transactions
        opened inside may take no savepoint, so nothing inside may catch an error and go on writing."""
        return self.backend.whole()

    def snapshot(self) -> AbstractContextManager[None]:
        """Reads that see one state of the store, whatever commits meanwhile (`Lifetime.snapshot`)."""
        return self.backend.snapshot()

    # ---- writing ----------------------------------------------------------------------------

    def insert_record(self, record: MemoryRecord, *, verify: bool = True) -> InsertResult:
        """Apply one record atomically: all of it or, on any error, none of it.

        `verify` recomputes its hashes first (`MemoryRecord.verify`); ingest
        skips that for the records it has just compiled.
        """
        require_type(record, MemoryRecord, "the record")
        if verify:
            verify_record(record)
        return self.apply([record])

    def apply(self, records: Sequence[MemoryRecord], *, log: bool = True) -> InsertResult:
        """Apply records by the merge rules, then the temporal rules to what was new (one transaction);
        `log`: append the batch to the space's log (a copy carries the source's log instead)."""
        with self.backend.transaction():
            if records:
                self._adopt_declarations(min(r.created_at for rec in records for r in rec.relations))
            single = self.single_valued
            result = self.backend.apply_records(records)
            if result.fresh_episodes:
                temporal.after_insert(
                    self.backend, records, result.fresh_episodes, result.known_facts, single
                )
            if log and (result.new_episodes or result.restated):
                _log_batch(self.backend, records, result)
            return result

    def insert_records(
        self,
        records: Iterable[MemoryRecord],
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        progress: Callable[[Progress], None] | None = None,
        verify: bool = True,
        log: bool = True,
    ) -> InsertResult:
        """Apply records in order, one transaction per `batch_size` records (`verify`: as `insert_record`,
        `log`: as `apply`).

        A batch is applied as one transaction (the fast path); if it fails, it
        is rolled back and replayed record by record, each atomic, so the
        records before the culprit are committed and its error is raised.
        `progress` sees each batch applied (`done`) and then committed.
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        from zerolang.knowledge.compiler import gc_paused

        with gc_paused():  # records and rows hold no cycles: no full collections over a growing heap
            totals = self._insert_batches(records, batch_size, progress, verify, log)
        if totals.new_episodes >= STATISTICS_FROM:  # a bulk load: plans fit for the tables it grew
            self.backend.refresh_statistics(totals.new_episodes)
        return totals

    def _insert_batches(
        self,
        records: Iterable[MemoryRecord],
        batch_size: int,
        progress: Callable[[Progress], None] | None,
        verify: bool,
        log: bool,
    ) -> InsertResult:
        totals = InsertResult()
        done = 0
        iterator = iter(records)
        while True:
            batch, failure = _take(iterator, batch_size)
            for record in batch:
                require_type(record, MemoryRecord, "a record")
                if verify:
                    verify_record(record)
            if batch:
                totals += self._commit_batch(batch, done, totals, progress, log)
                done += len(batch)
                if progress is not None:
                    progress(Progress(done, done, totals))
            if failure is not None:
                raise failure
            if len(batch) < batch_size:
                return totals

    def _commit_batch(
        self,
        batch: list[MemoryRecord],
        done: int,
        totals: InsertResult,
        progress: Callable[[Progress], None] | None,
        log: bool,
    ) -> InsertResult:
        try:
            with self.backend.transaction():
                result = self.apply(batch, log=log)
                if progress is not None:
                    progress(Progress(done + len(batch), done, totals + result))
            return result
        except Exception:
            pass
        result = InsertResult()
        for record in batch:  # find the culprit; keep the records before it
            result += self.apply([record], log=log)
        return result

    # ---- reading ----------------------------------------------------------------------------

    def get_concept(self, concept: ConceptHash) -> ConceptNode | None:
        require_type(concept, ConceptHash, "the concept hash")
        return self.backend.concepts([concept.digest]).get(concept.digest)

    def get_concept_by_label(self, label: str, aliases: AliasTable | None = None) -> ConceptNode | None:
        """The concept `label` names: normalised and alias-resolved, else a spelling seen at ingest."""
        table = aliases if aliases is not None else AliasTable.default()
        resolved = table.resolve(label)
        if not resolved:
            return None
        found = self.get_concept(concept_hash(resolved))
        if found is not None:
            return found
        key = self.backend.concept_by_alias(normalize_label(label))
        return None if key is None else self.get_concept(ConceptHash(key))

    def find_concept(self, query: str, aliases: AliasTable | None = None) -> ConceptNode | None:
        """A concept by full hash, label (as `get_concept_by_label`) or unique hash prefix (4+ digits)."""
        if HEX_DIGEST.match(query):
            found = self.get_concept(ConceptHash.from_hex(query))
            if found is not None:
                return found
        found = self.get_concept_by_label(query, aliases)
        if found is not None:
            return found
        prefix = query.lower()
        if len(prefix) < 4 or len(prefix) > 64 or any(char not in "0123456789abcdef" for char in prefix):
            return None
        low, high = bytes.fromhex(prefix.ljust(64, "0")), bytes.fromhex(prefix.ljust(64, "f"))
        keys = self.backend.concepts_between(low, high, 6)
        if len(keys) > 1:
            shown = ", ".join(key.hex()[:12] for key in keys[:5])
            raise ZeroError(f"hash prefix {query} is ambiguous: {shown}{', ...' if len(keys) > 5 else ''}")
        return self.get_concept(ConceptHash(keys[0])) if keys else None

    def get_relations(self, concept: ConceptHash) -> list[RelationNode]:
        """Every episode of every fact the concept is the subject or the object of."""
        require_type(concept, ConceptHash, "the concept hash")
        facts = [fact.fact_hash.digest for fact in self.backend.facts_touching([concept.digest])]
        relations = list(self.backend.scan_relations(facts)) if facts else []
        return sorted(relations, key=lambda r: (r.created_at, r.episode_hash.digest))

    def get_relations_by_fact(self, fact: FactHash) -> list[RelationNode]:
        """Every episode of one fact, oldest first."""
        require_type(fact, FactHash, "the fact hash")
        relations = list(self.backend.scan_relations([fact.digest]))
        return sorted(relations, key=lambda r: (r.created_at, r.episode_hash.digest))

    def get_fact(self, fact: FactHash) -> Fact | None:
        require_type(fact, FactHash, "the fact hash")
        return self.backend.facts([fact.digest]).get(fact.digest)

    def get_facts(self, concept: ConceptHash) -> list[Fact]:
        """The facts a concept is the subject or the object of, most confident first."""
        require_type(concept, ConceptHash, "the concept hash")
        facts = self.backend.facts_touching([concept.digest])
        return sorted(facts, key=lambda f: (-f.confidence, f.fact_hash.digest))

    def get_context(self, context: ContextHash) -> ContextNode | None:
        require_type(context, ContextHash, "the context hash")
        found = self.backend.contexts([context.digest]).get(context.digest)
        return None if found is None else found[0]

    def recall(self, concept: ConceptNode) -> ConceptView:
        """The concept with its facts (labels resolved) and their episodes, oldest observation first
        (those maintenance pruned too, marked `pruned_at`: they are the facts' provenance).

        Current facts come first (most confident first), then the retired ones (retracted or
        superseded, kept for history), marked by their `times`."""
        require_type(concept, ConceptNode, "the concept")
        facts = self.backend.facts_touching([concept.hash.digest])
        labels = self.backend.labels(
            [f.subject_hash.digest for f in facts] + [f.object_hash.digest for f in facts]
        )
        episodes: dict[bytes, list[Observation]] = {f.fact_hash.digest: [] for f in facts}
        rows = self.backend.provenance_of(list(episodes))
        times = temporal.times_of(self.backend, facts, utc_now())
        for row in sorted(rows, key=lambda e: (e.event_time, e.hash)):
            episodes[row.fact_hash].append(
                Observation(
                    EpisodeHash(row.hash),
                    ContextHash(row.context_hash),
                    row.confidence,
                    row.event_time,
                    row.source,
                    row.scope,
                    row.created_at,
                    row.pruned_at,
                )
            )
        views = [
            FactView(
                f,
                labels[f.subject_hash.digest],
                labels[f.object_hash.digest],
                tuple(episodes[f.fact_hash.digest]),
                times.get(f.fact_hash.digest),
            )
            for f in facts
        ]
        views.sort(key=lambda v: (v.retired, -v.fact.confidence, v.subject, v.fact.predicate, v.object))
        return ConceptView(concept, tuple(views))

    def counts(self) -> Counts:
        return self.backend.counts()

    def concept_count(self) -> int:
        return self.counts().concepts

    def fact_count(self) -> int:
        return self.counts().facts

    def relation_count(self) -> int:
        """Stored relations, i.e. episodes (one per observation)."""
        return self.counts().episodes

    # ---- checking ---------------------------------------------------------------------------

    def check(self) -> CheckReport:
        """Like `git fsck`: recompute every hash, resolve every reference (see `zerolang.knowledge.check`)."""
        from zerolang.knowledge.check import find_problems

        with self.backend.snapshot():  # one state: a write committing meanwhile is not half seen
            return CheckReport(tuple(find_problems(self.backend)), self.counts())


def _log_batch(backend: Log, records: Sequence[MemoryRecord], result: InsertResult) -> None:
    """Append the batch to the space's log: the hash of its episode hashes and what it changed."""
    import hashlib

    keys = sorted({r.episode_hash.digest for record in records for r in record.relations})
    stamp = max(r.created_at for record in records for r in record.relations)
    detail = (
        f"{result.new_episodes} new episodes, {result.duplicates} duplicates,"
        f" {result.forgotten} forgotten, {result.restated} restated"
    )
    backend.append_log(stamp, "ingest", hashlib.sha256(b"".join(keys)).digest(), detail)


def _take(iterator: Iterator[MemoryRecord], count: int) -> tuple[list[MemoryRecord], BaseException | None]:
    """Up to `count` records, and the error that stopped the iterator early, if one did.

    The records are often compiled lazily, so a failure must not lose the ones already made.
    """
    batch: list[MemoryRecord] = []
    try:
        for _ in range(count):
            batch.append(next(iterator))
    except StopIteration:
        pass
    except BaseException as error:
        return batch, error
    return batch, None
