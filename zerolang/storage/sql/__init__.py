"""The SQL SQLite and PostgreSQL share, written once with `?` placeholders (see `core`).

- `core`: what every part runs its SQL on (`SqlStatements`; a memory backend's `SqlCore`);
- `records`: writing records by the merge plan, and every read of concepts, facts, episodes;
- `tiers`: working memory, access counts, semantic memory, pruning;
- `checks`: the raw scans `zerolang.knowledge.check` verifies;
- `forgetting`: tombstones, removing what they forget and blocking its return;
- `temporal`: bi-temporal fact times and the fact history log;
- `index`: the archive's summary index (`memory_index`), the backend's `.index`;
- `database`, `fulltext`: the experience database as its stores see it, and what an engine's
  full text gives them;
- `experiences`, `conversations`: the experience store and the conversation store, once for
  every engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerolang.storage.sql.checks import CheckScans
from zerolang.storage.sql.forgetting import Forgetting
from zerolang.storage.sql.records import Records
from zerolang.storage.sql.temporal import Temporal
from zerolang.storage.sql.tiers import Tiers

if TYPE_CHECKING:
    from zerolang.storage.sql.index import SqlIndex


class SqlBackend(Records, Tiers, CheckScans, Forgetting, Temporal):
    """Everything a `MemoryBackend` does in SQL; a dialect subclass supplies the connection."""

    __slots__ = ()

    @property
    def index(self) -> SqlIndex:
        """The archive's summary index in this store, in this space (closing it leaves the store open)."""
        # Imported here: the index needs the archive's modules, which a recall or a get never does.
        from zerolang.storage.sql.index import SqlIndex

        return SqlIndex(self)


__all__ = ["SqlBackend"]
