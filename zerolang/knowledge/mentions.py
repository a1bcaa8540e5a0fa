"""A purge in the memory: what else in the space mentions a purged term goes too, and stays out.

A concept forget removes the concept and its facts. A purge erases the label
everywhere: the facts of every other concept whose label or an alias mentions a
purged term (`zerolang.knowledge.terms`), or whose predicate does, are forgotten
under the same tombstone, every context whose fields or metadata name one (the MCP
graph's operation log keeps its operations there) is redacted, its other facts
kept (`zerolang.knowledge.scope`), and the terms' hashes are blocked (`forgotten_keys` rows of
kind `term:N`), so ingest, import and received bundles that mention them store
none of it. Other tombstones whose target or payload mentions a term are purged.
"""

from __future__ import annotations

from collections.abc import Iterable

from zerolang.knowledge import scope
from zerolang.knowledge.backend import Removed, TombstoneRow
from zerolang.knowledge.scope import Mentions
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.terms import Forgotten, as_blocked, from_blocked, strings, term_keys


def purged_term_keys(store: MemoryStore, tombstone: bytes | None = None) -> list[tuple[str, int]]:
    """The term keys `(hash, words)` the space's purges blocked (or one tombstone's)."""
    rows = [(key, kind) for key, kind, owner in store.backend.forgotten_keys() if tombstone in (None, owner)]
    return from_blocked(rows)


def purged_terms(store: MemoryStore, tombstone: bytes | None = None) -> Forgotten:
    """The terms the space's purges blocked (or one tombstone's)."""
    return Forgotten.of(purged_term_keys(store, tombstone))


def erasure(
    store: MemoryStore, row: TombstoneRow, terms: Iterable[str]
) -> tuple[Mentions, list[tuple[bytes, str]]]:
    """What erasing `terms` under the tombstone `row` takes (`zerolang.knowledge.scope`), and the
    keys it blocks: the concepts that mention a term and the terms' hashes; nothing is written."""
    keys = term_keys(terms)
    forgotten = Forgotten.of(keys) | purged_terms(store, row.hash)
    found = scope.mentions(store, forgotten)
    return found, [*((key, "concept") for key in found.concepts), *as_blocked(keys)]


def erase_terms(store: MemoryStore, row: TombstoneRow, terms: Iterable[str], at: str) -> Removed:
    """Within a purge's transaction: block `terms` under the (purged) tombstone `row`, take what a
    term (or any term the tombstone blocked before) takes part in, redact the contexts that name one
    (logged), and purge the other tombstones that name them. What it removed."""
    found, blocked = erasure(store, row, terms)
    forgotten = Forgotten.of(term_keys(terms)) | purged_terms(store, row.hash)
    removed = store.backend.forget(row, found.episodes, blocked)
    if found.redactions:
        moved = store.backend.redact(found.redactions)
        store.backend.append_log(at, "redact", row.hash, scope.redaction_detail(len(found.redactions), moved))
    for other in store.backend.tombstones():
        live = other.purged_at is None and other.hash != row.hash
        if live and forgotten.mentions(*strings(other.target or ""), other.payload or ""):
            store.backend.purge_tombstone(other.hash, at)
    return removed
