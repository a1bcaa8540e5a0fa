"""`MemoryStore`: compiled memory records in SQLite, content-addressed, deduplicated, checkable.

The data model (seed 001, M6), one table per kind, every key a raw 32-byte hash:

- `concepts`  by ConceptHash: label, confidence, created_at, updated_at;
  `concept_aliases` holds the other spellings each concept was written as;
- `contexts`  by ContextHash: event_time, source, scope and the optional fields;
- `facts`     by FactHash: subject, predicate, object, the folded confidence
  and the number of observations;
- `episodes`  by EpisodeHash: one observation of a fact in a context.

The merge rules, applied per record:

- **Episodes** are stored once: a relation whose EpisodeHash is already
  stored is a *duplicate* and changes nothing, so re-ingesting an input is a
  no-op (timestamps included).
- **Facts**: the first episode of a fact sets its confidence; each further
  new episode folds in as `1 - (1 - old) * (1 - new)` (independent evidence)
  and adds one observation.
- **Concepts** are deduplicated by ConceptHash. A concept that a *new*
  episode mentions again keeps the higher of its stored and incoming
  confidence, gains the record's new spellings as aliases (first-seen order,
  never removed), and its `updated_at` moves to the record's time if later.
  `created_at` never changes.
- **Contexts** are stored once by ContextHash; the first stored one keeps
  its optional fields (they are not part of the hash).

Every record is atomic: `insert_records` applies a batch of records with one
statement per table and commits it as one transaction; if the batch fails it
is replayed record by record (a savepoint each), so the records before the
culprit are kept. A killed process keeps every committed batch, and a rerun
skips those records as duplicates and completes the rest.

Dates are the records' (`compile_record(now=...)`; one per ingest): UTC ISO
8601 with milliseconds and `Z`, one fixed format, so they compare as text.
"""

from __future__ import annotations

import builtins
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from zerolang.errors import ZeroError
from zerolang.memory.check import Problem
from zerolang.memory.hashing import concept_hash
from zerolang.memory.normalize import AliasTable, normalize_label
from zerolang.memory.types import (
    HEX_DIGEST,
    ConceptHash,
    ConceptNode,
    ContextHash,
    ContextMeta,
    ContextNode,
    EpisodeHash,
    Fact,
    FactHash,
    MemoryRecord,
    RelationNode,
    require_type,
)

SCHEMA_VERSION = 1
APPLICATION_ID = 0x5A4D454D  # "ZMEM": marks the file as a zerolang memory database
DEFAULT_BATCH_SIZE = 1000
IN_CHUNK = 500  # hashes per `IN (...)` query, well under SQLite's variable limit


def chunks(keys: Sequence[bytes], size: int = IN_CHUNK) -> Iterator[tuple[Sequence[bytes], str]]:
    """`keys` in slices for `IN (...)`, each with its `?,?,...` placeholders."""
    for start in range(0, len(keys), size):
        chunk = keys[start : start + size]
        yield chunk, ",".join("?" * len(chunk))


SCHEMA = """
CREATE TABLE concepts (
    hash        BLOB PRIMARY KEY CHECK (length(hash) = 32),
    label       TEXT NOT NULL,
    confidence  REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE concept_aliases (
    id           INTEGER PRIMARY KEY,
    concept_hash BLOB NOT NULL REFERENCES concepts (hash),
    alias        TEXT NOT NULL,
    alias_key    TEXT NOT NULL,
    UNIQUE (concept_hash, alias)
);
CREATE INDEX concept_aliases_by_key ON concept_aliases (alias_key);
CREATE TABLE contexts (
    hash        BLOB PRIMARY KEY CHECK (length(hash) = 32),
    event_time  TEXT NOT NULL,
    source      TEXT NOT NULL,
    scope       TEXT NOT NULL,
    agent_id    TEXT,
    session_id  TEXT,
    metadata    TEXT NOT NULL DEFAULT '{}',
    created_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE facts (
    hash          BLOB PRIMARY KEY CHECK (length(hash) = 32),
    subject_hash  BLOB NOT NULL REFERENCES concepts (hash),
    predicate     TEXT NOT NULL,
    object_hash   BLOB NOT NULL REFERENCES concepts (hash),
    confidence    REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    observations  INTEGER NOT NULL CHECK (observations > 0),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX facts_by_subject ON facts (subject_hash);
CREATE INDEX facts_by_object ON facts (object_hash);
CREATE TABLE episodes (
    hash          BLOB PRIMARY KEY CHECK (length(hash) = 32),
    fact_hash     BLOB NOT NULL REFERENCES facts (hash),
    context_hash  BLOB NOT NULL REFERENCES contexts (hash),
    confidence    REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    created_at    TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX episodes_by_fact ON episodes (fact_hash);
"""

