"""Records in SQL: applying the merge plan, and reading concepts, facts, contexts and episodes by key."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from zerolang.knowledge import backend, merge
from zerolang.knowledge.backend import (
    BOUND_COLUMNS,
    COMPARE_COLUMNS,
    COMPARE_OPS,
    EpisodeRow,
    FactFilter,
    InsertResult,
)
from zerolang.knowledge.integrity import Seal, change
from zerolang.knowledge.overlap import ENGINE
from zerolang.knowledge.redaction import redacted_records
from zerolang.knowledge.terms import Forgotten
from zerolang.knowledge.types import (
    ConceptHash,
    ConceptNode,
    ContextHash,
    ContextMeta,
    ContextNode,
    Fact,
    FactHash,
    MemoryRecord,
)
from zerolang.storage.errors import translating
from zerolang.storage.sql.alongside import Alongside
from zerolang.storage.sql.core import Row
from zerolang.storage.sql.seals import Seals

FACT_COLUMNS = "hash, subject_hash, predicate, object_hash, confidence, observations, created_at, updated_at"
# The columns of the new rows a plan inserts (`merge.Plan`), in its order.
INSERTED = {
    "concepts": ("hash", "label", "confidence", "created_at", "updated_at"),
    "facts": (
        "hash",
        "subject_hash",
        "predicate",
        "object_hash",
        "confidence",
        "observations",
        "created_at",
        "updated_at",
    ),
    "episodes": ("hash", "fact_hash", "context_hash", "confidence", "created_at"),
}
# The tables whose stored rows a batch looks up before it plans (`Records.apply_records`).
_READ_BY_BATCH = ("episodes", "pruned_episodes", "concepts", "facts", "concept_aliases", "contexts")
_FILLED = "SELECT " + ", ".join(f"EXISTS (SELECT 1 FROM {t} WHERE space = ?)" for t in _READ_BY_BATCH)
_EPISODE_COLUMNS = """e.hash, e.fact_hash, e.context_hash, e.confidence, e.created_at,
    c.event_time, c.source, c.scope, coalesce(a.access_count, 0), a.last_access"""
_EPISODE_FROM = """FROM episodes e
    JOIN contexts c ON c.space = e.space AND c.hash = e.context_hash
    LEFT JOIN episode_access a ON a.space = e.space AND a.episode_hash = e.hash
    WHERE e.space = ?"""


EPISODES_SELECT = f"SELECT {_EPISODE_COLUMNS} {_EPISODE_FROM}"
# The live episodes (not pruned: no `pruned_at`), then the pruned ones as `EpisodeRow`s: the context
# kept, the accesses gone, when it was pruned. `provenance_of` joins the two with UNION ALL.
_LIVE_SELECT = f"SELECT {_EPISODE_COLUMNS}, NULL {_EPISODE_FROM}"
_PRUNED_SELECT = """SELECT p.hash, p.fact_hash, p.context_hash, p.confidence, p.created_at,
    c.event_time, c.source, c.scope, 0, NULL, p.pruned_at FROM pruned_episodes p
    JOIN contexts c ON c.space = p.space AND c.hash = p.context_hash
    WHERE p.space = ?"""


def fact_of(row: Row) -> Fact:
    return Fact(
        FactHash(bytes(row[0])),
        ConceptHash(bytes(row[1])),
        row[2],
        ConceptHash(bytes(row[3])),
        row[4],
        row[5],
        row[6],
        row[7],
    )


def episode_of(row: Row) -> EpisodeRow:
    return EpisodeRow(
        bytes(row[0]),
        bytes(row[1]),
        bytes(row[2]),
        row[3],
        row[4],
        row[5],
        row[6],
        row[7],
        int(row[8]),
        row[9],
        row[10] if len(row) > 10 else None,
    )


@translating
class Records(Seals, backend.Records):
    __slots__ = ()

    # ---- writing ----------------------------------------------------------------------------

    def apply_records(self, records: Sequence[MemoryRecord]) -> InsertResult:
        with self.write():
            terms = self.blocked_terms() if self.any_blocked() else Forgotten()
            records = redacted_records(records, terms)  # a context naming a purged term: redacted
            keys = merge.episode_keys(records)
            filled = self._filled()  # a table with no row in the space has none of the batch's keys
            stored = self._existing("episodes", keys) if "episodes" in filled else set()
            if "pruned_episodes" in filled:
                stored |= self._existing("pruned_episodes", keys)
            blocked, forgotten = set(), set()
            if self.any_blocked():
                blocked = self.blocked(merge.relation_keys(records))
                forgotten = merge.mentioning_episodes(records, stored, terms)
            forgotten |= merge.forgotten_episodes(records, stored, blocked)
            work = merge.pending(records, stored | forgotten)
            work.duplicates -= len(forgotten)
            restated = self._restate(records, stored)
            work.duplicates -= restated
            if not work.fresh:
                return InsertResult(duplicates=work.duplicates, forgotten=len(forgotten), restated=restated)
            concept_rows = self.sealed_rows("concepts", work.concept_keys()) if "concepts" in filled else []
            fact_rows = self.sealed_rows("facts", work.fact_keys()) if "facts" in filled else []
            old_concepts = {bytes(row[0]): row for row in concept_rows}
            old_facts = {bytes(row[0]): row for row in fact_rows}
            concepts = {key: (row[2], row[4]) for key, row in old_concepts.items()}
            facts = {key: (row[4], row[5], row[7]) for key, row in old_facts.items()}
            plan = merge.plan(work, concepts, facts)
            had_aliases = {
                (bytes(key), alias)
                for key, alias in self.select_in(
                    "SELECT concept_hash, alias FROM concept_aliases WHERE space = ?",
                    "concept_hash",
                    sorted({row[0] for row in plan.aliases}) if "concept_aliases" in filled else [],
                    [self.space],
                )
            }
            contexts = [row[0] for row in plan.contexts] if "contexts" in filled else []
            had_contexts = self._existing("contexts", contexts)
            beside = Alongside(lambda: seal_changes(plan, old_concepts, old_facts, had_aliases, had_contexts))
            try:
                self.write_plan(plan, beside)
            except BaseException:
                beside.wait()
                if beside.failed:  # the seal changes were computed first when they ran inline
                    beside.result()
                raise
            self.seal_apply(beside.result())  # a restatement sealed its own changes (`restate_episodes`)
            return replace(plan.result, forgotten=len(forgotten), restated=restated)

    def _restate(self, records: Sequence[MemoryRecord], stored: set[bytes]) -> int:
        """Apply the batch's restatements of stored episodes (see `merge.restatements`); how many."""
        if not stored:
            return 0
        changes = merge.restatements(records, self.episode_confidences(sorted(stored)))
        if not changes:
            return 0
        from zerolang.knowledge.backend import FactEvent

        self.restate_episodes(
            [(r.episode_hash.digest, r.fact_hash.digest, r.confidence) for r, _ in changes],
            max(r.created_at for r, _ in changes),
        )
        self.add_fact_events(
            [
                FactEvent(
                    r.fact_hash.digest,
                    "restated",
                    r.created_at,
                    None,
                    None,
                    r.confidence,
                    f"episode {r.episode_hash.short()} {old:g} -> {r.confidence:g}",
                )
                for r, old in changes
            ]
        )
        return len(changes)

    def episode_confidences(self, episodes: Sequence[bytes]) -> dict[bytes, float]:
        rows = self.select_in(
            "SELECT hash, confidence FROM episodes WHERE space = ?",
            "hash",
            sorted(set(episodes)),
            [self.space],
        )
        return {bytes(key): confidence for key, confidence in rows}

    def restate_episodes(self, changes: Sequence[tuple[bytes, bytes, float]], stamp: str) -> None:
        """Set these episodes' confidences `(episode, fact, confidence)` and refold their facts."""
        if not changes:
            return
        episodes = sorted({episode for episode, _, _ in changes})
        facts = sorted({fact for _, fact, _ in changes})
        fact_rows = self.sealed_rows("facts", facts)
        # a concept holds at least the confidence of every episode that mentions it (as `plan` keeps)
        raised: dict[bytes, float] = {}
        ends = {bytes(row[0]): (bytes(row[1]), bytes(row[3])) for row in fact_rows}
        for _, fact, confidence in changes:
            for concept in ends.get(fact, ()):
                raised[concept] = max(raised.get(concept, 0.0), confidence)
        concepts = sorted(raised)
        before = {
            "episodes": self.sealed_rows("episodes", episodes),
            "facts": fact_rows,
            "concepts": self.sealed_rows("concepts", concepts),
        }
        self.run_many(
            "UPDATE episodes SET confidence = ? WHERE space = ? AND hash = ?",
            [(confidence, self.space, episode) for episode, _, confidence in changes],
        )
        lifted = [
            (raised[bytes(row[0])], stamp, self.space, bytes(row[0]))
            for row in before["concepts"]
            if raised[bytes(row[0])] > row[2]
        ]
        self.run_many(
            f"UPDATE concepts SET confidence = ?, updated_at = {self.greatest}(updated_at, ?)"
            " WHERE space = ? AND hash = ?",
            lifted,
        )
        kept: dict[bytes, list[float]] = {key: [] for key in facts}
        for table in ("episodes", "pruned_episodes"):
            for fact, confidence in self.select_in(
                f"SELECT fact_hash, confidence FROM {table} WHERE space = ?", "fact_hash", facts, [self.space]
            ):
                kept[bytes(fact)].append(confidence)
        updates = []
        for key, seen in kept.items():
            keep = 1.0
            for confidence in sorted(seen):
                keep *= 1.0 - confidence
            updates.append((1.0 - keep, stamp, self.space, key))
        self.run_many(
            f"UPDATE facts SET confidence = ?, updated_at = {self.greatest}(updated_at, ?)"
            " WHERE space = ? AND hash = ?",
            updates,
        )
        after = {
            "episodes": self.sealed_rows("episodes", episodes),
            "facts": self.sealed_rows("facts", facts),
            "concepts": self.sealed_rows("concepts", concepts),
        }
        self.seal_apply({table: change(table, after[table], before[table]) for table in before})

    def write_plan(self, plan: merge.Plan, beside: Alongside[Any] | None = None) -> None:
        """Execute a merge plan (inside the open write transaction): new rows, then the rest.

        A dialect whose engine releases the GIL for long may `beside.start()` before its long
        statements (`alongside`); this one runs a statement per row and never does.
        """
        for table, rows in (
            ("concepts", plan.concept_inserts),
            ("facts", plan.fact_inserts),
            ("episodes", plan.episodes),
        ):
            if rows:
                columns = INSERTED[table]
                marks = ", ".join("?" * (len(columns) + 1))
                self.run_many(
                    f"INSERT INTO {table} (space, {', '.join(columns)}) VALUES ({marks})",
                    [(self.space, *row) for row in rows],
                )
        self.write_updates(plan)

    def write_updates(self, plan: merge.Plan) -> None:
        """The plan's updates of stored concepts and facts, and its aliases and contexts."""
        space = self.space
        if plan.concept_updates:
            self.run_many(
                "UPDATE concepts SET confidence = ?, updated_at = ? WHERE space = ? AND hash = ?",
                [(c, u, space, key) for c, u, key in plan.concept_updates],
            )
        if plan.aliases:
            self.run_many(
                "INSERT INTO concept_aliases (space, concept_hash, alias, alias_key) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                [(space, *row) for row in plan.aliases],
            )
        if plan.contexts:
            self.run_many(
                "INSERT INTO contexts (space, hash, event_time, source, scope, agent_id, session_id,"
                " metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(space, *row) for row in plan.contexts],
            )
        if plan.fact_updates:
            self.run_many(
                "UPDATE facts SET confidence = ?, observations = ?, updated_at = ?"
                " WHERE space = ? AND hash = ?",
                [(c, n, u, space, key) for c, n, u, key in plan.fact_updates],
            )

    def _filled(self) -> set[str]:
        """The tables a batch reads that hold a row in this space (one query: a probe per table). The
        first batch into an empty space, an import's or a new space's, then skips its look-ups."""
        memo = self.write_memo()
        if memo is not None:  # kept while the tables it found empty keep their seals
            kept = memo.answers.get((self.space, "filled"))
            if kept is not None:
                empty, filled = kept[1]
                known, seals = memo.seals_of(self.space, empty)
                if known and seals == kept[0]:  # (a table found filled since emptied: a look-up too many)
                    return set(filled)
        row = self.one(_FILLED, [self.space] * len(_READ_BY_BATCH))
        assert row is not None  # a SELECT without FROM has one row
        found = {table for table, full in zip(_READ_BY_BATCH, row, strict=True) if full}
        if memo is not None:
            empty = tuple(table for table in _READ_BY_BATCH if table not in found)
            known, seals = memo.seals_of(self.space, empty)
            if known:
                memo.answers[(self.space, "filled")] = (seals, (empty, frozenset(found)))
        return found

    def _existing(self, table: str, keys: Sequence[bytes]) -> set[bytes]:
        with ENGINE.busy():  # an index probe per key, few rows back: the engine's time, not Python's
            rows = self.select_in(f"SELECT hash FROM {table} WHERE space = ?", "hash", keys, [self.space])
        return {bytes(row[0]) for row in rows}

    def refresh_statistics(self, added: int | None = None) -> None:
        """No statistics to refresh (a dialect that keeps them overrides this)."""
        return None

    # ---- look-ups ---------------------------------------------------------------------------

    def concepts(self, keys: Sequence[bytes]) -> dict[bytes, ConceptNode]:
        """Concepts with their aliases in first-seen order: one query (a join) per slice of keys."""
        rows = self.select_in(
            "SELECT c.hash, c.label, c.confidence, c.created_at, c.updated_at, a.id, a.alias FROM concepts c"
            " LEFT JOIN concept_aliases a ON a.space = c.space AND a.concept_hash = c.hash WHERE c.space = ?",
            "c.hash",
            sorted(set(keys)),
            [self.space],
        )
        found: dict[bytes, tuple[Row, list[tuple[int, str]]]] = {}
        for row in rows:
            key = bytes(row[0])
            entry = found.setdefault(key, (row, []))
            if row[5] is not None:
                entry[1].append((row[5], row[6]))
        return {
            key: ConceptNode(
                ConceptHash(key), row[1], tuple(alias for _, alias in sorted(aliases)), row[2], row[3], row[4]
            )
            for key, (row, aliases) in found.items()
        }

    def concept_by_alias(self, alias_key: str) -> bytes | None:
        row = self.one(
            "SELECT concept_hash FROM concept_aliases WHERE space = ? AND alias_key = ? ORDER BY id LIMIT 1",
            (self.space, alias_key),
        )
        return None if row is None else bytes(row[0])

    def concepts_between(self, low: bytes, high: bytes, limit: int) -> list[bytes]:
        rows = self.rows(
            "SELECT hash FROM concepts WHERE space = ? AND hash BETWEEN ? AND ? ORDER BY hash LIMIT ?",
            (self.space, low, high, limit),
        )
        return [bytes(row[0]) for row in rows]

    def labels(self, keys: Sequence[bytes]) -> dict[bytes, str]:
        rows = self.select_in(
            "SELECT hash, label FROM concepts WHERE space = ?", "hash", sorted(set(keys)), [self.space]
        )
        return {bytes(key): label for key, label in rows}

    def facts(self, keys: Sequence[bytes]) -> dict[bytes, Fact]:
        rows = self.select_in(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE space = ?", "hash", sorted(set(keys)), [self.space]
        )
        return {bytes(row[0]): fact_of(row) for row in rows}

    def find_facts(self, where: FactFilter) -> list[Fact]:
        conditions, args = ["space = ?"], list[object]([self.space])
        for column, value in (
            ("subject_hash", where.subject),
            ("predicate", where.predicate),
            ("object_hash", where.object),
        ):
            if value is not None:
                conditions.append(f"{column} = ?")
                args.append(value)
        for column, op, number in where.compares:
            if column not in COMPARE_COLUMNS or op not in COMPARE_OPS:
                raise ValueError(f"cannot compare {column} {op}")
            conditions.append(f"{column} {'<>' if op == '!=' else op} ?")
            args.append(number)
        if where.predicates is not None:
            if not where.predicates:
                return []
            conditions.append(f"predicate IN ({','.join('?' * len(where.predicates))})")
            args.extend(sorted(where.predicates))
        if where.self_loop:
            conditions.append("subject_hash = object_hash")
        sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE " + " AND ".join(conditions)
        if where.bound is None:
            rows = self.rows(sql + " ORDER BY hash", args)
        else:
            column, values = where.bound
            if column not in BOUND_COLUMNS:
                raise ValueError(f"cannot bind {column}")
            rows = self.select_in(sql, column, list(values), args)
        found = {bytes(row[0]): fact_of(row) for row in rows}
        return [found[key] for key in sorted(found)]

    def episodes_of(self, facts: Sequence[bytes]) -> list[EpisodeRow]:
        return episodes_in_order(
            self.select_in(EPISODES_SELECT, "e.fact_hash", sorted(set(facts)), [self.space])
        )

    def provenance_of(self, facts: Sequence[bytes]) -> list[EpisodeRow]:
        """Live and pruned episodes in one statement per slice of keys (one round trip on a server)."""
        keys = sorted(set(facts))
        rows: list[Row] = []
        slices = zip(self.in_list("e.fact_hash", keys), self.in_list("p.fact_hash", keys), strict=True)
        for (live, live_args), (pruned, pruned_args) in slices:
            rows.extend(
                self.rows(
                    f"{_LIVE_SELECT} AND {live} UNION ALL {_PRUNED_SELECT} AND {pruned}",
                    [self.space, *live_args, self.space, *pruned_args],
                )
            )
        return episodes_in_order(rows)

    def contexts(self, keys: Sequence[bytes]) -> dict[bytes, tuple[ContextNode, str]]:
        rows = self.select_in(
            "SELECT hash, event_time, source, scope, agent_id, session_id, metadata, created_at"
            " FROM contexts WHERE space = ?",
            "hash",
            sorted(set(keys)),
            [self.space],
        )
        return {bytes(row[0]): context_of(row) for row in rows}


