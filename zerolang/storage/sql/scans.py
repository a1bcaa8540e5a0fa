"""The whole space in SQL, in hash order: counts, hashes, nodes, relations, live and pruned episodes;
and its concepts by label, a page at a time."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from zerolang.knowledge import backend
from zerolang.knowledge.backend import Counts, EpisodeRow, PrunedEpisode
from zerolang.knowledge.types import (
    ConceptHash,
    ConceptNode,
    ContextHash,
    ContextNode,
    EpisodeHash,
    FactHash,
    RelationNode,
)
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import Row, SqlCore
from zerolang.storage.sql.records import EPISODES_SELECT, context_of, episode_of

_RELATION_SELECT = """SELECT e.hash, e.fact_hash, f.subject_hash, f.predicate, f.object_hash, e.confidence,
    e.context_hash, e.created_at FROM episodes e JOIN facts f ON f.space = e.space AND f.hash = e.fact_hash
    WHERE e.space = ?"""


@translating
class Scans(SqlCore, backend.Scans):
    __slots__ = ()

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

    def concepts_by_label(
        self, containing: str, after: tuple[str, bytes] | None, limit: int
    ) -> list[tuple[bytes, str]]:
        where, args = self._labelled(containing, after, past=True)
        rows = self.rows(
            f"SELECT hash, label FROM concepts WHERE {where}"
            f" ORDER BY label COLLATE {self.code_points}, hash LIMIT ?",
            [*args, limit],
        )
        return [(bytes(key), str(label)) for key, label in rows]

    def count_by_label(self, containing: str, through: tuple[str, bytes] | None = None) -> int:
        where, args = self._labelled(containing, through, past=False)
        row = self.one(f"SELECT count(*) FROM concepts WHERE {where}", args)
        return 0 if row is None else int(row[0])

    def _labelled(
        self, containing: str, mark: tuple[str, bytes] | None, *, past: bool
    ) -> tuple[str, list[object]]:
        """The condition (and its arguments) on the space's concepts whose label contains `containing`
        and that come after `mark` (`past`) or not after it, in (label by code point, hash) order."""
        where, args = "space = ?", list[object]([self.space])
        if containing:
            escaped = containing.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where += " AND lower(label) LIKE ? ESCAPE '\\'"
            args.append(f"%{escaped}%")
        if mark is not None:
            label, key = (">", ">") if past else ("<", "<=")
            where += f" AND (label COLLATE {self.code_points} {label} ? OR (label = ? AND hash {key} ?))"
            args += [mark[0], mark[0], mark[1]]
        return where, args

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
            yield context_of(row)

    def scan_relations(self, facts: Sequence[bytes] | None = None) -> Iterator[RelationNode]:
        if facts is None:
            rows: Iterator[Row] | list[Row] = self.stream(_RELATION_SELECT + " ORDER BY e.hash", [self.space])
        else:
            rows = sorted(self.select_in(_RELATION_SELECT, "e.fact_hash", sorted(set(facts)), [self.space]))
        for row in rows:
            yield relation_of(row)

    def scan_episodes(self) -> Iterator[EpisodeRow]:
        for row in self.stream(EPISODES_SELECT + " ORDER BY e.hash", [self.space]):
            yield episode_of(row)

    def pruned(self) -> list[PrunedEpisode]:
        rows = self.rows(
            "SELECT hash, fact_hash, context_hash, confidence, created_at, pruned_at, reason"
            " FROM pruned_episodes WHERE space = ? ORDER BY pruned_at, hash",
            (self.space,),
        )
        return [PrunedEpisode(bytes(r[0]), bytes(r[1]), bytes(r[2]), r[3], r[4], r[5], r[6]) for r in rows]


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
