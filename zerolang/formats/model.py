"""`Snapshot`: what a `.0c` document, a level or a delta holds, and how stores read and write it.

A `MemoryRecord` has one context; a store has many, and a concept is shared
by all of them. A snapshot is the common shape: concepts once, contexts, and
relations (episodes) pointing at both. A record is a snapshot with one
context; a store reads as one in a canonical order, so two stores holding the
same memory give equal snapshots.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from zerolang.memory.store import MemoryStore, chunks
from zerolang.memory.types import (
    ConceptHash,
    ConceptNode,
    ContextHash,
    ContextMeta,
    ContextNode,
    EpisodeHash,
    FactHash,
    MemoryRecord,
    RelationNode,
)


@dataclass(frozen=True, slots=True)
class Context:
    """A context and when the store first saw it (None for a bare record, which does not say)."""

    node: ContextNode
    created_at: str | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Concepts, contexts and relations; every relation names a held concept and context."""

    concepts: tuple[ConceptNode, ...]
    contexts: tuple[Context, ...]
    relations: tuple[RelationNode, ...]

    def __post_init__(self) -> None:
        concepts = {concept.hash for concept in self.concepts}
        contexts = {context.node.hash for context in self.contexts}
        if len(concepts) != len(self.concepts):
            raise ValueError("a snapshot holds a concept twice")
        if len(contexts) != len(self.contexts):
            raise ValueError("a snapshot holds a context twice")
        for relation in self.relations:
            if relation.subject_hash not in concepts or relation.object_hash not in concepts:
                raise ValueError(f"relation {relation.episode_hash.short()} names a concept not held")
            if relation.context_hash not in contexts:
                raise ValueError(f"relation {relation.episode_hash.short()} names a context not held")

    @classmethod
    def of_record(cls, record: MemoryRecord) -> Snapshot:
        """The record as a one-context snapshot (`to_record` gives it back, equal)."""
        created = record.relations[0].created_at if record.relations else None
        return cls(record.concepts, (Context(record.context, created),), record.relations)

    def to_record(self) -> MemoryRecord:
        """The one-context snapshot as a record; ValueError if it has another number of contexts."""
        if len(self.contexts) != 1:
            raise ValueError(f"a record has one context; this document has {len(self.contexts)}")
        return MemoryRecord(self.concepts, self.relations, self.contexts[0].node)

    def to_records(self) -> list[MemoryRecord]:
        """One record per context, with the concepts its relations mention: what a store ingests.

        The relation stored with the context's time goes first, because the
        store dates a new context by its record's first relation.
        """
        by_context: dict[ContextHash, list[RelationNode]] = {c.node.hash: [] for c in self.contexts}
        for relation in self.relations:
            by_context[relation.context_hash].append(relation)
        records = []
        for context in self.contexts:
            relations = _first_dated(by_context[context.node.hash], context.created_at)
            if not relations:
                continue
            mentioned = {r.subject_hash for r in relations} | {r.object_hash for r in relations}
            concepts = tuple(c for c in self.concepts if c.hash in mentioned)
            records.append(MemoryRecord(concepts, tuple(relations), context.node))
        return records


def _first_dated(relations: list[RelationNode], created_at: str | None) -> list[RelationNode]:
    for index, relation in enumerate(relations):
        if relation.created_at == created_at:
            return [relation, *relations[:index], *relations[index + 1 :]]
    return relations


# ---- stores ---------------------------------------------------------------------------------


def read_store(store: MemoryStore) -> Snapshot:
    """Everything the store holds, in canonical order (concepts and contexts by time, then hash).

    Relations follow their context, grouped by subject, so `.0c` can group
    them on one line. Facts are not listed: the store derives them from episodes.
    """
    return _read(store, None)


def read_facts(store: MemoryStore, facts: Iterable[bytes]) -> Snapshot:
    """The part of the store behind `facts` (raw FactHash digests): their episodes, concepts and contexts.

    What `zero query ... as L0|L1|L2` prints: the results as a document of their own.
    """
    return _read(store, list(dict.fromkeys(facts)))


def _read(store: MemoryStore, facts: list[bytes] | None) -> Snapshot:
    db = store._db  # a bulk read: the store's per-concept API would make 10,000x slower
    rows: list[tuple[bytes, bytes, bytes, str, bytes, float, bytes, str]] = []
    episodes = (
        "SELECT e.hash, e.fact_hash, f.subject_hash, f.predicate, f.object_hash, e.confidence,"
        " e.context_hash, e.created_at FROM episodes e JOIN facts f ON f.hash = e.fact_hash"
    )
    if facts is None:
        rows = db.execute(episodes).fetchall()
    else:
        for chunk, marks in chunks(facts):
            rows += db.execute(f"{episodes} WHERE e.fact_hash IN ({marks})", chunk).fetchall()
    wanted_concepts = None if facts is None else {row[2] for row in rows} | {row[4] for row in rows}
    wanted_contexts = None if facts is None else {row[6] for row in rows}
    aliases: dict[bytes, list[str]] = {}
    for key, alias in db.execute("SELECT concept_hash, alias FROM concept_aliases ORDER BY id"):
        if wanted_concepts is None or key in wanted_concepts:
            aliases.setdefault(key, []).append(alias)
    concepts = tuple(
        ConceptNode(ConceptHash(key), label, tuple(aliases.get(key, ())), confidence, created, updated)
        for key, label, confidence, created, updated in db.execute(
            "SELECT hash, label, confidence, created_at, updated_at FROM concepts ORDER BY created_at, hash"
        )
        if wanted_concepts is None or key in wanted_concepts
    )
    contexts = tuple(
        Context(
            ContextNode(ContextHash(key), ContextMeta(time, source, scope, agent, session, json.loads(meta))),
            at,
        )
        for key, time, source, scope, agent, session, meta, at in db.execute(
            "SELECT hash, event_time, source, scope, agent_id, session_id, metadata, created_at"
            " FROM contexts ORDER BY created_at, hash"
        )
        if wanted_contexts is None or key in wanted_contexts
    )
    return Snapshot(concepts, contexts, _ordered(rows, concepts, contexts))


def _ordered(
    rows: Iterable[tuple[bytes, bytes, bytes, str, bytes, float, bytes, str]],
    concepts: tuple[ConceptNode, ...],
    contexts: tuple[Context, ...],
) -> tuple[RelationNode, ...]:
    concept_rank = {c.hash.digest: index for index, c in enumerate(concepts)}
    context_rank = {c.node.hash.digest: index for index, c in enumerate(contexts)}
    ordered = sorted(rows, key=lambda r: (context_rank[r[6]], concept_rank[r[2]], r[7], r[0]))
    return tuple(
        RelationNode(
            fact_hash=FactHash(fact),
            episode_hash=EpisodeHash(episode),
            subject_hash=ConceptHash(subject),
            predicate=predicate,
            object_hash=ConceptHash(obj),
            confidence=confidence,
            context_hash=ContextHash(context),
            created_at=created,
        )
        for episode, fact, subject, predicate, obj, confidence, context, created in ordered
    )


def write_store(store: MemoryStore, snapshot: Snapshot) -> None:
    """Insert the snapshot into the store, all or nothing (hashes verified)."""
    with store.transaction():
        for record in snapshot.to_records():
            store.insert_record(record)