def episodes_in_order(rows: Sequence[Row]) -> list[EpisodeRow]:
    episodes = [episode_of(row) for row in rows]
    episodes.sort(key=lambda e: (e.fact_hash, e.hash))
    return episodes


def context_of(row: Row) -> tuple[ContextNode, str]:
    meta = ContextMeta(row[1], row[2], row[3], row[4], row[5], json.loads(row[6]))
    return ContextNode(ContextHash(bytes(row[0])), meta), row[7]


def seal_changes(
    plan: merge.Plan,
    old_concepts: dict[bytes, Row],
    old_facts: dict[bytes, Row],
    had_aliases: set[tuple[bytes, str]],
    had_contexts: set[bytes],
) -> dict[str, Seal]:
    """What executing `plan` does to each table's seal, from the rows it replaces or skips."""
    replaced_concepts = [old_concepts[key] for _, _, key in plan.concept_updates]
    updated_concepts = [
        (old[0], old[1], confidence, old[3], updated)
        for (confidence, updated, _), old in zip(plan.concept_updates, replaced_concepts, strict=True)
    ]
    replaced_facts = [old_facts[key] for *_, key in plan.fact_updates]
    updated_facts = [
        (*old[:4], confidence, observations, old[6], updated)
        for (confidence, observations, updated, _), old in zip(plan.fact_updates, replaced_facts, strict=True)
    ]
    return {
        "concepts": change("concepts", [*plan.concept_inserts, *updated_concepts], replaced_concepts),
        "concept_aliases": change(
            "concept_aliases", [row for row in plan.aliases if (row[0], row[1]) not in had_aliases]
        ),
        "contexts": change("contexts", [row for row in plan.contexts if row[0] not in had_contexts]),
        "facts": change("facts", [*plan.fact_inserts, *updated_facts], replaced_facts),
        "episodes": change("episodes", plan.episodes),
    }
