"""A purge in the memory: what else in the space mentions a purged term goes too, and stays out.

A concept forget removes the concept and its facts. A purge erases the label
everywhere: every other concept whose label or an alias mentions a purged term
(`zerolang.knowledge.terms`), and every context whose fields or metadata do
(the MCP graph's operation log keeps its operations there), are forgotten under
the same tombstone, and the terms' hashes are blocked (`forgotten_keys` rows of
kind `term:N`), so ingest, import and received bundles that mention them store
none of it. Other tombstones whose target or payload mentions a term are purged.
"""

from __future__ import annotations

from collections.abc import Iterable

from zerolang.knowledge.backend import Removed, TombstoneRow
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.terms import Forgotten, as_blocked, from_blocked, strings, term_keys


def purged_term_keys(store: MemoryStore, tombstone: bytes | None = None) -> list[tuple[str, int]]:
    """The term keys `(hash, words)` the space's purges blocked (or one tombstone's)."""
    rows = [(key, kind) for key, kind, owner in store.backend.forgotten_keys() if tombstone in (None, owner)]
    return from_blocked(rows)


def purged_terms(store: MemoryStore, tombstone: bytes | None = None) -> Forgotten:
    """The terms the space's purges blocked (or one tombstone's)."""
    return Forgotten.of(purged_term_keys(store, tombstone))


def mentioning(store: MemoryStore, forgotten: Forgotten) -> tuple[list[bytes], list[tuple[bytes, str]]]:
    """The episodes of what mentions a forgotten term in the space, and the concepts that do."""
    if not forgotten:
        return [], []
    backend = store.backend
    concepts = sorted(
        node.hash.digest for node in backend.scan_concepts() if forgotten.mentions(node.label, *node.aliases)
    )
    contexts = sorted(
        node.hash.digest for node, _ in backend.scan_contexts() if forgotten.mentions_any(node.meta.to_json())
    )
    facts = [fact.fact_hash.digest for fact in backend.facts_touching(concepts)] if concepts else []
    episodes = set(backend.episodes_by("fact_hash", facts)) if facts else set()
    if contexts:
        episodes.update(backend.episodes_by("context_hash", contexts))
    return sorted(episodes), [(key, "concept") for key in concepts]


def erase_terms(store: MemoryStore, row: TombstoneRow, terms: Iterable[str], at: str) -> Removed:
    """Within a purge's transaction: block `terms` under the (purged) tombstone `row`, forget what
    mentions them (or any term the tombstone blocked before), and purge the other tombstones that
    name them. What it removed."""
    keys = term_keys(terms)
    forgotten = Forgotten.of(keys) | purged_terms(store, row.hash)
    episodes, concepts = mentioning(store, forgotten)
    removed = store.backend.forget(row, episodes, [*concepts, *as_blocked(keys)])
    for other in store.backend.tombstones():
        live = other.purged_at is None and other.hash != row.hash
        if live and forgotten.mentions(*strings(other.target or ""), other.payload or ""):
            store.backend.purge_tombstone(other.hash, at)
    return removed


def add(first: Removed, second: Removed) -> Removed:
    return Removed(
        first.concepts + second.concepts,
        first.facts + second.facts,
        first.episodes + second.episodes,
        first.contexts + second.contexts,
    )
