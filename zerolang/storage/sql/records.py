"""Records in SQL: applying the merge plan, and every read of concepts, facts, contexts and episodes."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from zerolang.knowledge import merge
from zerolang.knowledge.backend import (
    BOUND_COLUMNS,
    COMPARE_COLUMNS,
    COMPARE_OPS,
    Counts,
    EpisodeRow,
    FactEnds,
    FactFilter,
    InsertResult,
    RecallInputs,
)
from zerolang.knowledge.integrity import Seal, change
from zerolang.knowledge.overlap import ENGINE
from zerolang.knowledge.types import (
    ConceptHash,
    ConceptNode,
    ContextHash,
    ContextMeta,
    ContextNode,
    EpisodeHash,
    Fact,
    FactHash,
    MemoryRecord,
    RelationNode,
)
from zerolang.storage.errors import translating
from zerolang.storage.sql.alongside import Alongside
from zerolang.storage.sql.core import Row
from zerolang.storage.sql.seals import Seals

FACT_COLUMNS = "hash, subject_hash, predicate, object_hash, confidence, observations, created_at, updated_at"
EDGE_COLUMNS = "hash, subject_hash, predicate, object_hash, confidence"
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
_RELATION_SELECT = """SELECT e.hash, e.fact_hash, f.subject_hash, f.predicate, f.object_hash, e.confidence,
    e.context_hash, e.created_at FROM episodes e JOIN facts f ON f.space = e.space AND f.hash = e.fact_hash
    WHERE e.space = ?"""


ENDS_SELECT = """SELECT f.hash, f.subject_hash, s.label, f.predicate, f.object_hash, o.label FROM facts f
    JOIN concepts s ON s.space = f.space AND s.hash = f.subject_hash
    JOIN concepts o ON o.space = f.space AND o.hash = f.object_hash WHERE f.space = ?"""
EPISODES_SELECT = f"SELECT {_EPISODE_COLUMNS} {_EPISODE_FROM}"


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
        bytes(row[0]), bytes(row[1]), bytes(row[2]), row[3], row[4], row[5], row[6], row[7], row[8], row[9]
    )


def relation_of(row: Row) -> RelationNode:
    return RelationNode(
        fact_hash=FactHash(bytes(row[1])),
        episode_hash=EpisodeHash(bytes(row[0])),
        subject_hash=ConceptHash(bytes(row[2])),
        predicate=row[3],
        object_hash=ConceptHash(bytes(row[4])),
        confidence=row[5],
        context_hash=ContextHash(bytes(row[6])),
        created_at=row[7],
    )


@translating
class Records(Seals):
    __slots__ = ()

    # ---- writing ----------------------------------------------------------------------------

    def apply_records(self, records: Sequence[MemoryRecord]) -> InsertResult:
        with self.write():
            keys = merge.episode_keys(records)
            filled = self._filled()  # a table with no row in the space has none of the batch's keys
            stored = self._existing("episodes", keys) if "episodes" in filled else set()
            if "pruned_episodes" in filled:
                stored |= self._existing("pruned_episodes", keys)
            blocked = self.blocked(merge.relation_keys(records)) if self.any_blocked() else set()
            forgotten = merge.forgotten_episodes(records, stored, blocked)
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
        row = self.one(_FILLED, [self.space] * len(_READ_BY_BATCH))
        assert row is not None  # a SELECT without FROM has one row
        return {table for table, found in zip(_READ_BY_BATCH, row, strict=True) if found}

    def _existing(self, table: str, keys: Sequence[bytes]) -> set[bytes]:
        with ENGINE.busy():  # an index probe per key, few rows back: the engine's time, not Python's
            rows = self.select_in(f"SELECT hash FROM {table} WHERE space = ?", "hash", keys, [self.space])
        return {bytes(row[0]) for row in rows}

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

    def facts_touching(
        self, concepts: Sequence[bytes], min_confidence: float = 0.0, predicates: frozenset[str] | None = None
    ) -> list[Fact]:
        found = {
            bytes(row[0]): fact_of(row)
            for row in self._frontier(FACT_COLUMNS, concepts, min_confidence, predicates)
        }
        return [found[key] for key in sorted(found)]

    def edges_touching(
        self, concepts: Sequence[bytes], min_confidence: float = 0.0, predicates: frozenset[str] | None = None
    ) -> list[tuple[bytes, bytes, str, bytes, float]]:
        rows = self._frontier(EDGE_COLUMNS, concepts, min_confidence, predicates)
        found = {bytes(r[0]): (bytes(r[0]), bytes(r[1]), r[2], bytes(r[3]), r[4]) for r in rows}
        return [found[key] for key in sorted(found)]

    def edges_above(
        self,
        floors: Sequence[tuple[bytes, float]],
        predicates: frozenset[str] | None = None,
        limit: int | None = None,
    ) -> list[tuple[bytes, bytes, bytes, str, bytes, float]]:
        """Two index range scans per concept (cheap in process; a dialect with round trips does one)."""
        if predicates is not None and not predicates:
            return []
        found: list[tuple[bytes, bytes, bytes, str, bytes, float]] = []
        sides = [self._above(side, "?", "?", predicates, limit) for side in ("subject_hash", "object_hash")]
        for concept, floor in floors:
            for sql, extra in sides:
                rows = self.rows(sql, [self.space, concept, floor, *extra])
                found += [(concept, bytes(r[0]), bytes(r[1]), r[2], bytes(r[3]), r[4]) for r in rows]
        return most_confident(found, limit)

    def _above(
        self, side: str, concept: str, floor: str, predicates: frozenset[str] | None, limit: int | None
    ) -> tuple[str, list[object]]:
        """The facts with `concept` at `side` at or above `floor`, the most confident `limit` of them
        (an index range scan on (space, side, confidence)): the SQL, its arguments after the space."""
        sql = f"SELECT {EDGE_COLUMNS} FROM facts WHERE space = ? AND {side} = {concept}"
        sql += f" AND confidence >= {floor}"
        extra: list[object] = []
        if predicates is not None:
            sql += f" AND predicate IN ({','.join('?' * len(predicates))})"
            extra += sorted(predicates)
        if limit is not None:
            sql += " ORDER BY confidence DESC LIMIT ?"
            extra.append(limit)
        return sql, extra

    def _frontier(
        self,
        columns: str,
        concepts: Sequence[bytes],
        min_confidence: float,
        predicates: frozenset[str] | None,
    ) -> list[Row]:
        extra, args = " AND confidence >= ?", [self.space, min_confidence]
        if predicates is not None:
            if not predicates:
                return []
            extra += f" AND predicate IN ({','.join('?' * len(predicates))})"
            args += sorted(predicates)
        return self._touching(columns, sorted(set(concepts)), extra, args)

    def _touching(self, columns: str, concepts: Sequence[bytes], extra: str, args: list[object]) -> list[Row]:
        """The facts with a subject or object in `concepts` (a dialect may do both sides at once)."""
        rows: list[Row] = []
        for side in ("subject_hash", "object_hash"):
            rows += self.select_in(
                f"SELECT {columns} FROM facts WHERE space = ?{extra}", side, concepts, args
            )
        return rows

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

    def fact_ends(self, facts: Sequence[bytes]) -> dict[bytes, FactEnds]:
        return ends_of(self.select_in(ENDS_SELECT, "f.hash", sorted(set(facts)), [self.space]))

    def recall_inputs(
        self, arriving: Sequence[bytes], concepts: Sequence[bytes], paths: Sequence[bytes]
    ) -> RecallInputs:
        return RecallInputs(self.episodes_of(arriving), self.degrees(concepts), self.fact_ends(paths))

    def contexts(self, keys: Sequence[bytes]) -> dict[bytes, tuple[ContextNode, str]]:
        rows = self.select_in(
            "SELECT hash, event_time, source, scope, agent_id, session_id, metadata, created_at"
            " FROM contexts WHERE space = ?",
            "hash",
            sorted(set(keys)),
            [self.space],
        )
        return {bytes(row[0]): _context(row) for row in rows}

    def degrees(self, concepts: Sequence[bytes]) -> dict[bytes, int]:
        found: dict[bytes, int] = {}
        keys = sorted(set(concepts))
        for side in ("subject_hash", "object_hash"):
            for key, count in self.select_in(
                f"SELECT {side}, count(*) FROM facts WHERE space = ?",
                side,
                keys,
                [self.space],
                f" GROUP BY {side}",
            ):
                found[bytes(key)] = found.get(bytes(key), 0) + count
        return found

    def counts(self) -> Counts:
        row = self.one(
            """SELECT (SELECT count(*) FROM concepts WHERE space = ?),
                      (SELECT count(*) FROM facts WHERE space = ?),
                      (SELECT count(*) FROM episodes WHERE space = ?),
                      (SELECT count(*) FROM contexts WHERE space = ?)""",
            [self.space] * 4,
        )
        assert row is not None
        return Counts(*(int(value) for value in row))

    def spaces(self) -> list[str]:
        rows = self.rows(
            "SELECT space FROM concepts UNION SELECT space FROM contexts"
            " UNION SELECT space FROM pruned_episodes UNION SELECT space FROM memory_index"
        )
        return sorted(row[0] for row in rows)

    # ---- iteration in hash order ------------------------------------------------------------

    def concept_hashes(self) -> list[bytes]:
        return [
            bytes(r[0])
            for r in self.rows("SELECT hash FROM concepts WHERE space = ? ORDER BY hash", [self.space])
        ]

    def episode_hashes(self) -> list[bytes]:
        return [
            bytes(r[0])
            for r in self.rows("SELECT hash FROM episodes WHERE space = ? ORDER BY hash", [self.space])
        ]

    def scan_concepts(self) -> Iterator[ConceptNode]:
        aliases: dict[bytes, list[str]] = {}
        for key, alias in self.stream(
            "SELECT concept_hash, alias FROM concept_aliases WHERE space = ? ORDER BY id", [self.space]
        ):
            aliases.setdefault(bytes(key), []).append(alias)
        for key, label, confidence, created, updated in self.stream(
            "SELECT hash, label, confidence, created_at, updated_at FROM concepts"
            " WHERE space = ? ORDER BY hash",
            [self.space],
        ):
            key = bytes(key)
            yield ConceptNode(
                ConceptHash(key), label, tuple(aliases.get(key, ())), confidence, created, updated
            )

    def scan_contexts(self) -> Iterator[tuple[ContextNode, str]]:
        for row in self.stream(
            "SELECT hash, event_time, source, scope, agent_id, session_id, metadata, created_at"
            " FROM contexts WHERE space = ? ORDER BY hash",
            [self.space],
        ):
            yield _context(row)

    def scan_relations(self, facts: Sequence[bytes] | None = None) -> Iterator[RelationNode]:
        if facts is None:
            rows: Iterator[Row] | list[Row] = self.stream(_RELATION_SELECT + " ORDER BY e.hash", [self.space])
        else:
            rows = sorted(self.select_in(_RELATION_SELECT, "e.fact_hash", sorted(set(facts)), [self.space]))
        for row in rows:
            yield relation_of(row)

    def scan_episodes(self) -> Iterator[EpisodeRow]:
        for row in self.stream(f"SELECT {_EPISODE_COLUMNS} {_EPISODE_FROM} ORDER BY e.hash", [self.space]):
            yield episode_of(row)


def episodes_in_order(rows: Sequence[Row]) -> list[EpisodeRow]:
    episodes = [episode_of(row) for row in rows]
    episodes.sort(key=lambda e: (e.fact_hash, e.hash))
    return episodes


def ends_of(rows: Sequence[Row]) -> dict[bytes, FactEnds]:
    return {bytes(r[0]): (bytes(r[1]), r[2], r[3], bytes(r[4]), r[5]) for r in rows}


def most_confident(
    rows: list[tuple[bytes, bytes, bytes, str, bytes, float]], limit: int | None
) -> list[tuple[bytes, bytes, bytes, str, bytes, float]]:
    """Per concept (a row's first field), its `limit` most confident facts of both sides' rows.

    Each side brought its own most confident `limit`, so whatever is left out is no more confident
    than the least confident kept, as `MemoryBackend.edges_above` promises; a self-loop, found on
    both sides, is kept once.
    """
    unique = {(row[0], row[1]): row for row in rows}
    if limit is None:
        return list(unique.values())
    per_concept: dict[bytes, list[tuple[bytes, bytes, bytes, str, bytes, float]]] = {}
    for row in unique.values():
        per_concept.setdefault(row[0], []).append(row)
    kept: list[tuple[bytes, bytes, bytes, str, bytes, float]] = []
    for group in per_concept.values():
        group.sort(key=lambda row: -row[5])
        kept += group[:limit]
    return kept


def _context(row: Row) -> tuple[ContextNode, str]:
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
