"""Memory tiers on the persistent store: working, episodic, semantic, and consolidation (seed 001, V1).

The tiers add tables beside the MVP schema instead of changing it, created
idempotently (`ensure_tiers`) the first time a tier is used. The MVP tables
and `user_version` are untouched, so a database written before the tiers
(or read by a zerolang without them) keeps working, and `check` still holds:

- `working_items`: per session, the most recent episodes, bounded (oldest evicted);
- `episode_access`: per episode, access count and last access (`touch`);
- `semantic_facts`: facts promoted by consolidation: Bayesian-merged confidence,
  observation count, first seen, last reinforced; `semantic_sources` records the
  episodes already merged so a rerun never counts one twice.

An episode's age is measured from its context's `event_time` (when it was
observed), its effective confidence is `confidence * 2^(-age / half_life)`.
Every tier takes a clock (`Clock`), so tests pin time.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from zerolang.memory.store import MemoryStore, chunks
from zerolang.memory.types import EpisodeHash, FactHash

Clock = Callable[[], datetime]
DEFAULT_HALF_LIFE = 7 * 24 * 3600.0  # seconds
DEFAULT_MIN_CONFIDENCE = 0.01
DEFAULT_WORKING_CAPACITY = 20

TIERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS working_items (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    session       TEXT NOT NULL,
    episode_hash  BLOB NOT NULL CHECK (length(episode_hash) = 32),
    added_at      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS working_items_by_session ON working_items (session, id);
CREATE TABLE IF NOT EXISTS episode_access (
    episode_hash  BLOB PRIMARY KEY CHECK (length(episode_hash) = 32),
    access_count  INTEGER NOT NULL CHECK (access_count >= 0),
    last_access   TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS semantic_facts (
    fact_hash        BLOB PRIMARY KEY REFERENCES facts (hash),
    confidence       REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    observations     INTEGER NOT NULL CHECK (observations > 0),
    first_seen       TEXT NOT NULL,
    last_reinforced  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS semantic_sources (
    episode_hash  BLOB PRIMARY KEY,
    fact_hash     BLOB NOT NULL REFERENCES semantic_facts (fact_hash)
) WITHOUT ROWID;
"""


def system_clock() -> datetime:
    return datetime.now(UTC)


def format_time(moment: datetime) -> str:
    """The store's timestamp format: UTC, milliseconds, `Z` (sorts as text)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(text: str) -> float:
    """An ISO 8601 time as POSIX seconds; a time without an offset is UTC."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def decay(base: float, half_life: float, elapsed: float) -> float:
    """Exponential decay: `base` halves every `half_life` seconds; the future does not grow it."""
    return base * math.exp(-max(elapsed, 0.0) * math.log(2.0) / half_life)


def bayes_merge(old: float, new: float) -> float:
    """Independent evidence: `1 - (1 - old) * (1 - new)`."""
    return 1.0 - (1.0 - old) * (1.0 - new)


def ensure_tiers(store: MemoryStore) -> sqlite3.Connection:
    """Create the tier tables if missing (idempotent) and return the store's connection."""
    db = store._db
    exists = db.execute("SELECT 1 FROM sqlite_schema WHERE name = 'semantic_sources'").fetchone()
    if exists is None:
        with store.transaction():
            for statement in TIERS_SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
    return db


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
        self._db = ensure_tiers(store)
        self._store = store
        self.session = session
        self.capacity = capacity
        self._clock = clock

    def push(self, episode: EpisodeHash) -> list[EpisodeHash]:
        """Add an episode; returns the episodes evicted to stay within capacity, oldest first."""
        with self._store.transaction():
            self._db.execute(
                "INSERT INTO working_items (session, episode_hash, added_at) VALUES (?, ?, ?)",
                (self.session, episode.digest, format_time(self._clock())),
            )
            rows = self._db.execute(
                "SELECT id, episode_hash FROM working_items WHERE session = ?"
                " ORDER BY id DESC LIMIT -1 OFFSET ?",
                (self.session, self.capacity),
            ).fetchall()
            self._db.executemany("DELETE FROM working_items WHERE id = ?", [(row[0],) for row in rows])
        return [EpisodeHash(row[1]) for row in reversed(rows)]

    def peek(self, n: int | None = None) -> list[EpisodeHash]:
        """The `n` most recent episodes (all when None), oldest first."""
        limit = self.capacity if n is None else n
        rows = self._db.execute(
            "SELECT episode_hash FROM working_items WHERE session = ? ORDER BY id DESC LIMIT ?",
            (self.session, limit),
        ).fetchall()
        return [EpisodeHash(row[0]) for row in reversed(rows)]

    def clear(self) -> int:
        with self._store.transaction():
            return self._db.execute("DELETE FROM working_items WHERE session = ?", (self.session,)).rowcount

    def __len__(self) -> int:
        row = self._db.execute("SELECT count(*) FROM working_items WHERE session = ?", (self.session,))
        return int(row.fetchone()[0])


