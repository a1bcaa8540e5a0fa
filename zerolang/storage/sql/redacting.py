"""Redacting contexts in SQL: a context rewritten without a forgotten term, its episodes moved with it.

A purge or forget of a label takes the facts the label takes part in; a context that merely names
it keeps its other episodes (`zerolang.knowledge.scope`). When only fields outside the context hash
change (agent, session, metadata), the row is rewritten in place. When the source or scope change,
the context gets a new hash and so does every kept episode (`EpisodeHash = sha256(FactHash ++
ContextHash)`): each row is written again under its new hash with its confidence and store time
(live or pruned, with its accesses, working-memory entries and semantic sources), the old rows
go, and the old context goes once nothing refers to it. An episode whose new hash is already
stored is absorbed by it, and its fact is folded again from the episodes it keeps. The table
seals take every row written and deleted, read before the write.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from zerolang.knowledge.backend import Redaction
from zerolang.knowledge.integrity import SEALED, Seal
from zerolang.storage.sql.core import Row
from zerolang.storage.sql.seals import fold as _fold

if TYPE_CHECKING:
    from contextlib import AbstractContextManager


class Forgetting(Protocol):
    """What redacting needs of the SQL backend (`storage.sql.forgetting.Forgetting`)."""

    @property
    def space(self) -> str: ...
    def write(self) -> AbstractContextManager[None]: ...
    def run(self, sql: str, args: Sequence[object] = ()) -> int: ...
    def run_many(self, sql: str, rows: Sequence[Sequence[object]]) -> int: ...
    def select_in(
        self, sql: str, column: str, keys: Sequence[object], args: Sequence[object] = (), tail: str = ""
    ) -> list[Row]: ...
    def delete_rows(
        self, table: str, column: str | None = None, keys: Sequence[object] = (), space: str | None = None
    ) -> int: ...
    def sealed_rows(self, table: str, keys: Sequence[bytes], column: str = "hash") -> list[Row]: ...
    def seal_apply(self, changes: Mapping[str, Seal], space: str | None = None) -> None: ...
    def refold_facts(self, facts: list[bytes], changes: dict[str, Seal]) -> None: ...
    def drop_unreferenced_contexts(self, contexts: list[bytes], changes: dict[str, Seal]) -> int: ...


_EPISODE_COLUMNS = {
    "episodes": "hash, fact_hash, context_hash, confidence, created_at",
    "pruned_episodes": "hash, fact_hash, context_hash, confidence, created_at, pruned_at, reason",
}
# The tables keyed by an episode's hash beside the episodes themselves.
_BESIDE = (
    ("episode_access", "episode_hash"),
    ("semantic_sources", "episode_hash"),
    ("working_items", "episode_hash"),
)


def redact(db: Forgetting, redactions: Sequence[Redaction]) -> int:
    """`Forgetting.redact`: every redaction in one write; how many episodes moved to a new hash."""
    if not redactions:
        return 0
    moved = 0
    with db.write():
        changes: dict[str, Seal] = {}
        refold: set[bytes] = set()
        for redaction in redactions:
            moved += _one(db, redaction, changes, refold)
        if refold:
            db.refold_facts(sorted(refold), changes)
        db.seal_apply(changes)
    return moved


def _fields(redaction: Redaction) -> list[object]:
    meta = redaction.context.meta
    metadata = json.dumps(dict(meta.metadata), ensure_ascii=False, sort_keys=True)
    return [meta.source, meta.scope, meta.agent_id, meta.session_id, metadata]


def _one(db: Forgetting, redaction: Redaction, changes: dict[str, Seal], refold: set[bytes]) -> int:
    old, new = redaction.old, redaction.new
    if new == old:
        before = db.sealed_rows("contexts", [old])
        db.run(
            "UPDATE contexts SET source = ?, scope = ?, agent_id = ?, session_id = ?, metadata = ?"
            " WHERE space = ? AND hash = ?",
            [*_fields(redaction), db.space, old],
        )
        _fold(changes, "contexts", db.sealed_rows("contexts", [old]), before)
        return 0
    if not db.sealed_rows("contexts", [new]):
        db.run(
            "INSERT INTO contexts (space, hash, event_time, source, scope, agent_id, session_id,"
            " metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [db.space, new, redaction.context.meta.event_time, *_fields(redaction), redaction.created_at],
        )
        _fold(changes, "contexts", db.sealed_rows("contexts", [new]))
    moves = {before: after for before, after in redaction.moves if before != after}
    count = _move_episodes(db, moves, new, changes, refold)
    for table, column in _BESIDE:
        _rekey(db, table, column, moves, changes)
    db.drop_unreferenced_contexts([old], changes)
    return count


def _move_episodes(
    db: Forgetting, moves: dict[bytes, bytes], context: bytes, changes: dict[str, Seal], refold: set[bytes]
) -> int:
    """Write each moved episode again under its new hash and context; delete the old rows."""
    stored: set[bytes] = set()
    for table in _EPISODE_COLUMNS:
        rows = db.select_in(
            f"SELECT hash FROM {table} WHERE space = ?", "hash", sorted(set(moves.values())), [db.space]
        )
        stored.update(bytes(row[0]) for row in rows)
    count = 0
    for table, columns in _EPISODE_COLUMNS.items():
        select = f"SELECT {columns} FROM {table} WHERE space = ?"
        found = db.select_in(select, "hash", sorted(moves), [db.space])
        rows = sorted(found, key=lambda row: bytes(row[0]))  # the order the plan expects
        if not rows:
            continue
        before = db.sealed_rows(table, [bytes(row[0]) for row in rows])
        written = []
        for row in rows:
            target = moves[bytes(row[0])]
            if target in stored:  # observed in that context already: the stored episode absorbs it
                refold.add(bytes(row[1]))
                continue
            stored.add(target)
            written.append((db.space, target, bytes(row[1]), context, *row[3:]))
        marks = ", ".join("?" * (len(written[0]) if written else 0))
        if written:
            db.run_many(f"INSERT INTO {table} (space, {columns}) VALUES ({marks})", written)
        db.delete_rows(table, "hash", [bytes(row[0]) for row in rows])
        _fold(changes, table, db.sealed_rows(table, [row[1] for row in written]), before)
        count += len(written)
    return count


def _rekey(
    db: Forgetting, table: str, column: str, moves: dict[bytes, bytes], changes: dict[str, Seal]
) -> None:
    """Point `table`'s rows at the moved episodes' new hashes (a row the new hash has already wins)."""
    if not moves:
        return
    held = {
        bytes(row[0])
        for row in db.select_in(
            f"SELECT {column} FROM {table} WHERE space = ?", column, sorted(moves), [db.space]
        )
    }
    if not held:
        return
    taken = {
        bytes(row[0])
        for row in db.select_in(
            f"SELECT {column} FROM {table} WHERE space = ?",
            column,
            sorted({moves[key] for key in held}),
            [db.space],
        )
    }
    sealed = table in SEALED
    before = db.sealed_rows(table, sorted(held), column) if sealed else []
    db.delete_rows(table, column, sorted(key for key in held if moves[key] in taken))
    rekeyed = sorted(key for key in held if moves[key] not in taken)
    db.run_many(
        f"UPDATE {table} SET {column} = ? WHERE space = ? AND {column} = ?",
        [(moves[key], db.space, key) for key in rekeyed],
    )
    if sealed:
        _fold(changes, table, db.sealed_rows(table, [moves[key] for key in rekeyed], column), before)
