"""Deltas: what a memory gained since a checkpoint, as `.0c` text that applies only on that checkpoint.

Knowledge only grows (episodes are added, concepts merged by max confidence,
latest update and alias union; maintenance prunes observations, never facts
or concepts, and logs what it pruned), so a delta is the new relations with their
contexts and the concepts they mention, carrying the concepts' new values;
applying it is inserting it. Declarations only grow too (rows are appended):
a delta carries the ones its base lacks, which the target applies first. A
change that growing cannot express (a removal, a confidence lowered) is refused
by `diff` rather than silently dropped.

    0M:1.0 delta base=<checkpoint hash>
    ...the additions as .0c...
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from zerolang.knowledge.backend import PrunedEpisode
from zerolang.knowledge.formats import checkpoint as checkpoints
from zerolang.knowledge.formats.checkpoint import Checkpoint
from zerolang.knowledge.formats.compact import (
    HEADER,
    derived_confidences,
    parse,
    parse_header,
    serialize,
    time_spans,
)
from zerolang.knowledge.formats.model import Snapshot, read_store, write_store
from zerolang.knowledge.formats.seal import seal
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.types import ConceptHash, ConceptNode, EpisodeHash
from zerolang.util.errors import ZeroError


class DeltaError(ZeroError):
    """A delta that cannot be made or applied; the store is left as it was."""


@dataclass(frozen=True, slots=True)
class Delta:
    """The additions to apply on the state `base` names."""

    base: str
    additions: Snapshot

    def to_text(self) -> str:
        return seal(serialize(self.additions, header=f"{HEADER} delta base={self.base}"))


def diff(old: Snapshot, new: Snapshot) -> Delta:
    """What turns `old` into `new`; DeltaError if `new` is not `old` grown."""
    old_episodes = {r.episode_hash for r in old.relations}
    missing = old_episodes - {r.episode_hash for r in new.relations}
    if missing:
        raise DeltaError(f"{len(missing)} relations of the old memory are gone: a delta only adds")
    known = {c.hash for c in old.concepts}
    had = set(old.declarations)
    if not had <= set(new.declarations):
        raise DeltaError("declarations of the old memory are gone: a delta only adds")
    additions = _additions(old_episodes, known, new)
    additions = replace(additions, declarations=tuple(d for d in new.declarations if d not in had))
    _check_growth(old, new, {c.hash: c for c in additions.concepts})
    return Delta(checkpoints.of_snapshot(old).hash, additions)


def _additions(old_episodes: set[EpisodeHash], known: set[ConceptHash], new: Snapshot) -> Snapshot:
    """The new relations, their contexts and concepts; a known concept as the merge will rebuild it.

    A concept the base already holds is carried with the values its new
    relations imply (nothing for `.0c` to spell): the store keeps its creation
    time and takes the max of the rest, which is its value in `new`.
    """
    relations = tuple(r for r in new.relations if r.episode_hash not in old_episodes)
    mentioned = {r.subject_hash for r in relations} | {r.object_hash for r in relations}
    used = {r.context_hash for r in relations}
    best = derived_confidences(relations)
    spans = time_spans(relations)
    concepts = tuple(
        replace(c, confidence=best[c.hash], created_at=spans[c.hash][0], updated_at=spans[c.hash][1])
        if c.hash in known
        else c
        for c in new.concepts
        if c.hash in mentioned
    )
    return Snapshot(concepts, tuple(c for c in new.contexts if c.node.hash in used), relations)


def _check_growth(old: Snapshot, new: Snapshot, carried: dict[ConceptHash, ConceptNode]) -> None:
    """Refuse what a store merge cannot reproduce: a concept gone, or changed other than by merging."""
    now = {c.hash: c for c in new.concepts}
    for concept in old.concepts:
        later = now.get(concept.hash)
        if later is None:
            raise DeltaError(f"concept {concept.label!r} is gone: a delta only adds")
        if later == concept:
            continue
        delta = carried.get(concept.hash)
        if delta is None or _merge(concept, delta) != later:
            raise DeltaError(f"concept {concept.label!r} changed in a way merging new facts cannot")


def _merge(old: ConceptNode, new: ConceptNode) -> ConceptNode:
    """The store's merge rule (highest confidence, latest update, aliases added in order)."""
    aliases = old.aliases + tuple(a for a in new.aliases if a not in old.aliases)
    return replace(
        old,
        aliases=aliases,
        confidence=max(old.confidence, new.confidence),
        updated_at=max(old.updated_at, new.updated_at),
    )