# ---- episodic memory ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Episode:
    """One stored episode with its decay inputs and access record."""

    episode_hash: EpisodeHash
    fact_hash: FactHash
    base_confidence: float
    event_time: str
    access_count: int
    last_access: str | None

    def effective(self, now: float, half_life: float) -> float:
        return decay(self.base_confidence, half_life, now - parse_time(self.event_time))

    def to_json(self) -> dict[str, object]:
        return {
            "episode_hash": str(self.episode_hash),
            "fact_hash": str(self.fact_hash),
            "confidence": self.base_confidence,
            "event_time": self.event_time,
            "access_count": self.access_count,
            "last_access": self.last_access,
        }


_EPISODE_QUERY = """
SELECT e.hash, e.fact_hash, e.confidence, c.event_time, a.access_count, a.last_access
FROM episodes e JOIN contexts c ON c.hash = e.context_hash
LEFT JOIN episode_access a ON a.episode_hash = e.hash
"""


def _episode(row: tuple[bytes, bytes, float, str, int | None, str | None]) -> Episode:
    return Episode(EpisodeHash(row[0]), FactHash(row[1]), row[2], row[3], row[4] or 0, row[5])


class EpisodicMemory:
    """The store's episodes seen as decaying memories: effective confidence, touch, sweep.

    Episodes of semantic facts are their provenance and are never swept.
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
        self._db = ensure_tiers(store)
        self._store = store
        self.half_life = half_life
        self.min_confidence = min_confidence
        self._clock = clock

    def now(self) -> float:
        return self._clock().timestamp()

    def recall(self, fact: FactHash) -> list[Episode]:
        """A fact's episodes, most effective first."""
        rows = self._db.execute(_EPISODE_QUERY + " WHERE e.fact_hash = ?", (fact.digest,)).fetchall()
        now = self.now()
        episodes = [_episode(row) for row in rows]
        return sorted(episodes, key=lambda e: (-e.effective(now, self.half_life), e.episode_hash.digest))

    def all(self) -> list[Episode]:
        return [_episode(row) for row in self._db.execute(_EPISODE_QUERY + " ORDER BY e.hash")]

    def effective_confidence(self, episode: Episode) -> float:
        return episode.effective(self.now(), self.half_life)

    def touch(self, episodes: Iterable[EpisodeHash]) -> None:
        """One more access for each episode, at the clock's now (recall calls this)."""
        stamp = format_time(self._clock())
        rows = [(key.digest, stamp) for key in dict.fromkeys(episodes)]
        if not rows:
            return
        own = not self._db.in_transaction
        if own:
            self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany(
                """INSERT INTO episode_access (episode_hash, access_count, last_access) VALUES (?, 1, ?)
                   ON CONFLICT (episode_hash) DO UPDATE SET access_count = access_count + 1,
                   last_access = max(last_access, excluded.last_access)""",
                rows,
            )
        except BaseException:
            if own:
                self._db.execute("ROLLBACK")
            raise
        if own:
            self._db.execute("COMMIT")

    def sweep(self) -> list[Episode]:
        """Remove the episodes decayed below `min_confidence` (semantic ones excepted); returns them.

        The store stays consistent: each affected fact is refolded from its
        remaining episodes or removed with the last one, and concepts and
        contexts nothing refers to any more go too.
        """
        now = self.now()
        doomed = [
            episode
            for episode in self.all()
            if episode.effective(now, self.half_life) < self.min_confidence
            and not self._is_semantic(episode.fact_hash)
        ]
        if doomed:
            with self._store.transaction():
                remove_episodes(self._db, [episode.episode_hash.digest for episode in doomed])
        return doomed

    def _is_semantic(self, fact: FactHash) -> bool:
        row = self._db.execute("SELECT 1 FROM semantic_facts WHERE fact_hash = ?", (fact.digest,))
        return row.fetchone() is not None


