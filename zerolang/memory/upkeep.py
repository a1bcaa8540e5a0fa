"""What `zero memory` and `zero run` do to a fact store beside `Memory`'s methods, through the door.

The surfaces never import the domain's writers (`zerolang.knowledge.ingest`, `tiers`,
`temporal`, `formats.exchange`, `formats.bundle`, `graph_port`: pyproject's import-linter contract);
they call these, each one the domain function that owns the behaviour, on a store opened through
`zerolang.memory.opening`. Imports stay inside the functions, so `zero --help` loads none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.knowledge.formats.bundle import Checked, Received
    from zerolang.knowledge.ingest import SourcedInput
    from zerolang.knowledge.normalize import AliasTable
    from zerolang.knowledge.store import InsertResult, MemoryStore, Progress
    from zerolang.knowledge.tiers import ConsolidationResult
    from zerolang.knowledge.tiers import Episode as Episode
    from zerolang.knowledge.types import CompilerInput
    from zerolang.runtime.ports import MemoryPort
    from zerolang.util.times import Clock

__all__ = [
    "EXPORT_FORMATS",
    "LEVELS",
    "apply_bundle",
    "check_bundle",
    "consolidate",
    "export_text",
    "graph_memory",
    "import_text",
    "ingest_inputs",
    "ingest_one",
    "make_bundle",
    "signer_id",
    "store_time",
    "sweep",
]

EXPORT_FORMATS = ("0", "0c", "json")
"""The forms `export_text` writes (`zerolang.knowledge.formats.exchange.Format`)."""
LEVELS = ("L0", "L1", "L2")
"""The detail levels of a `.0c` export (`zerolang.knowledge.formats.levels.Level`)."""


def ingest_inputs(
    store: MemoryStore,
    inputs: Sequence[SourcedInput],
    *,
    aliases: AliasTable | None = None,
    batch_size: int,
    progress: Callable[[Progress], None] | None = None,
    now: str | None = None,
) -> InsertResult:
    """Compile and store `inputs`, committing every `batch_size` records (`zero memory ingest`)."""
    from zerolang.knowledge.ingest import ingest

    return ingest(store, inputs, aliases=aliases, batch_size=batch_size, progress=progress, now=now)


def ingest_one(store: MemoryStore, given: CompilerInput) -> InsertResult:
    """Compile and store one input in the caller's transaction (the MCP knowledge graph's operations)."""
    from zerolang.knowledge.ingest import ingest_one as store_one

    return store_one(store, given)


def consolidate(
    store: MemoryStore,
    *,
    min_episodes: int,
    min_confidence: float,
    half_life: float,
    clock: Clock,
    dry_run: bool,
) -> ConsolidationResult:
    """Promote facts seen in enough confident episodes, then prune decayed ones (`consolidate`)."""
    from zerolang.knowledge.tiers import consolidate as promote

    return promote(
        store,
        min_episodes=min_episodes,
        min_confidence=min_confidence,
        half_life=half_life,
        clock=clock,
        dry_run=dry_run,
    )


def sweep(
    store: MemoryStore, *, half_life: float, min_confidence: float, clock: Clock, dry_run: bool
) -> list[Episode]:
    """Prune the episodes decayed below `min_confidence` (`zero memory sweep`); the pruned ones."""
    from zerolang.knowledge.tiers import EpisodicMemory

    return EpisodicMemory(store, half_life, min_confidence, clock).sweep(dry_run=dry_run)


def export_text(store: MemoryStore, form: str, level: str, since: str | None = None) -> str:
    """The store as `form` (one of `EXPORT_FORMATS`) at `level` (`LEVELS`); a delta after `since`."""
    from zerolang.knowledge.formats.exchange import Format, export
    from zerolang.knowledge.formats.levels import Level

    return export(store, Format(form), Level(level), since)


def import_text(store: MemoryStore, text: str, name: str) -> tuple[str, int]:
    """Load an export or a delta into the store, all or nothing; (what it was, relations)."""
    from zerolang.knowledge.formats.exchange import import_text as load

    return load(store, text, name)


def make_bundle(store: MemoryStore, signer: object, since: str | None = None) -> str:
    """The store's signed bundle (a delta after checkpoint `since`) for `zero memory receive`."""
    from zerolang.knowledge.formats.bundle import make

    return make(store, signer, since)


def signer_id(public_key: bytes) -> str:
    """A bundle signer's short name."""
    from zerolang.knowledge.formats.bundle import key_id

    return key_id(public_key)


def check_bundle(text: str, trusted: Sequence[bytes], name: str) -> Checked:
    """A bundle's signature and shape checked against `trusted` keys, before any store is opened."""
    from zerolang.knowledge.formats.bundle import check

    return check(text, trusted, name)


def apply_bundle(store: MemoryStore, bundle: Checked, name: str) -> Received:
    """Apply a checked bundle in one transaction, on its base checkpoint only."""
    from zerolang.knowledge.formats.bundle import apply

    return apply(store, bundle, name)


def store_time(text: str, what: str) -> str:
    """An ISO 8601 time as the store keeps it; a `ZeroError` naming `what` when it is not one."""
    from zerolang.knowledge.temporal import utc

    return utc(text, what)


def graph_memory(store: MemoryStore) -> MemoryPort:
    """The store as a graph's `Memory*` ops reach it (`zero run --db`)."""
    from zerolang.knowledge.graph_port import GraphMemory

    return GraphMemory(store)
