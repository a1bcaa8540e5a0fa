"""`Snapshot`: what a `.0c` document, a level or a delta holds, and how stores read and write it.

A `MemoryRecord` has one context; a store has many, and a concept is shared
by all of them. A snapshot is the common shape: concepts once, contexts, and
relations (episodes) pointing at both, and the settings the store declared
(`Declaration` rows, e.g. `single-valued works_at`), which say what its writes
mean. A record is a snapshot with one context and no declarations; a store
reads as one in a canonical order, so two stores holding the same memory give
equal snapshots.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from zerolang.knowledge import temporal
from zerolang.knowledge.backend import Declaration
from zerolang.knowledge.formats.tombstones import Tombstone, apply_tombstones, read_tombstones
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.types import (
    ConceptNode,
    ContextHash,
    ContextNode,
    MemoryRecord,
    RelationNode,
)
from zerolang.util.errors import ZeroError


@dataclass(frozen=True, slots=True)
class Context:
    """A context and when the store first saw it (None for a bare record, which does not say)."""

    node: ContextNode
    created_at: str | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Concepts, contexts and relations; every relation names a held concept and context.

    `declarations`: the settings declared and undeclared, in the order the store recorded them.
    `tombstones`: what the store forgot (`zerolang.knowledge.formats.tombstones`), oldest first.
    """

    concepts: tuple[ConceptNode, ...]
    contexts: tuple[Context, ...]
    relations: tuple[RelationNode, ...]
    declarations: tuple[Declaration, ...] = ()
    tombstones: tuple[Tombstone, ...] = ()

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
        if self.declarations:
            raise ValueError("a record holds no declarations; this document declares settings")
        return MemoryRecord(self.concepts, self.relations, self.contexts[0].node)

    def to_records(self) -> list[MemoryRecord]:
        """One record per context, with the concepts its relations mention: what a store ingests.

        The relation stored with the context's time goes first, because the
        store dates a new context by its record's first relation.
        """
        by_context: dict[ContextHash, list[RelationNode]] = {c.node.hash: [] for c in self.contexts}
        for relation in self.relations:
            by_context[relation.context_hash].append(relation)
        rank = {c.hash: index for index, c in enumerate(self.concepts)}  # one look-up per mention: linear
        records = []
        for context in self.contexts:
            relations = _first_dated(by_context[context.node.hash], context.created_at)
            if not relations:
                continue
            mentioned = {r.subject_hash for r in relations} | {r.object_hash for r in relations}
            concepts = tuple(self.concepts[index] for index in sorted(rank[key] for key in mentioned))
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

    What `zero query ... as L0|L1|L2` prints: the results as a document of their own, with the
    declarations about their predicates.
    """
    return _read(store, list(dict.fromkeys(facts)))


def _read(store: MemoryStore, facts: list[bytes] | None) -> Snapshot:
    backend = store.backend  # bulk scans in hash order: one pass per table, whatever the backend
    relations = list(backend.scan_relations(facts))
    if facts is None:
        concepts = list(backend.scan_concepts())
        contexts = [Context(node, at) for node, at in backend.scan_contexts()]
    else:
        wanted = {r.subject_hash.digest for r in relations} | {r.object_hash.digest for r in relations}
        concepts = list(backend.concepts(sorted(wanted)).values())
        found = backend.contexts(sorted({r.context_hash.digest for r in relations}))
        contexts = [Context(node, at) for node, at in found.values()]
    concepts.sort(key=lambda c: (c.created_at, c.hash.digest))
    contexts.sort(key=lambda c: (c.created_at or "", c.node.hash.digest))
    declarations = backend.declarations()
    if facts is not None:
        predicates = {r.predicate for r in relations}
        declarations = [d for d in declarations if d.value in predicates]
    ordered = _ordered(relations, tuple(concepts), tuple(contexts))
    forgotten = read_tombstones(backend) if facts is None else ()
    return Snapshot(tuple(concepts), tuple(contexts), ordered, tuple(declarations), forgotten)


def _ordered(
    relations: Iterable[RelationNode], concepts: tuple[ConceptNode, ...], contexts: tuple[Context, ...]
) -> tuple[RelationNode, ...]:
    concept_rank = {c.hash: index for index, c in enumerate(concepts)}
    context_rank = {c.node.hash: index for index, c in enumerate(contexts)}
    return tuple(
        sorted(
            relations,
            key=lambda r: (
                context_rank[r.context_hash],
                concept_rank[r.subject_hash],
                r.created_at,
                r.episode_hash.digest,
            ),
        )
    )


def write_store(store: MemoryStore, snapshot: Snapshot) -> None:
    """Insert the snapshot into the store, all or nothing (hashes verified).

    The tombstones the store lacks are recorded before the content, so what the source forgot
    stays out of this store too. The declarations the store lacks come first, in time order,
    each told at its own store time (`temporal.declare`: one that changes nothing is not
    recorded), so the relations are stored under the meaning their source gave them and the
    store's own settings (a new store's pyproject.toml) are not adopted over them. The relations
    keep their store times: in a store that declares anything, the history of the facts with
    periods is then recorded again from the whole log (`temporal.rederive`), so `known at` a time
    between two of them answers as the source did, not as if all had been told at the last one.
    """
    erased = False
    with store.transaction():
        if snapshot.declarations:
            store.keep_own_settings()  # the document carries its meaning: not the folder's
        declared = declare(store, snapshot.declarations)
        _, erased = apply_tombstones(store, snapshot.tombstones)  # before the content: it stays out
        inserted = store.insert_records(snapshot.to_records())
        if (declared or inserted.new_episodes) and store.backend.declarations():
            temporal.rederive(store.backend)
    if erased:
        store.backend.erase_freed()


def declare(store: MemoryStore, declarations: Iterable[Declaration]) -> int:
    """Apply the declarations the store does not hold (same time, setting, value and sense), in
    time order; how many changed what it declares. One older than the store's latest about the
    same predicate is left out: the store's own is later, so it decides what holds now (and the
    rows stay in time order, whichever replica received what first). ZeroError for a setting
    this reader does not know."""
    held = store.backend.declarations()
    latest: dict[tuple[str, str], str] = {}
    for row in held:
        key = (row.setting, row.value)
        latest[key] = max(latest.get(key, row.at), row.at)
    known = set(held)
    missing = sorted((d for d in dict.fromkeys(declarations) if d not in known), key=lambda d: d.at)
    changed = 0
    for row in missing:
        if row.setting != temporal.SINGLE_VALUED:
            raise ZeroError(f"unknown setting {row.setting!r} (this version knows {temporal.SINGLE_VALUED})")
        key = (row.setting, row.value)
        if row.at < latest.get(key, row.at):
            continue
        latest[key] = row.at
        changed += len(temporal.declare(store.backend, [row.value], at=row.at, remove=not row.declared))
    return changed