def remove_episodes(db: sqlite3.Connection, keys: Sequence[bytes]) -> None:
    """Delete episodes and what only they kept alive, refolding the facts they supported."""
    facts: set[bytes] = set()
    for chunk, marks in chunks(keys):
        facts.update(
            row[0] for row in db.execute(f"SELECT fact_hash FROM episodes WHERE hash IN ({marks})", chunk)
        )
        for table, column in (
            ("episodes", "hash"),
            ("episode_access", "episode_hash"),
            ("working_items", "episode_hash"),
        ):
            db.execute(f"DELETE FROM {table} WHERE {column} IN ({marks})", chunk)
    for fact in sorted(facts):
        rows = db.execute("SELECT confidence FROM episodes WHERE fact_hash = ?", (fact,)).fetchall()
        if not rows:
            db.execute("DELETE FROM facts WHERE hash = ?", (fact,))
            continue
        keep = 1.0
        for (confidence,) in rows:
            keep *= 1.0 - confidence
        db.execute(
            "UPDATE facts SET confidence = ?, observations = ? WHERE hash = ?", (1.0 - keep, len(rows), fact)
        )
    db.execute("DELETE FROM contexts WHERE hash NOT IN (SELECT context_hash FROM episodes)")
    orphans = (
        "SELECT hash FROM concepts"
        " WHERE hash NOT IN (SELECT subject_hash FROM facts UNION SELECT object_hash FROM facts)"
    )
    db.execute(f"DELETE FROM concept_aliases WHERE concept_hash IN ({orphans})")
    db.execute(f"DELETE FROM concepts WHERE hash IN ({orphans})")


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
        self._db = ensure_tiers(store)
        self._store = store
        self._clock = clock

    def store_or_merge(
        self, fact: FactHash, confidence: float, source: EpisodeHash | None = None
    ) -> SemanticFact:
        """Insert the fact (one observation) or merge `confidence` into it; `source` is merged once only."""
        own = not self._db.in_transaction
        if own:
            self._db.execute("BEGIN IMMEDIATE")
        try:
            self._merge(fact, confidence, source)
        except BaseException:
            if own:
                self._db.execute("ROLLBACK")
            raise
        if own:
            self._db.execute("COMMIT")
        found = self.get_fact(fact)
        assert found is not None
        return found

    def _merge(self, fact: FactHash, confidence: float, source: EpisodeHash | None) -> None:
        if source is not None:
            seen = self._db.execute("SELECT 1 FROM semantic_sources WHERE episode_hash = ?", (source.digest,))
            if seen.fetchone() is not None:
                return
        stamp = format_time(self._clock())
        current = self.get_fact(fact)
        if current is None:
            self._db.execute(
                "INSERT INTO semantic_facts VALUES (?, ?, 1, ?, ?)", (fact.digest, confidence, stamp, stamp)
            )
        else:
            merged = bayes_merge(current.confidence, confidence)
            self._db.execute(
                """UPDATE semantic_facts SET confidence = ?, observations = observations + 1,
                   last_reinforced = max(last_reinforced, ?) WHERE fact_hash = ?""",
                (merged, stamp, fact.digest),
            )
        if source is not None:
            self._db.execute("INSERT INTO semantic_sources VALUES (?, ?)", (source.digest, fact.digest))

    def get_fact(self, fact: FactHash) -> SemanticFact | None:
        row = self._db.execute(
            "SELECT fact_hash, confidence, observations, first_seen, last_reinforced FROM semantic_facts"
            " WHERE fact_hash = ?",
            (fact.digest,),
        ).fetchone()
        return None if row is None else SemanticFact(FactHash(row[0]), row[1], row[2], row[3], row[4])

    def fact_count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM semantic_facts").fetchone()[0])


# ---- consolidation --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConsolidationResult:
    promoted: int  # facts newly in semantic memory
    reinforced: int  # facts already there that gained evidence
    pruned: int  # episodes swept
    pruned_episodes: tuple[Episode, ...] = ()

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
) -> ConsolidationResult:
    """Promote facts with at least `min_episodes` episodes still above `min_confidence` after decay.

    Each surviving episode is merged into its semantic fact once (Bayesian,
    base confidence), then episodes decayed below `sweep_below` are swept.
    """
    episodic = EpisodicMemory(store, half_life, sweep_below, clock)
    semantic = SemanticMemory(store, clock)
    now = episodic.now()
    groups: dict[FactHash, list[Episode]] = {}
    for episode in episodic.all():
        if episode.effective(now, half_life) > min_confidence:
            groups.setdefault(episode.fact_hash, []).append(episode)
    promoted = reinforced = 0
    with store.transaction():
        for fact, episodes in sorted(groups.items()):
            if len(episodes) < min_episodes:
                continue
            before = semantic.get_fact(fact)
            for episode in sorted(episodes, key=lambda e: (parse_time(e.event_time), e.episode_hash.digest)):
                semantic._merge(fact, episode.base_confidence, episode.episode_hash)
            if before is None:
                promoted += 1
            elif semantic.get_fact(fact) != before:
                reinforced += 1
    swept = episodic.sweep()
    return ConsolidationResult(promoted, reinforced, len(swept), tuple(swept))
