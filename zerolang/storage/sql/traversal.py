"""The facts around concepts in SQL: a BFS frontier's edges, pruned reads, degrees, a recall's inputs."""

from __future__ import annotations

from collections.abc import Sequence

from zerolang.knowledge import backend
from zerolang.knowledge.backend import FactEnds, RecallInputs
from zerolang.knowledge.types import Fact
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import Row, SqlCore
from zerolang.storage.sql.records import FACT_COLUMNS, fact_of

EDGE_COLUMNS = "hash, subject_hash, predicate, object_hash, confidence"
LABELS_SELECT = "SELECT hash, label FROM concepts WHERE space = ?"

ENDS_SELECT = """SELECT f.hash, f.subject_hash, s.label, f.predicate, f.object_hash, o.label FROM facts f
    JOIN concepts s ON s.space = f.space AND s.hash = f.subject_hash
    JOIN concepts o ON o.space = f.space AND o.hash = f.object_hash WHERE f.space = ?"""


@translating
class Traversal(SqlCore, backend.Traversal):
    __slots__ = ()

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
        (an index range scan on (space, side, confidence), then the lowest fact hashes among equals):
        the SQL, its arguments after the space."""
        sql = f"SELECT {EDGE_COLUMNS} FROM facts WHERE space = ? AND {side} = {concept}"
        sql += f" AND confidence >= {floor}"
        extra: list[object] = []
        if predicates is not None:
            sql += f" AND predicate IN ({','.join('?' * len(predicates))})"
            extra += sorted(predicates)
        if limit is not None:  # a total order: which of equally confident facts make the cut is no accident
            sql += " ORDER BY confidence DESC, hash LIMIT ?"
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

    def fact_ends(self, facts: Sequence[bytes]) -> dict[bytes, FactEnds]:
        return ends_of(self.select_in(ENDS_SELECT, "f.hash", sorted(set(facts)), [self.space]))

    def recall_inputs(
        self,
        arriving: Sequence[bytes],
        concepts: Sequence[bytes],
        paths: Sequence[bytes],
        labelled: Sequence[bytes] = (),
    ) -> RecallInputs:
        return RecallInputs(
            self.episodes_of(arriving),
            self.degrees(concepts),
            self.fact_ends(paths) if paths else {},
            {
                bytes(key): label
                for key, label in self.select_in(LABELS_SELECT, "hash", sorted(set(labelled)), [self.space])
            },
        )


def ends_of(rows: Sequence[Row]) -> dict[bytes, FactEnds]:
    return {bytes(r[0]): (bytes(r[1]), r[2], r[3], bytes(r[4]), r[5]) for r in rows}


def most_confident(
    rows: list[tuple[bytes, bytes, bytes, str, bytes, float]], limit: int | None
) -> list[tuple[bytes, bytes, bytes, str, bytes, float]]:
    """Per concept (a row's first field), its `limit` most confident facts of both sides' rows.

    Each side brought its own most confident `limit`, so whatever is left out is no more confident
    than the least confident kept, as `backend.Traversal.edges_above` promises; a self-loop, found on
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
        group.sort(key=lambda row: (-row[5], row[1]))  # the most confident, then by fact hash
        kept += group[:limit]
    return kept
