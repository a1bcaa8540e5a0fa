"""Copying a memory between stores and backends (`zero memory migrate FROM TO`).

Each space is copied as what defines it: its concepts, contexts and every
episode, live or pruned, inserted through the target's merge rules, then the
pruned ones are pruned again with their original time and reason. The
target's checkpoint equals the source's, and so do its facts (confidence and
observations fold the same episodes). Inserting is idempotent (a stored or
pruned episode is a duplicate), so an interrupted copy, rerun, completes
without duplicating anything. Tombstones (with the keys they block) are
copied first, so nothing forgotten comes back through a copy; the validity
periods follow the records as the source recorded them; the append-only tables
(`CARRIED`: the fact history, the space's event log and its declarations) are carried row by row, the rows
the target's space lacks appended in the source's order (the records' own
insertion is not logged again: the source's log already tells it); the archive's
summary index rows of the space (`memory_index`) are copied as they are (a
rerun writes the same rows again). The tier state too: working memory (each
session's buffer in push order), access counts and semantic memory with the
episodes merged into it are set to the source's, so decay, recall ranking and
consolidation go on in the target as they would have in the source (a rerun
sets the same values again).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from zerolang.archive.index import IndexQuery, IndexStore
from zerolang.knowledge.backend import PrunedEpisode
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.types import (
    ConceptHash,
    ContextHash,
    EpisodeHash,
    FactHash,
    MemoryRecord,
    RelationNode,
)
from zerolang.storage.errors import StorageError
from zerolang.storage.sql.backend import SqlBackend

BATCH = 1000

# The append-only tables a copy carries as they are, each with the id column that orders it
# (a table added to the schema that only ever grows is carried by naming it here).
CARRIED: tuple[tuple[str, str], ...] = (("fact_events", "id"), ("space_log", "seq"), ("declarations", "seq"))


@dataclass(frozen=True, slots=True)
class CopyProgress:
    space: str
    done: int  # records of this space written
    total: int


@dataclass(frozen=True, slots=True)
class SpaceCopy:
    space: str
    records: int
    new_episodes: int
    pruned: int
    summaries: int = 0  # summary index rows copied


def copy_space(
    source: MemoryStore,
    target: MemoryStore,
    progress: Callable[[CopyProgress], None] | None = None,
    *,
    batch_size: int = BATCH,
) -> SpaceCopy:
    """Copy `source`'s space into `target`'s space (any backends); rerunnable. The source is read in
    one snapshot (`Lifetime.snapshot`): what commits to it meanwhile is not half copied."""
    with source.snapshot():
        return _copy_space(source, target, progress, batch_size)


def _copy_space(
    source: MemoryStore,
    target: MemoryStore,
    progress: Callable[[CopyProgress], None] | None,
    batch_size: int,
) -> SpaceCopy:
    from zerolang.knowledge.formats.model import Context, Snapshot

    backend = source.backend
    _copy_tombstones(source, target)
    pruned = backend.pruned()
    live = list(backend.scan_relations())
    relations = live + list(_pruned_relations(source, pruned))
    concepts = tuple(sorted(backend.scan_concepts(), key=lambda c: (c.created_at, c.hash.digest)))
    contexts = tuple(
        Context(node, at)
        for node, at in sorted(backend.scan_contexts(), key=lambda c: (c[1], c[0].hash.digest))
    )
    ordered = sorted(relations, key=lambda r: (r.created_at, r.episode_hash.digest))
    records = Snapshot(concepts, contexts, tuple(ordered)).to_records()
    records.sort(key=lambda r: (min(x.created_at for x in r.relations), r.context.hash.digest))
    total = len(records)
    target.keep_own_settings()  # the source's declarations are carried, not the folder's
    totals = target.insert_records(
        _counted(
            records,
            batch_size,
            lambda n: None if progress is None else progress(CopyProgress(source.space, n, total)),
        ),
        batch_size=batch_size,
        log=False,
    )
    by_when: dict[tuple[str, str], list[bytes]] = {}
    for item in pruned:
        by_when.setdefault((item.pruned_at, item.reason), []).append(item.hash)
    for (when, reason), keys in sorted(by_when.items()):
        target.backend.prune_episodes(keys, when, reason)
    _carry(source, target)
    _copy_periods(source, target)
    target.backend.put_tier_state(backend.tier_state())
    summaries = _copy_index(source, target)
    if progress is not None:
        progress(CopyProgress(source.space, total, total))
    return SpaceCopy(source.space, total, totals.new_episodes, len(pruned), summaries)


def _sql(store: MemoryStore) -> SqlBackend:
    backend = store.backend
    if not isinstance(backend, SqlBackend):
        raise StorageError(f"{store.path}: not a store of a storage engine")
    return backend


def _index(store: MemoryStore) -> IndexStore:
    """The archive's summary index in `store`'s database and space."""
    return _sql(store).index


def _carry(source: MemoryStore, target: MemoryStore) -> None:
    """Each append-only table of `CARRIED`: the source's rows the target's space lacks (counted as a
    multiset, so a rerun, or a row the target wrote itself, adds nothing), in the source's order."""
    origin, destination = _sql(source), _sql(target)
    for table, order in CARRIED:
        have = Counter(destination.appended_rows(table, order))
        missing = []
        for row in origin.appended_rows(table, order):
            if have[row]:
                have[row] -= 1
            else:
                missing.append(row)
        destination.append_rows(table, missing)


