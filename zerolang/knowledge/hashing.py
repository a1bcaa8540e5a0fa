"""The two-layer hashes of spec §7, byte for byte.

    ConceptHash = sha256(normalized_label)
    FactHash    = sha256(subject_label + "|" + predicate + "|" + object_label)
    ContextHash = sha256(event_time + "|" + source + "|" + scope)
    EpisodeHash = sha256(FactHash raw 32 bytes ++ ContextHash raw 32 bytes)

Strings are hashed as UTF-8, exactly as the graph's `Hash` op does, so the
compiled graph recomputes the first three itself. The functions hash what
they are given: normalising is the caller's job (`zerolang.knowledge.normalize`),
because hashing a label twice normalised differently would be a silent bug.
"""

from __future__ import annotations

import hashlib

from zerolang.knowledge.digests import concept_digest
from zerolang.knowledge.types import (
    ConceptHash,
    ContextHash,
    ContextMeta,
    EpisodeHash,
    FactHash,
    MemoryRecord,
    require_type,
)

SEPARATOR = "|"


def concept_hash(label: str) -> ConceptHash:
    """sha256 of the (already normalised) label."""
    require_type(label, str, "a concept label")
    return ConceptHash.from_digest(concept_digest(label))


def fact_text(subject_label: str, predicate: str, object_label: str) -> str:
    """`subject|predicate|object`: what FactHash hashes (and the graph's `Concat` builds)."""
    return f"{subject_label}{SEPARATOR}{predicate}{SEPARATOR}{object_label}"


def fact_hash(subject_label: str, predicate: str, object_label: str) -> FactHash:
    """Layer 1: the fact's identity, the same in every context."""
    require_type(subject_label, str, "a subject label")
    require_type(predicate, str, "a predicate")
    require_type(object_label, str, "an object label")
    text = fact_text(subject_label, predicate, object_label)
    return FactHash.from_digest(hashlib.sha256(text.encode("utf-8")).digest())


def context_text(event_time: str, source: str, scope: str) -> str:
    """`event_time|source|scope`: what ContextHash hashes."""
    return f"{event_time}{SEPARATOR}{source}{SEPARATOR}{scope}"


def context_hash(context: ContextMeta) -> ContextHash:
    """The hash of a context's event time, source and scope (its other fields do not count)."""
    require_type(context, ContextMeta, "a context")
    return context_hash_of(context.event_time, context.source, context.scope)


def context_hash_of(event_time: str, source: str, scope: str) -> ContextHash:
    """`context_hash` from the three strings, for stored contexts and test vectors."""
    text = context_text(event_time, source, scope)
    return ContextHash.from_digest(hashlib.sha256(text.encode("utf-8")).digest())


def episode_hash(fact: FactHash, context: ContextHash) -> EpisodeHash:
    """Layer 2: one observation of `fact` in `context`, over the two raw digests.

    No graph can compute this one: the `Hash` op hashes a Hash input as its
    JSON text, not its bytes, so the compiler computes it here and the graph
    carries it as a constant.
    """
    require_type(fact, FactHash, "the fact hash")
    require_type(context, ContextHash, "the context hash")
    return EpisodeHash.from_digest(hashlib.sha256(fact.digest + context.digest).digest())


def verify_record(record: MemoryRecord) -> None:
    """Recompute every hash (spec §7); a ValueError names the first that does not match."""
    if context_hash(record.context.meta) != record.context.hash:
        raise ValueError("the context hash does not match the context")
    labels: dict[ConceptHash, str] = {}
    for concept in record.concepts:
        if concept_hash(concept.label) != concept.hash:
            raise ValueError(f"concept {concept.label!r}: the hash does not match the label")
        labels[concept.hash] = concept.label
    for relation in record.relations:
        subject, obj = labels[relation.subject_hash], labels[relation.object_hash]
        if relation.fact_hash != fact_hash(subject, relation.predicate, obj):
            raise ValueError(f"relation {relation.episode_hash.short()}: fact_hash does not match")
        if relation.episode_hash != episode_hash(relation.fact_hash, relation.context_hash):
            raise ValueError(f"relation {relation.episode_hash.short()}: episode_hash does not match")
