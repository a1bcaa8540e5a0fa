"""Spec §7 hashing: the test vectors, determinism, and four hash types that never mix."""

from __future__ import annotations

import pickle

import pytest

import zerolang.memory as memory
from zerolang.knowledge.hashing import context_hash_of, context_text, fact_text
from zerolang.memory import (
    ConceptHash,
    ContextHash,
    ContextMeta,
    EpisodeHash,
    FactHash,
    RelationNode,
    concept_hash,
    context_hash,
    episode_hash,
    fact_hash,
)
from zerolang.runtime.values import Hash
from zerolang.util.errors import ZeroError

from .conftest import AGENT, CONTEXT, EPISODE, FACT, LTM, SPEC_CONTEXT


def test_spec_vectors() -> None:
    assert str(concept_hash("agent")) == AGENT
    assert str(concept_hash("long-term-memory")) == LTM
    fact = fact_hash("agent", "needs", "long-term-memory")
    assert str(fact) == FACT
    context = context_hash(SPEC_CONTEXT)
    assert str(context) == CONTEXT
    assert str(episode_hash(fact, context)) == EPISODE


def test_the_functions_are_exported_from_the_package() -> None:
    for name in ("concept_hash", "fact_hash", "context_hash", "episode_hash"):
        assert callable(getattr(memory, name))
        assert name in memory.__all__


def test_hashed_texts() -> None:
    assert fact_text("agent", "needs", "long-term-memory") == "agent|needs|long-term-memory"
    assert context_text("2026-02-18T00:00:00Z", "user_prompt", "0-memory_design") == (
        "2026-02-18T00:00:00Z|user_prompt|0-memory_design"
    )
    assert context_hash_of("2026-02-18T00:00:00Z", "user_prompt", "0-memory_design") == context_hash(
        SPEC_CONTEXT
    )


def test_determinism_and_distinctness() -> None:
    assert concept_hash("agent") == concept_hash("agent")
    assert concept_hash("agent") != concept_hash("agents")
    assert fact_hash("a", "p", "b") != fact_hash("b", "p", "a")
    # the fact hash ignores the context; the episode hash does not
    other = context_hash(ContextMeta("2026-02-19T00:00:00Z", "user_prompt", "0-memory_design"))
    fact = fact_hash("agent", "needs", "long-term-memory")
    assert episode_hash(fact, context_hash(SPEC_CONTEXT)) != episode_hash(fact, other)
    # context fields outside the hash do not change it
    richer = ContextMeta(SPEC_CONTEXT.event_time, SPEC_CONTEXT.source, SPEC_CONTEXT.scope, "agent-1", "s-1")
    assert context_hash(richer) == context_hash(SPEC_CONTEXT)


def test_labels_are_hashed_as_given_not_normalised() -> None:
    assert concept_hash("Agent") != concept_hash("agent")
    assert concept_hash("é") == ConceptHash.of("é".encode())


def test_hash_types_are_distinct_and_never_equal_across_types() -> None:
    digest = bytes.fromhex(AGENT)
    concept, fact = ConceptHash(digest), FactHash(digest)
    assert concept != fact
    assert len({concept, fact, ContextHash(digest), EpisodeHash(digest)}) == 4
    assert concept == ConceptHash.from_hex(AGENT.upper())
    assert {concept: 1}[ConceptHash(digest)] == 1


def test_hash_text_forms() -> None:
    concept = concept_hash("agent")
    assert str(concept) == AGENT == concept.hex() == f"{concept}"
    assert concept.short() == AGENT[:12]
    assert concept.short(8) == AGENT[:8]
    assert repr(concept) == f"ConceptHash('{AGENT}')"
    assert bytes(concept) == bytes.fromhex(AGENT)
    with pytest.raises(ValueError):
        concept.short(0)
    with pytest.raises(ValueError):
        concept.short(65)


def test_hashes_are_immutable_and_validated() -> None:
    concept = concept_hash("agent")
    with pytest.raises(AttributeError, match="immutable"):
        concept.digest = b"x" * 32
    with pytest.raises(AttributeError, match="immutable"):
        concept.extra = 1
    assert pickle.loads(pickle.dumps(concept)) == concept
    assert sorted([concept_hash("b"), concept_hash("a")])[0] == min(concept_hash("a"), concept_hash("b"))
    with pytest.raises(ValueError, match="32 bytes"):
        ConceptHash(b"short")
    with pytest.raises(TypeError):
        ConceptHash("d4f0" * 16)  # type: ignore[arg-type]
    with pytest.raises(ZeroError, match="64 hex digits"):
        FactHash.from_hex("xyz")
    # a runtime Hash value (bytes subclass) converts to a plain digest
    converted = ConceptHash(Hash(bytes.fromhex(AGENT)))
    assert type(converted.digest) is bytes and converted == concept


def test_a_fact_hash_is_never_accepted_where_another_hash_is_expected() -> None:
    fact = fact_hash("agent", "needs", "long-term-memory")
    context = context_hash(SPEC_CONTEXT)
    concept = concept_hash("agent")
    with pytest.raises(TypeError, match="fact hash must be a FactHash, not ConceptHash"):
        episode_hash(concept, context)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="context hash must be a ContextHash, not FactHash"):
        episode_hash(fact, fact)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="subject_hash must be a ConceptHash, not FactHash"):
        RelationNode(
            fact_hash=fact,
            episode_hash=episode_hash(fact, context),
            subject_hash=fact,  # type: ignore[arg-type]
            predicate="needs",
            object_hash=concept,
            confidence=1.0,
            context_hash=context,
            created_at="2026-01-01T00:00:00.000Z",
        )
    with pytest.raises(TypeError):
        concept_hash(b"agent")  # type: ignore[arg-type]
