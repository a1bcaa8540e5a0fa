"""The merge rules, written once: every backend plans its writes here and only executes the plan.

- **Episodes** are stored once: a relation whose EpisodeHash is already
  stored, or was pruned by maintenance (its evidence is already folded into
  its fact), or came earlier in the batch, is a *duplicate* and changes
  nothing, so re-ingesting an input is a no-op (timestamps included).
- **Facts** (Bayesian fold): the first episode of a fact sets its confidence;
  each further new episode folds in as `1 - (1 - old) * (1 - new)`
  (independent evidence) and adds one observation; `updated_at` is the latest.
- **Concepts** are deduplicated by ConceptHash. A concept that a *new*
  episode mentions again keeps the higher of its stored and incoming
  confidence, gains the record's new spellings as aliases (first-seen order,
  never removed), and its `updated_at` moves to the record's time if later.
  `created_at` never changes.
- **Tombstones** win: a relation whose episode, fact, subject or object a
  live tombstone blocks is skipped (`InsertResult.forgotten`), until `restore`.
- **Restating** a stored episode (same fact, same context) with another
  confidence gives the episode that confidence, refolds its fact and logs a
  `restated` fact event (`InsertResult.restated`); the same confidence is a duplicate.
- **Contexts** are stored once by ContextHash; the first stored one keeps its
  optional fields (they are not part of the hash): *first wins*.

A backend reads the stored state the plan needs (`Pending.episode_keys`, then
`concept_keys`/`fact_keys`) inside its write transaction, with writers to the
same space serialised, so the plan is exact under concurrency too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from zerolang.knowledge.backend import InsertResult
from zerolang.knowledge.normalize import normalize_label
from zerolang.knowledge.terms import Forgotten
from zerolang.knowledge.types import ConceptNode, MemoryRecord, RelationNode

ConceptRow = tuple[bytes, str, float, str, str]  # hash, label, confidence, created_at, updated_at
ConceptUpdate = tuple[float, str, bytes]  # confidence, updated_at, hash
AliasRow = tuple[bytes, str, str]  # concept hash, alias, alias key
ContextRow = tuple[bytes, str, str, str, str | None, str | None, str, str]
FactRow = tuple[bytes, bytes, str, bytes, float, int, str, str]
FactUpdate = tuple[float, int, str, bytes]  # confidence, observations, updated_at, hash
EpisodeRowOut = tuple[bytes, bytes, bytes, float, str]  # hash, fact, context, confidence, created_at


def bayes_merge(old: float, new: float) -> float:
    """Independent evidence: `1 - (1 - old) * (1 - new)`."""
    return 1.0 - (1.0 - old) * (1.0 - new)


def fold(confidences: Sequence[float]) -> float:
    """The confidence of a fact observed with these confidences, folded in order."""
    folded = confidences[0]
    for confidence in confidences[1:]:
        folded = bayes_merge(folded, confidence)
    return folded


@dataclass(slots=True)
class Pending:
    """Records split into fresh relations and duplicates, before the stored state is known.

    `touched` pairs each record having fresh relations with the digests of the concepts they mention.
    """

    fresh: dict[bytes, RelationNode] = field(default_factory=dict)
    touched: list[tuple[MemoryRecord, set[bytes]]] = field(default_factory=list)
    duplicates: int = 0

    def concept_keys(self) -> list[bytes]:
        keys: set[bytes] = set()
        for _, mentioned in self.touched:
            keys |= mentioned
        return sorted(keys)

    def fact_keys(self) -> list[bytes]:
        return sorted({r.fact_hash.digest for r in self.fresh.values()})


def episode_keys(records: Sequence[MemoryRecord]) -> list[bytes]:
    return sorted({r.episode_hash.digest for record in records for r in record.relations})


def relation_keys(records: Sequence[MemoryRecord]) -> list[bytes]:
    """Every key a tombstone may block in these records: episode, fact, subject and object hashes."""
    keys: set[bytes] = set()
    for record in records:
        for r in record.relations:
            keys.update(
                (r.episode_hash.digest, r.fact_hash.digest, r.subject_hash.digest, r.object_hash.digest)
            )
    return sorted(keys)


def forgotten_episodes(
    records: Sequence[MemoryRecord], stored: set[bytes], blocked: set[bytes]
) -> set[bytes]:
    """The new episodes a tombstone blocks (**a tombstone wins over a re-add**): its episode, its fact
    or one of its concepts was forgotten. They are skipped like duplicates and counted apart."""
    if not blocked:
        return set()
    found: set[bytes] = set()
    for record in records:
        for r in record.relations:
            key = r.episode_hash.digest
            if key in stored:
                continue
            if {key, r.fact_hash.digest, r.subject_hash.digest, r.object_hash.digest} & blocked:
                found.add(key)
    return found


def mentioning_episodes(
    records: Sequence[MemoryRecord], stored: set[bytes], forgotten: Forgotten
) -> set[bytes]:
    """The new episodes that mention a purged term (`zerolang.knowledge.terms`): a label or alias
    of its subject or object, its predicate, or (left when it cannot be redacted: its event time)
    a field of its context. Skipped like `forgotten_episodes`. A context that only names a term is
    redacted before (`redaction.redacted_records`), its other episodes kept."""
    if not forgotten:
        return set()
    found: set[bytes] = set()
    for record in records:
        context = forgotten.mentions_any(record.context.meta.to_json())
        named = {
            concept.hash.digest
            for concept in record.concepts
            if forgotten.mentions(concept.label, *concept.aliases)
        }
        for r in record.relations:
            key = r.episode_hash.digest
            if key in stored:
                continue
            ends = r.subject_hash.digest in named or r.object_hash.digest in named
            if context or ends or forgotten.mentions(r.predicate):
                found.add(key)
    return found


def restatements(
    records: Sequence[MemoryRecord], stored: Mapping[bytes, float]
) -> list[tuple[RelationNode, float]]:
    """Stored episodes stated again with another confidence: `(relation, old confidence)`.
    **Restating is recorded, not dropped**: the episode takes the new confidence and its fact is
    refolded. Within a batch the first statement of an episode counts, as in `pending` (the later
    ones are duplicates), so ingesting the same batch again restates nothing."""
    first: dict[bytes, RelationNode] = {}
    for record in records:
        for r in record.relations:
            if r.episode_hash.digest in stored:
                first.setdefault(r.episode_hash.digest, r)
    return [(r, stored[key]) for key, r in sorted(first.items()) if r.confidence != stored[key]]


def pending(records: Sequence[MemoryRecord], stored_episodes: set[bytes]) -> Pending:
    """The records' fresh relations (in order) and the concepts each record's fresh relations mention."""
    result = Pending()
    fresh = result.fresh
    touched = result.touched
    duplicates = 0
    for record in records:
        mentioned: set[bytes] = set()
        for relation in record.relations:
            key = relation.episode_hash.digest
            if key in stored_episodes or key in fresh:
                duplicates += 1
                continue
            fresh[key] = relation
            mentioned.add(relation.subject_hash.digest)
            mentioned.add(relation.object_hash.digest)
        if mentioned:
            touched.append((record, mentioned))
    result.duplicates = duplicates
    return result


@dataclass(slots=True)
class Plan:
    """Every row to write, each list sorted by key (B-tree pages are then visited in order)."""

    concept_inserts: list[ConceptRow] = field(default_factory=list)
    concept_updates: list[ConceptUpdate] = field(default_factory=list)
    aliases: list[AliasRow] = field(default_factory=list)
    contexts: list[ContextRow] = field(default_factory=list)
    fact_inserts: list[FactRow] = field(default_factory=list)
    fact_updates: list[FactUpdate] = field(default_factory=list)
    episodes: list[EpisodeRowOut] = field(default_factory=list)
    result: InsertResult = field(default_factory=InsertResult)


_FIRST, _LAST = itemgetter(0), itemgetter(-1)  # rows sort by their key


class _ConceptMerge:
    """A concept mentioned more than once within a batch: its mentions folded by the merge rule."""

    __slots__ = ("aliases", "confidence", "created_at", "label", "updated_at")

    def __init__(self, concept: ConceptNode) -> None:
        self.label = concept.label
        self.confidence = concept.confidence
        self.created_at = concept.created_at
        self.updated_at = concept.updated_at
        self.aliases = list(concept.aliases)

    def add(self, concept: ConceptNode) -> None:
        if concept.confidence > self.confidence:
            self.confidence = concept.confidence
        if concept.updated_at > self.updated_at:
            self.updated_at = concept.updated_at
        for alias in concept.aliases:  # usually none: a label written as it is normalised
            if alias not in self.aliases:
                self.aliases.append(alias)


def plan(
    work: Pending,
    stored_concepts: Mapping[bytes, tuple[float, str]],
    stored_facts: Mapping[bytes, tuple[float, int, str]],
) -> Plan:
    """The writes that apply `work` on a store holding these concepts (confidence, updated_at) and facts
    (confidence, observations, updated_at)."""
    out = Plan()
    if not work.fresh:
        out.result = InsertResult(duplicates=work.duplicates)
        return out
    _plan_concepts(work, stored_concepts, out)
    _plan_contexts(work, out)
    _plan_facts(work, stored_facts, out)
    out.episodes = [
        (key, r.fact_hash.digest, r.context_hash.digest, r.confidence, r.created_at)
        for key, r in work.fresh.items()
    ]
    for rows in (out.concept_inserts, out.contexts, out.fact_inserts, out.episodes):
        rows.sort(key=_FIRST)
    out.concept_updates.sort(key=_LAST)
    out.fact_updates.sort(key=_LAST)
    out.result = InsertResult(
        len(out.concept_inserts),
        len(out.fact_inserts),
        len(out.episodes),
        work.duplicates,
        fresh_episodes=frozenset(work.fresh),
        known_facts=frozenset(update[-1] for update in out.fact_updates),
    )
    return out


def _plan_concepts(work: Pending, stored_concepts: Mapping[bytes, tuple[float, str]], out: Plan) -> None:
    """Each mentioned concept once (first-seen order): inserted, or updated if it gains confidence or
    time, and its spellings as aliases. A concept seen once in the batch is its own node, unfolded."""
    merged: dict[bytes, ConceptNode | _ConceptMerge] = {}
    for record, mentioned in work.touched:
        for concept in record.concepts:
            key = concept.hash.digest
            if key in mentioned:
                entry = merged.get(key)
                if entry is None:
                    merged[key] = concept
                elif type(entry) is _ConceptMerge:
                    entry.add(concept)
                else:
                    assert type(entry) is ConceptNode
                    folded = merged[key] = _ConceptMerge(entry)
                    folded.add(concept)
    inserts, updates, aliases = out.concept_inserts, out.concept_updates, out.aliases
    for key, entry in merged.items():
        stored = stored_concepts.get(key)
        if stored is None:
            inserts.append((key, entry.label, entry.confidence, entry.created_at, entry.updated_at))
        elif entry.confidence > stored[0] or entry.updated_at > stored[1]:
            updates.append((max(entry.confidence, stored[0]), max(entry.updated_at, stored[1]), key))
        if entry.aliases:
            aliases.extend((key, alias, normalize_label(alias)) for alias in entry.aliases)


def _plan_contexts(work: Pending, out: Plan) -> None:
    seen_contexts: set[bytes] = set()
    for record, _ in work.touched:
        key = record.context.hash.digest
        if key in seen_contexts:
            continue
        seen_contexts.add(key)
        meta = record.context.meta
        metadata = json.dumps(dict(meta.metadata), ensure_ascii=False, sort_keys=True)
        created_at = record.relations[0].created_at
        out.contexts.append(
            (
                key,
                meta.event_time,
                meta.source,
                meta.scope,
                meta.agent_id,
                meta.session_id,
                metadata,
                created_at,
            )
        )


def _plan_facts(work: Pending, stored_facts: Mapping[bytes, tuple[float, int, str]], out: Plan) -> None:
    """Each fresh relation folded into its fact (stored or new), in order: `bayes_merge`, one more
    observation, the latest `updated_at`."""
    facts: dict[bytes, tuple[float, int, str]] = {}  # key -> (confidence, observations, updated_at)
    first: dict[bytes, RelationNode] = {}
    for relation in work.fresh.values():
        key = relation.fact_hash.digest
        state = facts.get(key)
        if state is None:
            state = stored_facts.get(key)
            if state is None:
                first[key] = relation
                facts[key] = (relation.confidence, 1, relation.created_at)
                continue
        confidence, observations, updated = state
        created = relation.created_at
        facts[key] = (
            bayes_merge(confidence, relation.confidence),
            observations + 1,
            created if created > updated else updated,
        )
    for key, (confidence, observations, updated) in facts.items():
        relation_first = first.get(key)
        if relation_first is None:
            out.fact_updates.append((float(confidence), observations, updated, key))
        else:
            out.fact_inserts.append(
                (
                    key,
                    relation_first.subject_hash.digest,
                    relation_first.predicate,
                    relation_first.object_hash.digest,
                    float(confidence),
                    observations,
                    relation_first.created_at,
                    updated,
                )
            )