_INSERT_CONCEPT = (
    "INSERT INTO concepts (hash, label, confidence, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
)
_MERGE_CONCEPT = """
UPDATE concepts SET confidence = max(confidence, ?), updated_at = max(updated_at, ?) WHERE hash = ?
"""
_INSERT_ALIAS = "INSERT OR IGNORE INTO concept_aliases (concept_hash, alias, alias_key) VALUES (?, ?, ?)"
_INSERT_CONTEXT = """
INSERT OR IGNORE INTO contexts (hash, event_time, source, scope, agent_id, session_id, metadata, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
"""
_INSERT_FACT = """
INSERT INTO facts
    (hash, subject_hash, predicate, object_hash, confidence, observations, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, 1, ?, ?)
"""
_FOLD_FACT = """
UPDATE facts SET
    confidence = 1.0 - (1.0 - confidence) * (1.0 - ?),
    observations = observations + 1,
    updated_at = max(updated_at, ?)
WHERE hash = ?
"""
_INSERT_EPISODE = (
    "INSERT INTO episodes (hash, fact_hash, context_hash, confidence, created_at) VALUES (?, ?, ?, ?, ?)"
)

_RELATION_COLUMNS = """
    e.hash, e.fact_hash, f.subject_hash, f.predicate, f.object_hash,
    e.confidence, e.context_hash, e.created_at
"""
_FACT_COLUMNS = """
    f.hash, f.subject_hash, f.predicate, f.object_hash,
    f.confidence, f.observations, f.created_at, f.updated_at
"""


# ---- results --------------------------------------------------------------------------------


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
class Progress:
    """Where a batch insert is: records applied, records committed (durable), totals so far."""

    done: int
    committed: int
    totals: InsertResult


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
class Observation:
    """One episode of a fact with the context it was observed in, as `get` shows it."""

    episode_hash: EpisodeHash
    context_hash: ContextHash
    confidence: float
    event_time: str
    source: str
    scope: str
    created_at: str

    def to_json(self) -> dict[str, object]:
        return {
            "episode_hash": str(self.episode_hash),
            "context_hash": str(self.context_hash),
            "confidence": self.confidence,
            "event_time": self.event_time,
            "source": self.source,
            "scope": self.scope,
        }


