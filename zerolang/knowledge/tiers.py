"""Memory tiers on the store: working, episodic, semantic, and consolidation (seed 001, V1).

The tier state lives in the backend (its `Tiers`: `working_*`, `touch`,
`semantic_*`, `prune_episodes`), in the same space as the store:

- working memory: per session, the most recent episodes, bounded (oldest evicted);
- accesses: per episode, access count and last access (`touch`);
- semantic memory: facts promoted by consolidation: Bayesian-merged confidence,
  observation count, first seen, last reinforced; the episodes already merged
  are recorded so a rerun never counts one twice.

An episode's age is measured from when the memory was last learned or used:
the later of when the store learned it (the episode's `created_at`) and its
last access (a recall or query returning it), never from its context's
`event_time` (when it happened in the world: facts about 1898 learned today
are fresh memories). Its effective confidence is
`confidence * 2^(-age / half_life)`. Every tier takes a clock (`Clock`), so
tests pin time; a clock before the episode was learned does not decay it.

Maintenance never destroys knowledge: decay prunes *episodic observations*
only. A pruned episode moves to the store's pruned log (with when and why);
the fact it supported keeps its folded confidence and observation count,
and its concepts and context stay, so a fact whose episodes all decayed is
still known, recallable and queryable, just without fresh evidence. A pruned
episode keeps its provenance (`Records.provenance_of`): its source, scope,
event time and confidence still answer `where source/scope`, `as of` and
`history`; only ranking and the tiers change.
Episodes of semantic facts are their provenance and are never pruned.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from zerolang.knowledge.backend import EpisodeRow, Records, Scans, Tiers
from zerolang.knowledge.merge import bayes_merge
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.types import EpisodeHash, FactHash
from zerolang.util.times import Clock, format_time, parse_time, system_clock

DEFAULT_HALF_LIFE = 7 * 24 * 3600.0  # seconds
DEFAULT_MIN_CONFIDENCE = 0.01
DEFAULT_WORKING_CAPACITY = 20

__all__ = ["bayes_merge"]


def decay(base: float, half_life: float, elapsed: float) -> float:
    """Exponential decay: `base` halves every `half_life` seconds; the future does not grow it."""
    return base * math.exp(-max(elapsed, 0.0) * math.log(2.0) / half_life)


def ensure_tiers(store: MemoryStore) -> MemoryStore:
    """Kept for callers of the first tier API: the tier tables are part of every schema now."""
    return store


# ---- working memory -------------------------------------------------------------------------


class WorkingMemory:
    """A bounded per-session buffer of episodes: pushing past `capacity` evicts the oldest."""

    def __init__(
        self,
        store: MemoryStore,
        session: str,
        capacity: int = DEFAULT_WORKING_CAPACITY,
        clock: Clock = system_clock,
    ) -> None:
        if capacity < 1:
            raise ValueError("working memory needs a capacity of at least 1")
        self._backend: Tiers = store.backend
        self.session = session
        self.capacity = capacity
        self._clock = clock

    def push(self, episode: EpisodeHash) -> list[EpisodeHash]:
        """Add an episode; returns the episodes evicted to stay within capacity, oldest first."""
        stamp = format_time(self._clock())
        evicted = self._backend.working_push(self.session, episode.digest, stamp, self.capacity)
        return [EpisodeHash(key) for key in evicted]

    def peek(self, n: int | None = None) -> list[EpisodeHash]:
        """The `n` most recent episodes (all when None), oldest first."""
        limit = self.capacity if n is None else n
        return [EpisodeHash(key) for key in self._backend.working_peek(self.session, limit)]

    def clear(self) -> int:
        return self._backend.working_clear(self.session)

    def __len__(self) -> int:
        return self._backend.working_size(self.session)


# ---- episodic memory ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Episode:
    """One stored episode with its decay inputs and access record."""

    episode_hash: EpisodeHash
    fact_hash: FactHash
    base_confidence: float
    event_time: str  # when it happened in the world: provenance, not age
    access_count: int
    last_access: str | None
    learned_at: str  # when the store learned it (the episode's `created_at`)

    def fresh_since(self) -> float:
        """POSIX seconds decay counts from: when it was learned or last used, whichever is later."""
        return memory_age_start(self.learned_at, self.last_access)

    def effective(self, now: float, half_life: float) -> float:
        return decay(self.base_confidence, half_life, now - self.fresh_since())

    def to_json(self) -> dict[str, object]:
        return {
            "episode_hash": str(self.episode_hash),
            "fact_hash": str(self.fact_hash),
            "confidence": self.base_confidence,
            "event_time": self.event_time,
            "learned_at": self.learned_at,
            "access_count": self.access_count,
            "last_access": self.last_access,
        }


def memory_age_start(learned_at: str, last_access: str | None) -> float:
    """When a memory's age starts (POSIX seconds): the later of when it was learned and last used."""
    start = parse_time(learned_at)
    return start if last_access is None else max(start, parse_time(last_access))


