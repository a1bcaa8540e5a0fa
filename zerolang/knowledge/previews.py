"""Previews of `purge` and `restore` (`--dry-run`): what they would do, read from the store with
the functions the acts use (`zerolang.knowledge.forget`, `zerolang.knowledge.scope`); nothing is
written. A forget's preview is its own plan (`forget.plan`, `forget(dry_run=True)`)."""

from __future__ import annotations

from dataclasses import dataclass

from zerolang.knowledge import scope
from zerolang.knowledge.backend import Removed
from zerolang.knowledge.forget import find_tombstone, payload_records, purged_terms_of, unredactions
from zerolang.knowledge.normalize import AliasTable
from zerolang.knowledge.store import MemoryStore
from zerolang.util.errors import ZeroError


@dataclass(frozen=True, slots=True)
class Preview:
    """What `purge` or `restore` of a tombstone would do (`--dry-run`): for a purge, what would go
    (`removed`, the concepts' `labels`) and the contexts it would redact; for a restore, the
    episodes and concepts that would come back and the redacted contexts put back."""

    action: str
    tombstone: str
    kind: str
    target: str | None
    removed: Removed
    redacted: int
    labels: tuple[str, ...]
    back: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "dry_run": True,
            "action": self.action,
            "tombstone": self.tombstone,
            "kind": self.kind,
            "target": self.target,
            "removed": self.removed.to_json(),
            "redacted": self.redacted,
            "labels": list(self.labels),
            "restored_episodes": self.back,
        }


def preview_purge(store: MemoryStore, query: str) -> Preview:
    """What `purge(store, query)` would erase in the memory; nothing is written."""
    from zerolang.knowledge.mentions import erasure

    with store.snapshot():
        row = find_tombstone(store, query)
        live = row.restored_at is None
        terms = purged_terms_of(store, row) if row.purged_at is None else ()
        found, blocked = erasure(store, row, terms) if live else (scope.Mentions((), (), ()), [])
        concepts = [key for key, kind in blocked if kind == "concept"]
        removed, gone = scope.predict(store, found.episodes, concepts, scope.episodes(store))
        labels = tuple(sorted(store.backend.labels(sorted(gone)).values()))
    target = row.target
    return Preview("purge", row.hash.hex(), row.kind, target, removed, len(found.redactions), labels)


def preview_restore(store: MemoryStore, query: str, aliases: AliasTable | None = None) -> Preview:
    """What `restore(store, query)` would put back; nothing is written."""
    with store.snapshot():
        row = find_tombstone(store, query, aliases)
        if row.restored_at is not None:
            raise ZeroError(f"tombstone {row.hash.hex()[:12]} was already restored at {row.restored_at}")
        records = payload_records(row.payload) if row.payload else []
        stored = scope.episodes(store)
        back = {r.episode_hash.digest for record in records for r in record.relations} - set(stored)
        concepts = {c.hash.digest: c.label for record in records for c in record.concepts}
        present = store.backend.concepts(sorted(concepts))
        labels = tuple(sorted(label for key, label in concepts.items() if key not in present))
        undone = len(unredactions(row.payload)) if row.payload else 0
    return Preview("restore", row.hash.hex(), row.kind, row.target, Removed(), undone, labels, len(back))