@dataclass(frozen=True, slots=True)
class FactView:
    """A fact with its subject and object as labels, and its episodes oldest first."""

    fact: Fact
    subject: str
    object: str
    episodes: tuple[Observation, ...]

    def to_json(self) -> dict[str, builtins.object]:
        return {
            "fact_hash": str(self.fact.fact_hash),
            "subject": self.subject,
            "predicate": self.fact.predicate,
            "object": self.object,
            "confidence": self.fact.confidence,
            "observations": self.fact.observations,
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


class MemoryStore:
    """A 0-memory database: a SQLite file (WAL, foreign keys on) or `:memory:`.

    `create=False` refuses to create a missing file, so a read-only command
    with a mistyped `--db` says so instead of making an empty database.
    """

    def __init__(self, path: str | Path = ":memory:", *, create: bool = True) -> None:
        self.path = str(path)
        in_memory = self.path == ":memory:"
        if not in_memory and not create and not Path(self.path).is_file():
            raise ZeroError(f"{self.path}: no memory database here (ingest something first, or pass --db)")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as error:
            raise ZeroError(f"{self.path}: cannot open the memory database ({error})") from None
        try:
            self._setup(in_memory)
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise ZeroError(f"{self.path}: not a usable memory database ({error})") from None
        except ZeroError:
            self._db.close()
            raise

    def _setup(self, in_memory: bool) -> None:
        db = self._db
        db.execute("PRAGMA busy_timeout = 5000")
        if not in_memory:
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA temp_store = MEMORY")
        db.execute("PRAGMA cache_size = -65536")  # 64 MiB
        version = db.execute("PRAGMA user_version").fetchone()[0]
        application = db.execute("PRAGMA application_id").fetchone()[0]
        if version == 0:
            tables = db.execute("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").fetchone()[0]
            if tables:
                raise ZeroError(f"{self.path}: a SQLite database, but not a zerolang memory database")
            with self.transaction():
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif application != APPLICATION_ID:
            raise ZeroError(f"{self.path}: a SQLite database, but not a zerolang memory database")
        elif version > SCHEMA_VERSION:
            raise ZeroError(
                f"{self.path}: made by a newer zerolang (schema {version}, this one reads {SCHEMA_VERSION})"
            )

    # ---- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        self._db.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemoryStore({self.path!r})"

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (BEGIN IMMEDIATE: take the write lock up front, never upgrade)."""
        if self._db.in_transaction:
            raise RuntimeError("a transaction is already open")
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ---- writing ----------------------------------------------------------------------------

    def insert_record(self, record: MemoryRecord, *, verify: bool = True) -> InsertResult:
        """Apply one record atomically: all of it or, on any error, none of it.

        `verify` recomputes its hashes first (`MemoryRecord.verify`); ingest
        skips that for the records it has just compiled.
        """
        require_type(record, MemoryRecord, "the record")
        if verify:
            record.verify()
        return self._atomically([record])

    def insert_records(
        self,
        records: Iterable[MemoryRecord],
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        progress: Callable[[Progress], None] | None = None,
        verify: bool = True,
    ) -> InsertResult:
        """Apply records in order, one transaction per `batch_size` records (`verify`: as `insert_record`).

        A batch is applied with one statement per table (the fast path); if it
        fails, it is rolled back and replayed record by record, each atomic, so
        the records before the culprit are committed and its error is raised.
        `progress` sees each batch applied (`done`) and then committed.
        Nothing finished is ever thrown away: a killed process loses only the
        batch it was in the middle of, and a rerun skips what was committed.
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        totals = InsertResult()
        done = 0
        iterator = iter(records)
        while True:
            batch, failure = _take(iterator, batch_size)
            for record in batch:
                require_type(record, MemoryRecord, "a record")
                if verify:
                    record.verify()
            if batch:
                totals += self._commit_batch(batch)
                done += len(batch)
                if progress is not None:
                    progress(Progress(done, done - len(batch), totals))
                self._db.execute("COMMIT")
                if progress is not None:
                    progress(Progress(done, done, totals))
            if failure is not None:
                raise failure
            if len(batch) < batch_size:
                return totals

    def _commit_batch(self, batch: list[MemoryRecord]) -> InsertResult:
        """Apply a batch inside an open transaction (left open for the caller to commit)."""
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("SAVEPOINT batch")
        try:
            result = self._apply(batch)
        except Exception:
            self._db.execute("ROLLBACK TO batch")
            self._db.execute("RELEASE batch")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        else:
            self._db.execute("RELEASE batch")
            return result
        result = InsertResult()
        for record in batch:  # find the culprit; keep the records before it
            try:
                result += self._atomically([record])
            except Exception:
                self._db.execute("COMMIT")
                raise
        return result

    def _atomically(self, records: list[MemoryRecord]) -> InsertResult:
        """`_apply` in its own transaction, or in a savepoint of the open one."""
        if not self._db.in_transaction:
            with self.transaction():
                return self._apply(records)
        self._db.execute("SAVEPOINT record")
        try:
            result = self._apply(records)
        except BaseException:
            self._db.execute("ROLLBACK TO record")
            self._db.execute("RELEASE record")
            raise
        self._db.execute("RELEASE record")
        return result

    def _apply(self, records: list[MemoryRecord]) -> InsertResult:
        """The merge rules of the module docstring for records in order, one statement per table.

        The result is the same as applying the records one by one: a relation is
        fresh unless its episode is stored or came earlier in `records`, and a
        record merges only the concepts its fresh relations mention.
        """
        stored = self._existing("episodes", [r.episode_hash.digest for rec in records for r in rec.relations])
        fresh: dict[bytes, RelationNode] = {}
        touched: list[tuple[MemoryRecord, set[ConceptHash]]] = []
        duplicates = 0
        for record in records:
            mentioned: set[ConceptHash] = set()
            for relation in record.relations:
                key = relation.episode_hash.digest
                if key in stored or key in fresh:
                    duplicates += 1
                    continue
                fresh[key] = relation
                mentioned.add(relation.subject_hash)
                mentioned.add(relation.object_hash)
            if mentioned:
                touched.append((record, mentioned))
        if not fresh:
            return InsertResult(duplicates=duplicates)
        new_concepts = self._merge_concepts(touched)
        self._insert_contexts([record for record, _ in touched])
        new_facts = self._merge_facts(fresh.values())
        self._db.executemany(
            _INSERT_EPISODE,
            sorted(
                (key, r.fact_hash.digest, r.context_hash.digest, r.confidence, r.created_at)
                for key, r in fresh.items()
            ),
        )
        return InsertResult(new_concepts, new_facts, len(fresh), duplicates)

    def _merge_concepts(self, touched: list[tuple[MemoryRecord, set[ConceptHash]]]) -> int:
        """Insert the new concepts, merge the known ones; returns how many were new.

        Mentions are folded in Python first (highest confidence, latest update,
        aliases in first-seen order), and a known concept is written only when
        the merge changes it, so re-mentions within an ingest cost no writes.
        """
        merged: dict[bytes, _ConceptMerge] = {}
        for record, mentioned in touched:
            for concept in record.concepts:
                if concept.hash in mentioned:
                    entry = merged.get(concept.hash.digest)
                    if entry is None:
                        merged[concept.hash.digest] = _ConceptMerge(concept)
                    else:
                        entry.add(concept)
        known = self._stored_concepts(list(merged))
        inserts: list[tuple[bytes, str, float, str, str]] = []
        updates: list[tuple[float, str, bytes]] = []
        aliases: list[tuple[bytes, str, str]] = []
        for key, entry in merged.items():
            stored = known.get(key)
            if stored is None:
                inserts.append((key, entry.label, entry.confidence, entry.created_at, entry.updated_at))
            elif entry.confidence > stored[0] or entry.updated_at > stored[1]:
                updates.append((entry.confidence, entry.updated_at, key))
            aliases.extend((key, alias, normalize_label(alias)) for alias in entry.aliases)
        if inserts:
            inserts.sort()
            self._db.executemany(_INSERT_CONCEPT, inserts)
        if updates:
            self._db.executemany(_MERGE_CONCEPT, updates)
        if aliases:
            self._db.executemany(_INSERT_ALIAS, aliases)
        return len(inserts)

    def _insert_contexts(self, records: list[MemoryRecord]) -> None:
        rows = []
        for record in records:
            meta = record.context.meta
            metadata = json.dumps(dict(meta.metadata), ensure_ascii=False, sort_keys=True)
            created_at = record.relations[0].created_at
            row = (record.context.hash.digest, meta.event_time, meta.source, meta.scope)
            rows.append((*row, meta.agent_id, meta.session_id, metadata, created_at))
        self._db.executemany(_INSERT_CONTEXT, rows)

    def _merge_facts(self, relations: Iterable[RelationNode]) -> int:
        """Insert each new fact once, fold every further episode into it; returns how many were new."""
        ordered = list(relations)
        known = self._existing("facts", list(dict.fromkeys(r.fact_hash.digest for r in ordered)))
        inserts: list[tuple[bytes, bytes, str, bytes, float, str, str]] = []
        folds: list[tuple[float, str, bytes]] = []
        for r in ordered:
            key = r.fact_hash.digest
            if key in known:
                folds.append((r.confidence, r.created_at, key))
            else:
                known.add(key)
                inserts.append(
                    (
                        key,
                        r.subject_hash.digest,
                        r.predicate,
                        r.object_hash.digest,
                        r.confidence,
                        r.created_at,
                        r.created_at,
                    )
                )
        if inserts:
            inserts.sort()  # key order: the B-tree pages are visited in order, not at random
            self._db.executemany(_INSERT_FACT, inserts)
        if folds:
            self._db.executemany(_FOLD_FACT, folds)
        return len(inserts)

    def _stored_concepts(self, keys: Sequence[bytes]) -> dict[bytes, tuple[float, str]]:
        """(confidence, updated_at) of those of `keys` already stored."""
        found: dict[bytes, tuple[float, str]] = {}
        for chunk, marks in chunks(keys):
            query = f"SELECT hash, confidence, updated_at FROM concepts WHERE hash IN ({marks})"
            found.update((row[0], (row[1], row[2])) for row in self._db.execute(query, chunk))
        return found

    def _existing(self, table: str, keys: Sequence[bytes]) -> set[bytes]:
        """Which of `keys` are already stored in `table`."""
        found: set[bytes] = set()
        for chunk, marks in chunks(keys):
            rows = self._db.execute(f"SELECT hash FROM {table} WHERE hash IN ({marks})", chunk)
            found.update(row[0] for row in rows)
        return found

    # ---- reading ----------------------------------------------------------------------------

    def get_concept(self, concept: ConceptHash) -> ConceptNode | None:
        require_type(concept, ConceptHash, "the concept hash")
        row = self._db.execute(
            "SELECT label, confidence, created_at, updated_at FROM concepts WHERE hash = ?", (concept.digest,)
        ).fetchone()
        if row is None:
            return None
        aliases = self._db.execute(
            "SELECT alias FROM concept_aliases WHERE concept_hash = ? ORDER BY id", (concept.digest,)
        )
        return ConceptNode(concept, row[0], tuple(alias for (alias,) in aliases), row[1], row[2], row[3])

    def get_concept_by_label(self, label: str, aliases: AliasTable | None = None) -> ConceptNode | None:
        """The concept `label` names: normalised and alias-resolved, else a spelling seen at ingest."""
        table = aliases if aliases is not None else AliasTable.default()
        resolved = table.resolve(label)
        if not resolved:
            return None
        found = self.get_concept(concept_hash(resolved))
        if found is not None:
            return found
        row = self._db.execute(
            "SELECT concept_hash FROM concept_aliases WHERE alias_key = ? ORDER BY id LIMIT 1",
            (normalize_label(label),),
        ).fetchone()
        return None if row is None else self.get_concept(ConceptHash(row[0]))

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
        rows = self._db.execute(
            "SELECT hash FROM concepts WHERE hash BETWEEN ? AND ? ORDER BY hash LIMIT 6", (low, high)
        ).fetchall()
        if len(rows) > 1:
            shown = ", ".join(row[0].hex()[:12] for row in rows[:5])
            raise ZeroError(f"hash prefix {query} is ambiguous: {shown}{', ...' if len(rows) > 5 else ''}")
        return self.get_concept(ConceptHash(rows[0][0])) if rows else None

    def get_relations(self, concept: ConceptHash) -> list[RelationNode]:
        """Every episode of every fact the concept is the subject or the object of."""
        require_type(concept, ConceptHash, "the concept hash")
        rows = self._db.execute(
            f"""
            SELECT {_RELATION_COLUMNS} FROM facts f JOIN episodes e ON e.fact_hash = f.hash
            WHERE f.subject_hash = ?1
            UNION ALL
            SELECT {_RELATION_COLUMNS} FROM facts f JOIN episodes e ON e.fact_hash = f.hash
            WHERE f.object_hash = ?1 AND f.subject_hash <> ?1
            ORDER BY 8, 1
            """,
            (concept.digest,),
        )
        return [_relation(row) for row in rows]

    def get_relations_by_fact(self, fact: FactHash) -> list[RelationNode]:
        """Every episode of one fact, oldest first."""
        require_type(fact, FactHash, "the fact hash")
        rows = self._db.execute(
            f"""
            SELECT {_RELATION_COLUMNS} FROM facts f JOIN episodes e ON e.fact_hash = f.hash
            WHERE f.hash = ? ORDER BY e.created_at, e.hash
            """,
            (fact.digest,),
        )
        return [_relation(row) for row in rows]

    def get_fact(self, fact: FactHash) -> Fact | None:
        require_type(fact, FactHash, "the fact hash")
        row = self._db.execute(
            f"SELECT {_FACT_COLUMNS} FROM facts f WHERE f.hash = ?", (fact.digest,)
        ).fetchone()
        return None if row is None else _fact(row)

    def get_facts(self, concept: ConceptHash) -> list[Fact]:
        """The facts a concept is the subject or the object of, most confident first."""
        require_type(concept, ConceptHash, "the concept hash")
        rows = self._db.execute(
            f"""
            SELECT {_FACT_COLUMNS} FROM facts f WHERE f.subject_hash = ?1
            UNION ALL
            SELECT {_FACT_COLUMNS} FROM facts f WHERE f.object_hash = ?1 AND f.subject_hash <> ?1
            ORDER BY 5 DESC, 1
            """,
            (concept.digest,),
        )
        return [_fact(row) for row in rows]

    def get_context(self, context: ContextHash) -> ContextNode | None:
        require_type(context, ContextHash, "the context hash")
        row = self._db.execute(
            "SELECT event_time, source, scope, agent_id, session_id, metadata FROM contexts WHERE hash = ?",
            (context.digest,),
        ).fetchone()
        if row is None:
            return None
        meta = ContextMeta(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]))
        return ContextNode(context, meta)

    def recall(self, concept: ConceptNode) -> ConceptView:
        """The concept with its facts (labels resolved) and their episodes: two queries."""
        require_type(concept, ConceptNode, "the concept")
        key = concept.hash.digest
        facts = self._db.execute(
            f"""
            SELECT {_FACT_COLUMNS}, s.label, o.label FROM facts f
            JOIN concepts s ON s.hash = f.subject_hash JOIN concepts o ON o.hash = f.object_hash
            WHERE f.subject_hash = ?1
            UNION ALL
            SELECT {_FACT_COLUMNS}, s.label, o.label FROM facts f
            JOIN concepts s ON s.hash = f.subject_hash JOIN concepts o ON o.hash = f.object_hash
            WHERE f.object_hash = ?1 AND f.subject_hash <> ?1
            ORDER BY 5 DESC, 9, 3, 10
            """,
            (key,),
        ).fetchall()
        episodes: dict[bytes, list[Observation]] = {row[0]: [] for row in facts}
        rows = self._db.execute(
            """
            SELECT e.fact_hash, e.hash, e.context_hash, e.confidence, c.event_time, c.source, c.scope,
                   e.created_at
            FROM episodes e JOIN contexts c ON c.hash = e.context_hash
            WHERE e.fact_hash IN (SELECT hash FROM facts WHERE subject_hash = ?1
                                  UNION SELECT hash FROM facts WHERE object_hash = ?1)
            ORDER BY c.event_time, e.hash
            """,
            (key,),
        )
        for row in rows:
            observation = Observation(
                EpisodeHash(row[1]), ContextHash(row[2]), row[3], row[4], row[5], row[6], row[7]
            )
            episodes[row[0]].append(observation)
        views = tuple(FactView(_fact(row), row[8], row[9], tuple(episodes[row[0]])) for row in facts)
        return ConceptView(concept, views)

    def counts(self) -> Counts:
        row = self._db.execute(
            """
            SELECT (SELECT count(*) FROM concepts), (SELECT count(*) FROM facts),
                   (SELECT count(*) FROM episodes), (SELECT count(*) FROM contexts)
            """
        ).fetchone()
        return Counts(*row)

    def concept_count(self) -> int:
        return self.counts().concepts

    def fact_count(self) -> int:
        return self.counts().facts

    def relation_count(self) -> int:
        """Stored relations, i.e. episodes (one per observation)."""
        return self.counts().episodes

    # ---- checking ---------------------------------------------------------------------------

    def check(self) -> CheckReport:
        """Like `git fsck`: recompute every hash, resolve every reference (see `zerolang.memory.check`)."""
        from zerolang.memory.check import find_problems

        return CheckReport(tuple(find_problems(self._db)), self.counts())