def since(store: MemoryStore, base: str) -> Delta:
    """What the store gained since checkpoint `base`, found among its past states by time.

    A store keeps no snapshots, but every concept and episode carries its
    creation time and every episode maintenance pruned is logged with the
    time it went, so each past state is "everything created up to t, less
    what was pruned by t": the times are tried newest first until one hashes
    to `base`. Two ingests in the same millisecond are therefore one state
    here: a checkpoint taken between them is refused as "not a past state".
    A base from before a prune is found, but refused with the reason: a delta
    only adds, so it cannot carry the removal.

    A checkpoint does not say which declarations its state had (they are not
    concepts or episodes), so the delta carries all the store's: they are few,
    and the target applies only those it lacks.
    """
    current = read_store(store)
    if checkpoints.of_snapshot(current).hash == base:
        return Delta(base, Snapshot((), (), (), current.declarations))
    pruned = store.backend.pruned()
    lifetimes: list[tuple[str, str | None, bytes]] = [
        (r.created_at, None, r.episode_hash.digest) for r in current.relations
    ]
    lifetimes += [(p.created_at, p.pruned_at, p.hash) for p in pruned]
    times = sorted({t for t, _, _ in lifetimes} | {p.pruned_at for p in pruned}, reverse=True)
    for time in times:
        episodes = [
            key for created, gone, key in lifetimes if created <= time and (gone is None or gone > time)
        ]
        concepts = [c.hash.digest for c in current.concepts if c.created_at <= time]
        if checkpoints.compute(concepts, episodes).hash == base:
            _refuse_removals(base, time, pruned)
            old = {r.episode_hash for r in current.relations if r.created_at <= time}
            known = {c.hash for c in current.concepts if c.created_at <= time}
            return Delta(base, replace(_additions(old, known, current), declarations=current.declarations))
    if checkpoints.compute([], []).hash == base:
        return Delta(base, current)
    raise DeltaError(
        f"checkpoint {base[:12]} is not a past state of this store"
        " (export the whole store instead: zero memory export without --since)"
    )


def _refuse_removals(base: str, time: str, pruned: list[PrunedEpisode]) -> None:
    """A base holding episodes pruned since cannot be brought up to date by additions."""
    gone = [p for p in pruned if p.created_at <= time < p.pruned_at]
    if not gone:
        return
    reasons = ", ".join(sorted({p.reason for p in gone}))
    last = max(p.pruned_at for p in gone)
    raise DeltaError(
        f"since checkpoint {base[:12]}, maintenance pruned {len(gone)} of its relations ({reasons},"
        f" last at {last}); a delta only adds, so it cannot carry that: export the whole store"
        " instead (zero memory export without --since) and import it into an empty store"
    )


def apply(store: MemoryStore, delta: Delta) -> Checkpoint:
    """Insert the delta if the store is at its base checkpoint; the new checkpoint.

    All or nothing: a wrong base, or any record failing verification, leaves the store unchanged.
    """
    current = checkpoints.of_store(store)
    if current.hash != delta.base:
        raise DeltaError(
            f"this delta applies on checkpoint {delta.base[:12]}, but the store is at {current.hash[:12]}"
            " (export a delta --since the store's checkpoint)"
        )
    write_store(store, delta.additions)
    return checkpoints.of_store(store)


def is_delta(text: str) -> bool:
    return parse_header(text).startswith("delta")


def parse_delta(text: str, name: str = "<delta>") -> Delta:
    """A delta's text back; ZeroError if it is not a delta or does not parse."""
    words = dict(word.partition("=")[::2] for word in parse_header(text).split()[1:])
    if not is_delta(text) or "base" not in words:
        raise DeltaError(f"{name}: not a delta (its header is not `{HEADER} delta base=CHECKPOINT`)")
    return Delta(checkpoints.parse_checkpoint(words["base"]), parse(text, name))
