"""The exact scope of forgetting a label: what takes part in it goes, what only names it is redacted.

A forget or purge of a label takes the facts the label takes part in: every fact whose subject or
object is a concept whose label or an alias *mentions* a forgotten term (`zerolang.knowledge.terms`:
`Zelda's cat` mentions `Zelda`), or whose predicate does. A context (the record an episode was
learned in) that mentions a term in its source, scope, agent, session or metadata is *redacted*:
each mention becomes `terms.REDACTED`, and its other episodes stay, moved under the redacted
context with their confidence, store time, accesses and tiers (`Forgetting.redact`). A fact that
does not involve the label is never taken. One exception: an event time cannot be redacted (it is
a time), so a context whose event time mentions a term (a label made of digits) goes whole.

Nothing here writes: `mentions` and `predict` read the store, so a preview (`--dry-run`) reports
the same plan a forget applies.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from zerolang.knowledge.backend import Redaction, Removed
from zerolang.knowledge.hashing import context_hash, episode_hash
from zerolang.knowledge.redaction import redacted
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.terms import Forgotten
from zerolang.knowledge.types import ContextNode, FactHash


@dataclass(frozen=True, slots=True)
class Episode:
    """Where an episode sits: its fact, its context, and whether it is live (not pruned)."""

    fact: bytes
    context: bytes
    live: bool


def episodes(store: MemoryStore) -> dict[bytes, Episode]:
    """Every episode of the space, live and pruned, by hash."""
    found: dict[bytes, Episode] = {}
    for key, fact, context, live in store.backend.episode_places():
        found.setdefault(key, Episode(fact, context, live))
    return found


@dataclass(frozen=True, slots=True)
class Mentions:
    """What mentions the forgotten terms in a space: the episodes to take, the concepts to block, and
    the contexts to redact."""

    episodes: tuple[bytes, ...]
    concepts: tuple[bytes, ...]
    redactions: tuple[Redaction, ...]


def mentions(
    store: MemoryStore,
    forgotten: Forgotten,
    taken: Collection[bytes] = (),
    where: dict[bytes, Episode] | None = None,
) -> Mentions:
    """The episodes of the facts the terms take part in (with `taken`, already chosen), the concepts
    that mention a term, and each context that mentions one, redacted, with its other episodes."""
    backend = store.backend
    chosen = set(taken)
    if not forgotten:
        return Mentions(tuple(sorted(chosen)), (), ())
    where = episodes(store) if where is None else where
    concepts = sorted(
        node.hash.digest for node in backend.scan_concepts() if forgotten.mentions(node.label, *node.aliases)
    )
    facts = {fact.fact_hash.digest for fact in backend.facts_touching(concepts)} if concepts else set()
    facts |= _named_by_predicate(store, forgotten)
    chosen.update(key for key, episode in where.items() if episode.fact in facts)
    redactions: list[Redaction] = []
    by_context: dict[bytes, list[bytes]] = {}
    for key, episode in where.items():
        by_context.setdefault(episode.context, []).append(key)
    for node, created in backend.scan_contexts():
        if not forgotten.mentions_any(node.meta.to_json()):
            continue
        held = sorted(by_context.get(node.hash.digest, ()))
        if forgotten.mentions(node.meta.event_time):  # a time is not redacted: the context goes whole
            chosen.update(held)
            continue
        kept = [key for key in held if key not in chosen]
        meta = redacted(node.meta, forgotten)
        new = context_hash(meta)
        moves = tuple(
            (key, episode_hash(FactHash(where[key].fact), new).digest if new != node.hash else key)
            for key in kept
        )
        if kept or new == node.hash:
            redactions.append(Redaction(node.hash.digest, ContextNode(new, meta), created, moves))
    return Mentions(tuple(sorted(chosen)), tuple(concepts), tuple(redactions))


def _named_by_predicate(store: MemoryStore, forgotten: Forgotten) -> set[bytes]:
    """The facts whose predicate mentions a term."""
    from zerolang.knowledge.backend import FactFilter

    named = [predicate for predicate in store.backend.predicates() if forgotten.mentions(predicate)]
    return {
        fact.fact_hash.digest for p in named for fact in store.backend.find_facts(FactFilter(predicate=p))
    }


def predict(
    store: MemoryStore, taken: Collection[bytes], concepts: Sequence[bytes], where: dict[bytes, Episode]
) -> tuple[Removed, set[bytes]]:
    """What removing the episodes `taken` (and blocking `concepts`) takes out of the live tables, as
    `Forgetting.forget` counts it, and the concepts that go; nothing is written."""
    chosen = {key for key in taken if key in where}
    touched = {where[key].fact for key in chosen}
    kept_facts = {
        episode.fact for key, episode in where.items() if key not in chosen and episode.fact in touched
    }
    gone_facts = touched - kept_facts
    facts = store.backend.facts(sorted(gone_facts))
    ends = {fact.subject_hash.digest for fact in facts.values()} | {
        fact.object_hash.digest for fact in facts.values()
    }
    candidates = sorted(ends | set(concepts))
    used: set[bytes] = set()
    if candidates:
        for fact in store.backend.facts_touching(candidates):
            if fact.fact_hash.digest not in gone_facts:
                used.update((fact.subject_hash.digest, fact.object_hash.digest))
    stored = set(store.backend.concepts(candidates))
    gone_concepts = {key for key in candidates if key in stored and key not in used}
    contexts = {where[key].context for key in chosen}
    kept_contexts = {episode.context for key, episode in where.items() if key not in chosen}
    live = sum(1 for key in chosen if where[key].live)
    removed = Removed(len(gone_concepts), len(gone_facts), live, len(contexts - kept_contexts))
    return removed, gone_concepts


def redaction_detail(contexts: int, moved: int) -> str:
    """The log's line for a redaction: counts only, never what was redacted."""
    return f"{contexts} contexts: mentions removed, {moved} episodes re-derived"