class _ConceptMerge:
    """One concept's mentions within a batch, folded by the merge rule."""

    __slots__ = ("aliases", "confidence", "created_at", "label", "updated_at")

    def __init__(self, concept: ConceptNode) -> None:
        self.label = concept.label
        self.confidence = concept.confidence
        self.created_at = concept.created_at
        self.updated_at = concept.updated_at
        self.aliases = list(concept.aliases)

    def add(self, concept: ConceptNode) -> None:
        self.confidence = max(self.confidence, concept.confidence)
        self.updated_at = max(self.updated_at, concept.updated_at)
        self.aliases.extend(alias for alias in concept.aliases if alias not in self.aliases)


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


def _relation(row: Any) -> RelationNode:
    return RelationNode(
        fact_hash=FactHash(row[1]),
        episode_hash=EpisodeHash(row[0]),
        subject_hash=ConceptHash(row[2]),
        predicate=row[3],
        object_hash=ConceptHash(row[4]),
        confidence=row[5],
        context_hash=ContextHash(row[6]),
        created_at=row[7],
    )


def _fact(row: Any) -> Fact:
    return Fact(
        FactHash(row[0]),
        ConceptHash(row[1]),
        row[2],
        ConceptHash(row[3]),
        row[4],
        row[5],
        row[6],
        row[7],
    )
