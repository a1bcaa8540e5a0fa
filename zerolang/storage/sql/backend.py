"""The memory backend in SQL: every role's mixin together (`SqlBackend`); a dialect adds the connection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerolang.storage.sql.forgetting import Forgetting
from zerolang.storage.sql.integrity import Integrity
from zerolang.storage.sql.log import Log
from zerolang.storage.sql.records import Records
from zerolang.storage.sql.scans import Scans
from zerolang.storage.sql.temporal import Temporal
from zerolang.storage.sql.tiers import Tiers
from zerolang.storage.sql.traversal import Traversal

if TYPE_CHECKING:
    from zerolang.storage.sql.index import SqlIndex


class SqlBackend(Records, Traversal, Scans, Tiers, Forgetting, Temporal, Integrity, Log):
    """Everything a `MemoryBackend` does in SQL; a dialect subclass supplies the connection."""

    __slots__ = ()

    @property
    def index(self) -> SqlIndex:
        """The archive's summary index in this store, in this space (closing it leaves the store open)."""
        # Imported here: the index needs the archive's modules, which a recall or a get never does.
        from zerolang.storage.sql.index import SqlIndex

        return SqlIndex(self)
