"""Tombstones in SQL: removing forgotten episodes and what only they held up, and blocking re-adds.

A forget removes episodes (live and pruned) from every table that mentions
them, then the facts left without any episode, the concepts left without any
fact and the contexts left without any episode; a fact that keeps episodes
gets its observation count, folded confidence and times (its first and latest
episode's) recomputed from them, so no trace of the forgotten ones is left. The
tombstone and the keys it blocks are written in the same transaction, and the
table seals take every row it adds, refolds or deletes (read before the write),
so a forget costs what it removes, not a rescan of the space.
"""

from __future__ import annotations

from collections.abc import Sequence

from zerolang.knowledge import backend
from zerolang.knowledge.backend import Redaction, Removed, TombstoneRow
from zerolang.knowledge.integrity import SEALED, Seal, change
from zerolang.knowledge.terms import TERM_KIND, Forgotten, from_blocked
from zerolang.storage.errors import translating
from zerolang.storage.sql.memo import remembered
from zerolang.storage.sql.redacting import redact
from zerolang.storage.sql.seals import Seals, fold

_EPISODE_TABLES = ("episodes", "pruned_episodes")
_ANY_BLOCKED = "SELECT 1 FROM forgotten_keys WHERE space = ? LIMIT 1"


@translating
class Forgetting(Seals, backend.Forgetting):
    __slots__ = ()

    def episodes_by(self, column: str, keys: Sequence[bytes]) -> list[bytes]:
        if column not in ("fact_hash", "context_hash"):
            raise ValueError(f"cannot select episodes by {column}")
        found: set[bytes] = set()
        for table in _EPISODE_TABLES:
            rows = self.select_in(
                f"SELECT hash FROM {table} WHERE space = ?", column, sorted(set(keys)), [self.space]
            )
            found.update(bytes(row[0]) for row in rows)
        return sorted(found)

    def forget(
        self, tombstone: TombstoneRow, episodes: Sequence[bytes], blocked: Sequence[tuple[bytes, str]]
    ) -> Removed:
        space = self.space
        with self.write():
            added = self.run(
                "INSERT INTO tombstones (space, hash, kind, target, created_at, payload, purged_at,"
                " restored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [
                    space,
                    tombstone.hash,
                    tombstone.kind,
                    tombstone.target,
                    tombstone.created_at,
                    tombstone.payload,
                    tombstone.purged_at,
                    tombstone.restored_at,
                ],
            )
            changes: dict[str, Seal] = {}
            if added:
                t = tombstone
                row = (t.hash, t.kind, t.target, t.created_at, t.payload, t.purged_at, t.restored_at)
                fold(changes, "tombstones", [row])
            self._block(tombstone.hash, blocked, changes)
            concepts = [key for key, kind in blocked if kind == "concept"]
            removed = self._remove(sorted(set(episodes)), concepts, changes)
            self.seal_apply(changes)  # every row it added, refolded or deleted, as read before
            return removed

    def _block(
        self, tombstone: bytes, blocked: Sequence[tuple[bytes, str]], changes: dict[str, Seal]
    ) -> None:
        if not blocked:
            return
        rows = sorted(set(blocked))
        stored = {
            bytes(row[0])
            for row in self.select_in(
                "SELECT key FROM forgotten_keys WHERE space = ? AND tombstone = ?",
                "key",
                [key for key, _ in rows],
                [self.space, tombstone],
            )
        }
        added = []
        for key, kind in rows:  # the first row of a key is the one the table keeps
            if key not in stored:
                stored.add(key)
                added.append((key, tombstone, kind))
        fold(changes, "forgotten_keys", added)
        self.run_many(
            "INSERT INTO forgotten_keys (space, key, tombstone, kind) VALUES (?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            [(self.space, key, tombstone, kind) for key, kind in rows],
        )

    def _remove(self, episodes: list[bytes], concepts: list[bytes], changes: dict[str, Seal]) -> Removed:
        """Delete the episodes and the facts, concepts and contexts left without them."""
        space = self.space
        facts: set[bytes] = set()
        contexts: set[bytes] = set()
        for table in _EPISODE_TABLES:
            for fact, context in self.select_in(
                f"SELECT fact_hash, context_hash FROM {table} WHERE space = ?", "hash", episodes, [space]
            ):
                facts.add(bytes(fact))
                contexts.add(bytes(context))
        live = len(self.select_in("SELECT hash FROM episodes WHERE space = ?", "hash", episodes, [space]))
        for table, column in (
            ("working_items", "episode_hash"),
            ("episode_access", "episode_hash"),
            ("semantic_sources", "episode_hash"),
            ("episodes", "hash"),
            ("pruned_episodes", "hash"),
        ):
            self._delete(table, column, episodes, changes)
        removed_facts, ends = self._refold(sorted(facts), changes)
        ends |= set(concepts)
        removed_concepts = self._drop_unreferenced_concepts(sorted(ends), changes)
        removed_contexts = self._drop_unreferenced_contexts(sorted(contexts), changes)
        return Removed(removed_concepts, len(removed_facts), live, removed_contexts)

    def _delete(self, table: str, column: str, keys: Sequence[bytes], changes: dict[str, Seal]) -> None:
        """Delete the rows of `table` whose `column` is in `keys`, their seal's share into `changes`."""
        if not keys:
            return
        if table in SEALED:
            fold(changes, table, [], self.sealed_rows(table, list(keys), column))
        self.delete_rows(table, column, list(keys))

    def _refold(self, facts: list[bytes], changes: dict[str, Seal]) -> tuple[list[bytes], set[bytes]]:
        """Recompute each fact from the episodes it keeps; delete those keeping none.

        Returns the deleted facts and the concepts they named.
        """
        space = self.space
        kept: dict[bytes, list[tuple[str, float]]] = {key: [] for key in facts}
        for table in _EPISODE_TABLES:
            for fact, created, confidence in self.select_in(
                f"SELECT fact_hash, created_at, confidence FROM {table} WHERE space = ?",
                "fact_hash",
                facts,
                [space],
            ):
                kept[bytes(fact)].append((created, confidence))
        gone = [key for key, seen in kept.items() if not seen]
        ends: set[bytes] = set()
        for subject, obj in self.select_in(
            "SELECT subject_hash, object_hash FROM facts WHERE space = ?", "hash", gone, [space]
        ):
            ends.update((bytes(subject), bytes(obj)))
        updates = []
        for key, seen in kept.items():
            if seen:
                keep = 1.0
                for _, confidence in sorted(seen):
                    keep *= 1.0 - confidence
                times = [created for created, _ in seen]
                updates.append((1.0 - keep, len(seen), min(times), max(times), space, key))
        if updates:
            old = self.sealed_rows("facts", [key for *_, key in updates])
            by_key = {bytes(row[0]): row for row in old}
            new = [(*by_key[key][:4], c, n, first, last) for c, n, first, last, _, key in updates]
            fold(changes, "facts", new, old)
            self.run_many(
                "UPDATE facts SET confidence = ?, observations = ?, created_at = ?, updated_at = ?"
                " WHERE space = ? AND hash = ?",
                updates,
            )
        self._delete("semantic_sources", "fact_hash", gone, changes)
        self._delete("semantic_facts", "fact_hash", gone, changes)
        self._delete("fact_periods", "fact_hash", gone, changes)
        self._delete("fact_events", "fact_hash", gone, changes)
        self._delete("facts", "hash", gone, changes)
        return gone, ends

    def episode_places(self) -> list[tuple[bytes, bytes, bytes, bool]]:
        found = []
        for table, live in (("episodes", True), ("pruned_episodes", False)):
            rows = self.rows(
                f"SELECT hash, fact_hash, context_hash FROM {table} WHERE space = ? ORDER BY hash",
                [self.space],
            )
            found += [(bytes(e), bytes(f), bytes(c), live) for e, f, c in rows]
        return found

    def predicates(self) -> list[str]:
        rows = self.rows(
            "SELECT DISTINCT predicate FROM facts WHERE space = ? ORDER BY predicate", [self.space]
        )
        return [str(row[0]) for row in rows]

    def refold_facts(self, facts: list[bytes], changes: dict[str, Seal]) -> None:
        """Fold these facts again from the episodes they keep (a redaction merged some)."""
        self._refold(facts, changes)

    def drop_unreferenced_contexts(self, contexts: list[bytes], changes: dict[str, Seal]) -> int:
        return self._drop_unreferenced_contexts(contexts, changes)

    def redact(self, redactions: Sequence[Redaction]) -> int:
        return redact(self, redactions)

    def _drop_unreferenced_concepts(self, concepts: list[bytes], changes: dict[str, Seal]) -> int:
        if not concepts:
            return 0
        used = {bytes(row[0]) for row in self._touching_ends(concepts)}
        # a label forgotten that only other stores held has no concept here: none is counted
        stored = self.select_in("SELECT hash FROM concepts WHERE space = ?", "hash", concepts, [self.space])
        held = {bytes(row[0]) for row in stored}
        gone = [key for key in concepts if key in held and key not in used]
        self._delete("concept_aliases", "concept_hash", gone, changes)
        self._delete("concepts", "hash", gone, changes)
        return len(gone)

    def _touching_ends(self, concepts: list[bytes]) -> list[tuple[bytes]]:
        rows: list[tuple[bytes]] = []
        for side in ("subject_hash", "object_hash"):
            rows += [
                (bytes(r[0]),)
                for r in self.select_in(
                    f"SELECT {side} FROM facts WHERE space = ?", side, concepts, [self.space]
                )
            ]
        return rows

    def _drop_unreferenced_contexts(self, contexts: list[bytes], changes: dict[str, Seal]) -> int:
        if not contexts:
            return 0
        used: set[bytes] = set()
        for table in _EPISODE_TABLES:
            rows = self.select_in(
                f"SELECT context_hash FROM {table} WHERE space = ?", "context_hash", contexts, [self.space]
            )
            used.update(bytes(row[0]) for row in rows)
        gone = [key for key in contexts if key not in used]
        self._delete("contexts", "hash", gone, changes)
        return len(gone)

    # ---- blocks -----------------------------------------------------------------------------

    def any_blocked(self) -> bool:
        return remembered(
            self.write_memo(),
            self.space,
            "forgotten_keys",
            "any_blocked",
            lambda: self.one(_ANY_BLOCKED, [self.space]) is not None,
        )

    def blocked(self, keys: Sequence[bytes]) -> set[bytes]:
        if not keys:
            return set()
        rows = self.select_in(
            "SELECT key FROM forgotten_keys WHERE space = ?", "key", sorted(set(keys)), [self.space]
        )
        return {bytes(row[0]) for row in rows}

    def blocked_terms(self) -> Forgotten:
        """The terms the space's purges blocked (`forgotten_keys` of kind `term:N`)."""
        rows = self.rows(
            "SELECT key, kind FROM forgotten_keys WHERE space = ? AND kind LIKE ?",
            [self.space, f"{TERM_KIND}%"],
        )
        return Forgotten.of(from_blocked((bytes(key), kind) for key, kind in rows))

    def tombstones(self) -> list[TombstoneRow]:
        rows = self.rows(
            "SELECT hash, kind, target, created_at, payload, purged_at, restored_at FROM tombstones"
            " WHERE space = ? ORDER BY created_at, hash",
            [self.space],
        )
        return [TombstoneRow(bytes(r[0]), r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]

    def forgotten_keys(self) -> list[tuple[bytes, str, bytes]]:
        rows = self.rows(
            "SELECT key, kind, tombstone FROM forgotten_keys WHERE space = ? ORDER BY key, tombstone",
            [self.space],
        )
        return [(bytes(k), kind, bytes(t)) for k, kind, t in rows]

    def add_tombstone_keys(
        self, tombstone: bytes, created_at: str, keys: Sequence[tuple[bytes, str]]
    ) -> bool:
        row = TombstoneRow(tombstone, "received", None, created_at, None, created_at, None)
        return self.record_tombstone(row, keys)

    def record_tombstone(self, row: TombstoneRow, keys: Sequence[tuple[bytes, str]]) -> bool:
        with self.write():
            known = self.one("SELECT 1 FROM tombstones WHERE space = ? AND hash = ?", [self.space, row.hash])
            if known is not None:
                return False
            self.forget(row, self._episodes_blocked_by(keys), keys)
            return True

    def _episodes_blocked_by(self, keys: Sequence[tuple[bytes, str]]) -> list[bytes]:
        """The stored episodes these blocked keys take out (an episode, its fact, or a concept end)."""
        found = {key for key, kind in keys if kind == "episode"}
        facts = {key for key, kind in keys if kind == "fact"}
        concepts = sorted(key for key, kind in keys if kind == "concept")
        for side in ("subject_hash", "object_hash"):
            for (fact,) in self.select_in(
                "SELECT hash FROM facts WHERE space = ?", side, concepts, [self.space]
            ):
                facts.add(bytes(fact))
        found.update(self.episodes_by("fact_hash", sorted(facts)))
        return sorted(found)

    def purge_tombstone(self, tombstone: bytes, stamp: str) -> bool:
        with self.write():
            before = self.sealed_rows("tombstones", [tombstone])
            changed = self.run(
                "UPDATE tombstones SET target = NULL, payload = NULL, purged_at = ?"
                " WHERE space = ? AND hash = ? AND purged_at IS NULL",
                [stamp, self.space, tombstone],
            )
            if changed:
                after = [(*row[:2], None, row[3], None, stamp, row[6]) for row in before]
                self.seal_apply({"tombstones": change("tombstones", after, before)})
        return changed > 0

    def restore_tombstone(self, tombstone: bytes, stamp: str) -> bool:
        with self.write():
            before = self.sealed_rows("tombstones", [tombstone])
            changed = self.run(
                "UPDATE tombstones SET restored_at = ?, payload = NULL"
                " WHERE space = ? AND hash = ? AND restored_at IS NULL",
                [stamp, self.space, tombstone],
            )
            if changed:
                after = [(*row[:4], None, row[5], stamp) for row in before]
                self.seal_apply({"tombstones": change("tombstones", after, before)})
            unblocked = self.sealed_rows("forgotten_keys", [tombstone], "tombstone")
            self.delete_rows("forgotten_keys", "tombstone", [tombstone])
            self.seal_apply({"forgotten_keys": change("forgotten_keys", [], unblocked)})
        return changed > 0

    def erase_freed(self) -> None:
        """Nothing by default; a dialect that can reclaim deleted rows' storage does so."""
