"""Tier state in SQL: working memory, episode accesses, semantic memory, and pruning."""

from __future__ import annotations

from collections.abc import Sequence

from zerolang.knowledge import backend
from zerolang.knowledge.backend import SemanticRow, TierState
from zerolang.knowledge.integrity import change
from zerolang.knowledge.merge import bayes_merge
from zerolang.storage.errors import translating
from zerolang.storage.sql.seals import Seals


@translating
class Tiers(Seals, backend.Tiers):
    __slots__ = ()

    # ---- working memory ---------------------------------------------------------------------

    def working_push(self, session: str, episode: bytes, stamp: str, capacity: int) -> list[bytes]:
        with self.write():
            self.run(
                "INSERT INTO working_items (space, session, episode_hash, added_at) VALUES (?, ?, ?, ?)",
                (self.space, session, episode, stamp),
            )
            rows = self.rows(
                "SELECT id, episode_hash FROM working_items WHERE space = ? AND session = ? ORDER BY id DESC",
                (self.space, session),
            )[capacity:]
            if rows:
                self.delete_rows("working_items", "id", [int(row[0]) for row in rows])
        return [bytes(row[1]) for row in reversed(rows)]

    def working_peek(self, session: str, n: int) -> list[bytes]:
        rows = self.rows(
            "SELECT episode_hash FROM working_items WHERE space = ? AND session = ? ORDER BY id DESC LIMIT ?",
            (self.space, session, n),
        )
        return [bytes(row[0]) for row in reversed(rows)]

    def working_clear(self, session: str) -> int:
        with self.write():
            return self.delete_rows("working_items", "session", [session])

    def working_size(self, session: str) -> int:
        row = self.one(
            "SELECT count(*) FROM working_items WHERE space = ? AND session = ?", (self.space, session)
        )
        return 0 if row is None else int(row[0])

    def working_facts(self, facts: Sequence[bytes]) -> set[bytes]:
        rows = self.select_in(
            "SELECT e.fact_hash FROM working_items w JOIN episodes e"
            " ON e.space = w.space AND e.hash = w.episode_hash WHERE w.space = ?",
            "e.fact_hash",
            sorted(set(facts)),
            [self.space],
        )
        return {bytes(row[0]) for row in rows}

    # ---- accesses ---------------------------------------------------------------------------

    def touch(self, episodes: Sequence[bytes], stamp: str) -> None:
        keys = sorted(set(episodes))
        if not keys:
            return
        with self.write():  # an upsert that counts, folded into the seals (which the write lock orders)
            before = self.sealed_rows("episode_access", keys, "episode_hash")
            self.run_many(
                f"""INSERT INTO episode_access (space, episode_hash, access_count, last_access)
                    VALUES (?, ?, 1, ?)
                    ON CONFLICT (space, episode_hash) DO UPDATE SET
                    access_count = episode_access.access_count + 1,
                    last_access = {self.greatest}(episode_access.last_access, excluded.last_access)""",
                [(self.space, key, stamp) for key in keys],
            )
            after = self.sealed_rows("episode_access", keys, "episode_hash")
            self.seal_apply({"episode_access": change("episode_access", after, before)})

    # ---- semantic memory --------------------------------------------------------------------

    def semantic_get(self, fact: bytes) -> SemanticRow | None:
        row = self.one(
            "SELECT fact_hash, confidence, observations, first_seen, last_reinforced FROM semantic_facts"
            " WHERE space = ? AND fact_hash = ?",
            (self.space, fact),
        )
        return None if row is None else SemanticRow(bytes(row[0]), row[1], row[2], row[3], row[4])

    def semantic_merge(self, fact: bytes, confidence: float, source: bytes | None, stamp: str) -> bool:
        with self.write():
            if source is not None:
                seen = self.one(
                    "SELECT 1 FROM semantic_sources WHERE space = ? AND episode_hash = ?",
                    (self.space, source),
                )
                if seen is not None:
                    return False
            current = self.semantic_get(fact)
            if current is None:
                self.run(
                    "INSERT INTO semantic_facts (space, fact_hash, confidence, observations, first_seen,"
                    " last_reinforced) VALUES (?, ?, ?, 1, ?, ?)",
                    (self.space, fact, confidence, stamp, stamp),
                )
                self.seal_apply(
                    {"semantic_facts": change("semantic_facts", [(fact, confidence, 1, stamp, stamp)])}
                )
            else:
                merged = (
                    bayes_merge(current.confidence, confidence),
                    current.observations + 1,
                    max(current.last_reinforced, stamp),
                )
                self.run(
                    "UPDATE semantic_facts SET confidence = ?, observations = ?, last_reinforced = ?"
                    " WHERE space = ? AND fact_hash = ?",
                    (*merged, self.space, fact),
                )
                old = (
                    fact,
                    current.confidence,
                    current.observations,
                    current.first_seen,
                    current.last_reinforced,
                )
                new = (fact, merged[0], merged[1], current.first_seen, merged[2])
                self.seal_apply({"semantic_facts": change("semantic_facts", [new], [old])})
            if source is not None:
                self.run(
                    "INSERT INTO semantic_sources (space, episode_hash, fact_hash) VALUES (?, ?, ?)",
                    (self.space, source, fact),
                )
                self.seal_apply({"semantic_sources": change("semantic_sources", [(source, fact)])})
        return True

    def semantic_merged(self, episode: bytes) -> bool:
        row = self.one(
            "SELECT 1 FROM semantic_sources WHERE space = ? AND episode_hash = ?", (self.space, episode)
        )
        return row is not None

    def semantic_count(self) -> int:
        row = self.one("SELECT count(*) FROM semantic_facts WHERE space = ?", (self.space,))
        return 0 if row is None else int(row[0])

    def semantic_facts(self, facts: Sequence[bytes]) -> set[bytes]:
        rows = self.select_in(
            "SELECT fact_hash FROM semantic_facts WHERE space = ?",
            "fact_hash",
            sorted(set(facts)),
            [self.space],
        )
        return {bytes(row[0]) for row in rows}

    # ---- copying (`zero memory migrate`) -----------------------------------------------------

    def tier_state(self) -> TierState:
        space = [self.space]
        working = self.rows(
            "SELECT session, episode_hash, added_at FROM working_items WHERE space = ? ORDER BY session, id",
            space,
        )
        accesses = self.rows(
            "SELECT episode_hash, access_count, last_access FROM episode_access WHERE space = ?"
            " ORDER BY episode_hash",
            space,
        )
        semantic = self.rows(
            "SELECT fact_hash, confidence, observations, first_seen, last_reinforced FROM semantic_facts"
            " WHERE space = ? ORDER BY fact_hash",
            space,
        )
        sources = self.rows(
            "SELECT episode_hash, fact_hash FROM semantic_sources WHERE space = ? ORDER BY episode_hash",
            space,
        )
        return TierState(
            tuple((session, bytes(key), at) for session, key, at in working),
            tuple((bytes(key), int(count), last) for key, count, last in accesses),
            tuple(SemanticRow(bytes(r[0]), r[1], int(r[2]), r[3], r[4]) for r in semantic),
            tuple((bytes(episode), bytes(fact)) for episode, fact in sources),
        )

    def put_tier_state(self, state: TierState) -> None:
        with self.write():
            sessions = sorted({session for session, _, _ in state.working})
            facts = sorted({r.fact_hash for r in state.semantic})
            replaced = self.sealed_rows("semantic_facts", facts, "fact_hash")
            episodes = sorted({episode for episode, _ in state.sources})
            had_sources = {
                (bytes(row[0]), bytes(row[1]))
                for row in self.sealed_rows("semantic_sources", episodes, "episode_hash")
            }
            accessed = sorted({key for key, _, _ in state.accesses})
            accesses_before = self.sealed_rows("episode_access", accessed, "episode_hash")
            self.delete_rows("working_items", "session", sessions)
            for sql, rows in self._tier_writes(state):
                if rows:
                    self.run_many(sql, rows)
            # the semantic tables are sealed: fold in the rows written and replaced (no rescan)
            self.seal_apply(
                {
                    "semantic_facts": change(
                        "semantic_facts", self.sealed_rows("semantic_facts", facts, "fact_hash"), replaced
                    ),
                    "semantic_sources": change(
                        "semantic_sources",
                        sorted({(e, f) for e, f in state.sources if (e, f) not in had_sources}),
                    ),
                    "episode_access": change(
                        "episode_access",
                        self.sealed_rows("episode_access", accessed, "episode_hash"),
                        accesses_before,
                    ),
                }
            )

    def _tier_writes(self, state: TierState) -> list[tuple[str, list[tuple[object, ...]]]]:
        """The rows a tier state writes (after its sessions' working items are deleted)."""
        space = self.space
        return [
            (
                "INSERT INTO working_items (space, session, episode_hash, added_at) VALUES (?, ?, ?, ?)",
                [(space, session, key, at) for session, key, at in state.working],
            ),
            (
                "INSERT INTO episode_access (space, episode_hash, access_count, last_access)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (space, episode_hash) DO UPDATE SET"
                " access_count = excluded.access_count, last_access = excluded.last_access",
                [(space, key, count, last) for key, count, last in state.accesses],
            ),
            (
                "INSERT INTO semantic_facts (space, fact_hash, confidence, observations, first_seen,"
                " last_reinforced) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (space, fact_hash) DO UPDATE SET"
                " confidence = excluded.confidence, observations = excluded.observations,"
                " first_seen = excluded.first_seen, last_reinforced = excluded.last_reinforced",
                [
                    (space, r.fact_hash, r.confidence, r.observations, r.first_seen, r.last_reinforced)
                    for r in state.semantic
                ],
            ),
            (
                "INSERT INTO semantic_sources (space, episode_hash, fact_hash) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                [(space, episode, fact) for episode, fact in state.sources],
            ),
        ]

    # ---- pruning ----------------------------------------------------------------------------

    def prune_episodes(self, keys: Sequence[bytes], stamp: str, reason: str) -> int:
        """Move episodes to `pruned_episodes`; the facts keep their folded confidence and observations."""
        keys = sorted(set(keys))
        if not keys:
            return 0
        moved = 0
        with self.write():
            leaving = self.sealed_rows("episodes", keys)
            unaccessed = self.sealed_rows("episode_access", keys, "episode_hash")
            had = {bytes(row[0]) for row in self.sealed_rows("pruned_episodes", keys)}
            for condition, values in self.in_list("hash", keys):
                moved += self.run(
                    "INSERT INTO pruned_episodes (space, hash, fact_hash, context_hash, confidence,"
                    " created_at, pruned_at, reason) SELECT space, hash, fact_hash, context_hash,"
                    f" confidence, created_at, {self.greatest}(?, created_at), ?"
                    f" FROM episodes WHERE space = ? AND {condition} ON CONFLICT DO NOTHING",
                    [stamp, reason, self.space, *values],
                )
            for table, column in (
                ("episode_access", "episode_hash"),
                ("working_items", "episode_hash"),
                ("episodes", "hash"),
            ):
                self.delete_rows(table, column, keys)
            logged = [row for row in self.sealed_rows("pruned_episodes", keys) if bytes(row[0]) not in had]
            self.seal_apply(
                {
                    "episodes": change("episodes", [], leaving),
                    "pruned_episodes": change("pruned_episodes", logged),
                    "episode_access": change("episode_access", [], unaccessed),
                }
            )
        return moved