def _copy_index(source: MemoryStore, target: MemoryStore) -> int:
    """Every summary index row of the source's space, revoked ones too, into the target's space."""
    index = _index(source)
    count = index.count()
    if not count:
        return 0
    rows = index.search(IndexQuery(include_revoked=True, limit=count))
    destination = _index(target)
    with target.backend.transaction():
        for row in rows:
            destination.put(row)
    return len(rows)


def _copy_tombstones(source: MemoryStore, target: MemoryStore) -> None:
    keys: dict[bytes, list[tuple[bytes, str]]] = {}
    for key, kind, tombstone in source.backend.forgotten_keys():
        keys.setdefault(tombstone, []).append((key, kind))
    for row in source.backend.tombstones():
        target.backend.record_tombstone(row, keys.get(row.hash, []))


def _copy_periods(source: MemoryStore, target: MemoryStore) -> None:
    """The source's validity periods as they are, with their store times and causes (the target's
    ingest of the records recorded its own, at copy time: they go)."""
    from zerolang.knowledge.backend import FactFilter

    facts = [f.fact_hash.digest for f in source.backend.find_facts(FactFilter())]
    with target.transaction():
        target.backend.replace_periods(source.backend.periods(facts) if source.backend.has_periods() else [])


def _counted(records: list[MemoryRecord], every: int, seen: Callable[[int], None]) -> Iterator[MemoryRecord]:
    """The records, telling `seen` how many were taken after each `every` (a batch, then committed)."""
    for index, record in enumerate(records, 1):
        yield record
        if index % every == 0:
            seen(index)


def _pruned_relations(store: MemoryStore, pruned: list[PrunedEpisode]) -> Iterator[RelationNode]:
    facts = store.backend.facts([p.fact_hash for p in pruned])
    for item in pruned:
        fact = facts[item.fact_hash]
        yield RelationNode(
            fact_hash=FactHash(item.fact_hash),
            episode_hash=EpisodeHash(item.hash),
            subject_hash=ConceptHash(fact.subject_hash.digest),
            predicate=fact.predicate,
            object_hash=ConceptHash(fact.object_hash.digest),
            confidence=item.confidence,
            context_hash=ContextHash(item.context_hash),
            created_at=item.created_at,
        )


def copy_store(
    source: MemoryStore,
    target: MemoryStore,
    spaces: list[str] | None = None,
    progress: Callable[[CopyProgress], None] | None = None,
) -> list[SpaceCopy]:
    """Copy the named spaces (every space the source holds when None) to the same spaces in `target`."""
    with source.snapshot():  # every space of one state (the spaces share the source's connection)
        names = source.spaces() if spaces is None else spaces
        return [copy_space(source.in_space(name), target.in_space(name), progress) for name in names]
