"""`MemoryBackend`: every storage operation 0-memory needs, as small role protocols.

A backend is bound to one *space* (`DEFAULT_SPACE` unless asked): every read
and write sees only that space's rows, and `in_space` gives the same store
seen from another space. Content hashes never include the space.

Each role is a `typing.Protocol` of its own module, and code that needs a
backend takes the role (or the roles) it uses:

- `Lifetime`: the store's location, kind and spaces, transactions, closing;
- `Records`: applying records, and reading concepts, facts, contexts, episodes by key;
- `Traversal`: the facts around concepts, as recall and the BFS read them;
- `Scans`: the whole space in hash order (checkpoints, exports, copies);
- `Tiers`: working memory, accesses, semantic memory, pruning;
- `Forgetting`: tombstones, what they remove and block;
- `Temporal`: validity periods, the claims they come from, fact events and declarations;
- `Integrity`: the raw rows and seals `check` verifies;
- `Log`: the space's event log;
- `Words`: the word index over concept labels (questions in plain words).

`MemoryBackend` is all of them: what an engine implements and what
`zerolang.storage.registry.open_backend` returns. Implementations live in
`zerolang.storage` (`sqlite`: the embedded default, `postgres`: a shared
server); nothing else in zerolang writes SQL. The merge rules they apply are
`zerolang.knowledge.merge`, written once. The rows they take and return are
in `rows`, re-exported here with the roles.
"""

from __future__ import annotations

from typing import Protocol

from zerolang.knowledge.backend.forgetting import Forgetting
from zerolang.knowledge.backend.integrity import Integrity
from zerolang.knowledge.backend.lifetime import Lifetime
from zerolang.knowledge.backend.log import Log
from zerolang.knowledge.backend.records import Records
from zerolang.knowledge.backend.rows import (
    BOUND_COLUMNS,
    COMPARE_COLUMNS,
    COMPARE_OPS,
    ClaimRow,
    Counts,
    Declaration,
    EpisodeRow,
    FactEnds,
    FactEvent,
    FactFilter,
    FactTimes,
    InsertResult,
    LogEntry,
    PeriodRow,
    PrunedEpisode,
    RecallInputs,
    Redaction,
    Removed,
    SemanticRow,
    TierState,
    TombstoneRow,
)
from zerolang.knowledge.backend.scans import Scans
from zerolang.knowledge.backend.temporal import Temporal
from zerolang.knowledge.backend.tiers import Tiers
from zerolang.knowledge.backend.traversal import Traversal
from zerolang.knowledge.backend.words import Words


class MemoryBackend(
    Lifetime, Records, Traversal, Scans, Tiers, Forgetting, Temporal, Integrity, Log, Words, Protocol
):
    """A memory store's storage, seen from one space: every role (what an engine implements)."""

    __slots__ = ()


__all__ = [
    "BOUND_COLUMNS",
    "COMPARE_COLUMNS",
    "COMPARE_OPS",
    "ClaimRow",
    "Counts",
    "Declaration",
    "EpisodeRow",
    "FactEnds",
    "FactEvent",
    "FactFilter",
    "FactTimes",
    "Forgetting",
    "InsertResult",
    "Integrity",
    "Lifetime",
    "Log",
    "LogEntry",
    "MemoryBackend",
    "PeriodRow",
    "PrunedEpisode",
    "RecallInputs",
    "Records",
    "Redaction",
    "Removed",
    "Scans",
    "SemanticRow",
    "Temporal",
    "TierState",
    "Tiers",
    "TombstoneRow",
    "Traversal",
    "Words",
]
