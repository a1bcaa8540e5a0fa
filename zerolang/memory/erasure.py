"""The one registry of every place that holds content, and the purge that visits them all.

`zero memory forget --purge`, `zero memory purge`, `Memory.forget(purge=True)` and
the MCP `forget` tool (through the API) erase a purged tombstone's terms from each
place in `PLACES`, in order. The memory itself is purged first, inside the forget's
transaction (`zerolang.knowledge.forget` and `zerolang.knowledge.mentions`: the
concepts, facts, episodes, contexts, tiers and fact history that mention a term, and
the terms' hashes blocked); what this module reaches is everything beside it. A
place that is not there (no experience database, no archive folder) is skipped.

Every place that keeps text is listed, with how a purge erases it; those that keep
none say why. A new table or file that holds content must be added here (and to
`tests/memory/test_erasure.py`, which scans the bytes of every file and table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zerolang.experience.forgotten import PURGED
from zerolang.knowledge.mentions import purged_term_keys
from zerolang.knowledge.terms import Forgotten

if TYPE_CHECKING:
    from zerolang.archive.store import Archive
    from zerolang.experience.forgotten import ErasingStore, ForgettingStore
    from zerolang.knowledge.store import MemoryStore
    from zerolang.memory.settings import Stores

Blocks = dict[str, list[tuple[str, int]]]
"""Term keys under the name an experience store keeps them by (`<tombstone>:purged`)."""


@dataclass(slots=True)
class Reach:
    """The open stores a purge reaches; None (or empty) where a place is not there."""

    memory: MemoryStore
    experiences: ForgettingStore | None = None
    conversations: ErasingStore | None = None
    archive: Archive | None = None
    indexes: tuple[Any, ...] = ()  # summary indexes (`zerolang.storage.sql.index.SqlIndex`)


@dataclass(slots=True)
class Purge:
    """One purge on its way through the places: what it erases and what it erased so far."""

    reach: Reach
    tombstone: str
    at: str
    keys: list[tuple[str, int]]
    forgotten: Forgotten
    documents: set[str] = field(default_factory=set)  # archived documents to erase
    erased: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    holds: str
    erase: Callable[[Purge], int]


def _nothing(_purge: Purge) -> int:
    return 0


def _experiences(purge: Purge) -> int:
    store = purge.reach.experiences
    if store is None:
        return 0
    if purge.keys:  # capture stores nothing that mentions them (and recall, convo hide it)
        store.block_terms(purge.tombstone + PURGED, purge.keys)
    return store.erase_mentioning(purge.forgotten)


def _conversations(purge: Purge) -> int:
    entries = purge.reach.conversations
    return 0 if entries is None else entries.erase_mentioning(purge.forgotten)


def _summaries(purge: Purge) -> int:
    dropped: set[str] = set()
    for index in purge.reach.indexes:
        erase = getattr(index, "erase", None)
        if erase is not None:
            dropped.update(erase(purge.forgotten))
    purge.documents |= dropped
    return len(dropped)


def _documents(purge: Purge) -> int:
    from zerolang.memory.holders import documents_mentioning

    archive = purge.reach.archive
    if archive is None:
        return 0
    purge.documents |= documents_mentioning(archive, purge.forgotten)
    erased = archive.erase(sorted(purge.documents), purge.at) if purge.documents else []
    for index in purge.reach.indexes:  # their summaries go with them, in every space
        erase = getattr(index, "erase", None)
        if erase is not None and purge.documents:
            erase(Forgotten(), sorted(purge.documents))
    return len(erased)


def _freed(purge: Purge) -> int:
    purge.reach.memory.backend.erase_freed()
    return 0


PLACES: tuple[Place, ...] = (
    Place(
        "memory",
        "concepts and aliases, facts, episodes (live and pruned), contexts, working and semantic tiers,"
        " fact history (fact_periods, fact_events), declarations, tombstones' targets and payloads:"
        " purged inside the forget's transaction (zerolang.knowledge.mentions)",
        _nothing,
    ),
    Place(
        "event log",
        "space_log: hashes and counts only, never labels; fact_events of erased facts go with them",
        _nothing,
    ),
    Place(
        "MCP graph log",
        "the contexts of source mcp:knowledge-graph (each operation's kg_op metadata):"
        " purged with the memory's contexts",
        _nothing,
    ),
    Place(
        "experiences",
        "experiences, their concepts and the full-text index; the terms' hashes block what capture"
        " adds later",
        _experiences,
    ),
    Place("conversations", "conversation entries (zero convo), messages that mention a term", _conversations),
    Place(
        "archive summaries",
        "memory_index rows whose summary mentions a term, in every space (their documents go too)",
        _summaries,
    ),
    Place(
        "archived documents",
        "documents that mention a term, in every tier (a cold bundle is rewritten): each hash"
        " stays as a tombstone, `zero archive get` says erased",
        _documents,
    ),
    Place("caches", "parser tables only (zerolang.util.cache): no content", _nothing),
    Place(
        "freed storage",
        "the memory's file: deleted rows' pages zeroed, VACUUM, WAL checkpoint (PostgreSQL: VACUUM)",
        _freed,
    ),
)


def erase_everywhere(reach: Reach, tombstone: str, at: str, terms: Iterable[str] = ()) -> dict[str, int]:
    """Visit every place with a purged tombstone's terms (those the memory recorded under it, and
    `terms`): what each erased, by place name (places that erased nothing left out)."""
    from zerolang.knowledge.terms import term_keys

    keys = sorted({*purged_term_keys(reach.memory, bytes.fromhex(tombstone)), *term_keys(terms)})
    purge = Purge(reach, tombstone, at, keys, Forgotten.of(keys))
    for place in PLACES:
        count = place.erase(purge)
        if count:
            purge.erased[place.name] = count
    return purge.erased


_UNITS = {
    "experiences": ("experience record", "experience records"),
    "conversations": ("conversation entry", "conversation entries"),
    "archive summaries": ("archive summary", "archive summaries"),
    "archived documents": ("archived document", "archived documents"),
}


def describe(erased: dict[str, int]) -> str:
    """`erased: 3 experience records, 1 archived document` (empty when nothing was)."""
    if not erased:
        return ""
    parts = []
    for name, count in erased.items():
        one, many = _UNITS.get(name, (name, name))
        parts.append(f"{count} {one if count == 1 else many}")
    return "erased: " + ", ".join(parts)


def purged_blocks(memory: MemoryStore) -> Blocks:
    """The term keys each of the memory's purges blocked, under the name an experience store keeps
    them by (`<tombstone>:purged`): read only, for a reader that must hide what a purge never
    reached (`zero explore`) and for `zerolang.memory.opening.carry_purges_into`."""
    from zerolang.knowledge.terms import from_blocked

    owners: dict[bytes, list[tuple[bytes, str]]] = {}
    for key, kind, owner in memory.backend.forgotten_keys():
        owners.setdefault(owner, []).append((key, kind))
    blocks: Blocks = {}
    for owner, rows in sorted(owners.items()):
        keys = from_blocked(rows)
        if keys:
            blocks[owner.hex() + PURGED] = keys
    return blocks


def carry_blocks(blocks: Blocks, experiences: ForgettingStore) -> int:
    """Block in the experience store the terms of `blocks` (`purged_blocks`) it does not block yet."""
    added = 0
    for owner, keys in blocks.items():
        known = set(experiences.forgotten_terms(owner))
        missing = [key for key in keys if key not in known]
        if missing:
            experiences.block_terms(owner, missing)
            added += len(missing)
    return added


@dataclass(frozen=True, slots=True)
class PurgesHidden:
    """An experience store read with the memory's purged terms blocked as well, writing nothing.

    A purge erases what mentions its terms in the experience database it reaches and blocks their
    hashes there; a database it never reached (made later, or elsewhere at the time) still holds the
    text. Writers carry the purges in before they write (`zerolang.memory.opening`); a reader (`zero recall`,
    `zero explore`) reads through this instead: recall, the budgeted context and the conversation
    pages then leave out what mentions a purged term, as they leave out what the store blocks.
    `blocks` gives the memory's purges when asked (`purged_blocks`, or what was read of them)."""

    store: Any
    blocks: Callable[[], Blocks]

    def forgotten_terms(self, tombstone: str | None = None) -> list[tuple[str, int]]:
        """The store's blocked terms and, for every tombstone, those the memory's purges blocked."""
        found: list[tuple[str, int]] = self.store.forgotten_terms(tombstone)
        known = set(found)
        for owner, keys in self.blocks().items():
            if tombstone is None or tombstone == owner:
                found += [key for key in keys if key not in known]
                known.update(keys)
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def purges_of(stores: Stores) -> Blocks:
    """The term keys the purges of the memory `stores` name blocked (`purged_blocks`), when that
    memory exists; read only. Empty when there is no memory, or it cannot be opened (nothing it
    purged can be read)."""
    location = stores.memory
    if location.holds_nothing_yet:
        return {}
    from zerolang.storage import open_store
    from zerolang.util.errors import ZeroError

    try:
        memory = open_store(location, space=stores.space, create=False)
    except ZeroError:  # an unreachable or foreign memory
        return {}
    try:
        return purged_blocks(memory)
    finally:
        memory.close()