class _Episodic(Records, Scans, Tiers, Protocol):
    """What episodic memory reads and changes: a fact's episodes or all of them, accesses, pruning."""


def _episode(row: EpisodeRow) -> Episode:
    return Episode(
        EpisodeHash(row.hash),
        FactHash(row.fact_hash),
        row.confidence,
        row.event_time,
        row.access_count,
        row.last_access,
        row.created_at,
    )


class EpisodicMemory:
    """The store's episodes seen as decaying memories: effective confidence, touch, sweep.

    Sweeping prunes episodes (never facts or concepts); episodes of semantic facts are never pruned.
    """

    def __init__(
        self,
        store: MemoryStore,
        half_life: float = DEFAULT_HALF_LIFE,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        clock: Clock = system_clock,
    ) -> None:
        if half_life <= 0:
            raise ValueError("the half-life must be positive")
        self._backend: _Episodic = store.backend
        self.half_life = half_life
        self.min_confidence = min_confidence
        self._clock = clock

    def now(self) -> float:
        return self._clock().timestamp()

    def recall(self, fact: FactHash) -> list[Episode]:
        """A fact's episodes, most effective first."""
        now = self.now()
        episodes = [_episode(row) for row in self._backend.episodes_of([fact.digest])]
        return sorted(episodes, key=lambda e: (-e.effective(now, self.half_life), e.episode_hash.digest))

    def all(self) -> list[Episode]:
        return [_episode(row) for row in self._backend.scan_episodes()]

    def effective_confidence(self, episode: Episode) -> float:
        return episode.effective(self.now(), self.half_life)

    def touch(self, episodes: Iterable[EpisodeHash]) -> None:
        """One more access for each episode, at the clock's now (recall calls this)."""
        self._backend.touch([key.digest for key in episodes], format_time(self._clock()))

    def decayed(self) -> list[Episode]:
        """The episodes a sweep would prune now: decayed below `min_confidence`, semantic ones excepted."""
        now = self.now()
        candidates = [
            episode for episode in self.all() if episode.effective(now, self.half_life) < self.min_confidence
        ]
        semantic = self._backend.semantic_facts([e.fact_hash.digest for e in candidates])
        return [episode for episode in candidates if episode.fact_hash.digest not in semantic]

    def sweep(self, *, dry_run: bool = False) -> list[Episode]:
        """Prune the decayed episodes (`decayed`); returns them. `dry_run` changes nothing.

        Only the observations go (to the pruned log, with the time and the
        reason): their facts keep the confidence and observations they
        folded, and concepts and contexts stay.
        """
        doomed = self.decayed()
        if doomed and not dry_run:
            # the log says when the store changed: the wall clock (never before the episode was stored),
            # not the clock decay is measured with, which `--now` may set anywhere
            self._backend.prune_episodes(
                [episode.episode_hash.digest for episode in doomed], format_time(system_clock()), "decayed"
            )
        return doomed


# ---- semantic memory ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SemanticFact:
    fact_hash: FactHash
    confidence: float
    observations: int
    first_seen: str
    last_reinforced: str

    def to_json(self) -> dict[str, object]:
        return {
            "fact_hash": str(self.fact_hash),
            "confidence": self.confidence,
            "observations": self.observations,
            "first_seen": self.first_seen,
            "last_reinforced": self.last_reinforced,
        }


class SemanticMemory:
    """Consolidated facts by FactHash; evidence folds in by Bayesian merge."""

    def __init__(self, store: MemoryStore, clock: Clock = system_clock) -> None:
        self._backend: Tiers = store.backend
        self._clock = clock

    def store_or_merge(
        self, fact: FactHash, confidence: float, source: EpisodeHash | None = None
    ) -> SemanticFact:
        """Insert the fact (one observation) or merge `confidence` into it; `source` is merged once only."""
        self._merge(fact, confidence, source)
        found = self.get_fact(fact)
        assert found is not None
        return found

    def _merge(self, fact: FactHash, confidence: float, source: EpisodeHash | None) -> bool:
        stamp = format_time(self._clock())
        return self._backend.semantic_merge(
            fact.digest, confidence, None if source is None else source.digest, stamp
        )

    def get_fact(self, fact: FactHash) -> SemanticFact | None:
        row = self._backend.semantic_get(fact.digest)
        if row is None:
            return None
        return SemanticFact(
            FactHash(row.fact_hash), row.confidence, row.observations, row.first_seen, row.last_reinforced
        )

    def fact_count(self) -> int:
        return self._backend.semantic_count()


# ---- consolidation --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConsolidationResult:
    promoted: int  # facts newly in semantic memory
    reinforced: int  # facts already there that gained evidence
    pruned: int  # episodes pruned (their facts stay)
    pruned_episodes: tuple[Episode, ...] = ()
    promoted_facts: tuple[FactHash, ...] = ()
    dry_run: bool = False

    def to_json(self) -> dict[str, object]:
        return {"promoted": self.promoted, "reinforced": self.reinforced, "pruned": self.pruned}


def consolidate(
    store: MemoryStore,
    *,
    min_episodes: int = 3,
    min_confidence: float = 0.1,
    half_life: float = DEFAULT_HALF_LIFE,
    sweep_below: float = DEFAULT_MIN_CONFIDENCE,
    clock: Clock = system_clock,
    dry_run: bool = False,
) -> ConsolidationResult:
    """Promote facts with at least `min_episodes` episodes still above `min_confidence` after decay.

    Each surviving episode is merged into its semantic fact once (Bayesian,
    base confidence), then episodes decayed below `sweep_below` are pruned
    (their facts and concepts stay). `dry_run` reports the same numbers and changes nothing.
    """
    episodic = EpisodicMemory(store, half_life, sweep_below, clock)
    semantic = SemanticMemory(store, clock)
    now = episodic.now()
    groups: dict[FactHash, list[Episode]] = {}
    for episode in episodic.all():
        if episode.effective(now, half_life) > min_confidence:
            groups.setdefault(episode.fact_hash, []).append(episode)
    promoted: list[FactHash] = []
    reinforced = 0
    chosen = {fact: episodes for fact, episodes in sorted(groups.items()) if len(episodes) >= min_episodes}
    if dry_run:
        for fact in chosen:
            if semantic.get_fact(fact) is None:
                promoted.append(fact)
            elif not all(_merged(store, e.episode_hash) for e in chosen[fact]):
                reinforced += 1
        promoted_keys = {fact.digest for fact in promoted}
        swept = [e for e in episodic.decayed() if e.fact_hash.digest not in promoted_keys]
        return ConsolidationResult(len(promoted), reinforced, len(swept), tuple(swept), tuple(promoted), True)
    with store.transaction():
        for fact, episodes in chosen.items():
            before = semantic.get_fact(fact)
            for episode in sorted(episodes, key=lambda e: (parse_time(e.event_time), e.episode_hash.digest)):
                semantic._merge(fact, episode.base_confidence, episode.episode_hash)
            if before is None:
                promoted.append(fact)
            elif semantic.get_fact(fact) != before:
                reinforced += 1
        swept = episodic.sweep()
    return ConsolidationResult(len(promoted), reinforced, len(swept), tuple(swept), tuple(promoted))


def _merged(store: MemoryStore, episode: EpisodeHash) -> bool:
    """Whether an episode's evidence is already in semantic memory (a dry run asks, changes nothing)."""
    return store.backend.semantic_merged(episode.digest)
