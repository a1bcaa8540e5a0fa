"""A LangGraph `BaseStore` on 0-memory's entry store: `ZeroStore` (extra `langgraph`).

    from langgraph.graph import StateGraph
    from zerolang.agents.langgraph_store import ZeroStore

    store = ZeroStore.open("agent.db", space="alice")   # or a postgresql:// URL
    graph = builder.compile(checkpointer=..., store=store)

Items live in the conversation entry store of the memory `open` names (`zerolang.memory.opening`:
SQLite or PostgreSQL, full text, expiry), beside the captured experiences. A namespace's first part is the
space and the rest its scope (`zerolang.agents.namespaces` keys them). `batch` runs
`GetOp`, `PutOp` (a `None` value deletes), `SearchOp` (full-text `query` ranked by the engine,
bm25 or ts_rank; `filter` with `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`; `limit`, `offset`)
and `ListNamespacesOp` (prefix and suffix conditions with `*`, `max_depth`). `PutOp.index`
chooses the fields search matches (`False`: none). TTLs are in minutes, as LangGraph counts
them; reads refresh them unless told not to.

Deleting an item deletes its row and its full text in one transaction: no read, search or
listing returns it again, and no word of it stays in the full-text index's own storage (SQLite's
index is rewritten: it would keep a deleted row's terms in its segments until they merge). An
item that mentions what a memory forget blocked is left out of every read, as conversation
entries are; one that mentions what a purge erased is not stored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)

from zerolang.agents.namespaces import (
    ROOT,
    item_key,
    matches,
    namespace_matches,
    namespace_prefix,
    split_key,
    text_of,
)
from zerolang.convo.store import EntryStore
from zerolang.experience.forgotten import Forgotten, forgotten, scrub
from zerolang.experience.words import terms

EVERYTHING = 1_000_000  # how many full-text matches a filtered search reads before filtering


class ZeroStore(BaseStore):
    """LangGraph's long-term memory store on 0-memory (see the module's docstring)."""

    supports_ttl = True

    def __init__(
        self,
        entries: EntryStore,
        *,
        ttl: TTLConfig | None = None,
        clock: Callable[[], float] = time.time,
        owns: bool = False,
    ) -> None:
        self.entries = entries
        self.ttl_config = ttl
        self.clock = clock
        self._owns = owns
        self._lock = threading.Lock()  # LangGraph runs sync nodes on worker threads

    @classmethod
    def open(
        cls,
        db: str | Path | None = None,
        *,
        space: str | None = None,
        experiences: str | Path | None = None,
        **options: Any,
    ) -> ZeroStore:
        """A store in the memory `db` names (a SQLite file, created if missing, or a server URL; as
        `--db` on every command), in `space`, its items where that memory keeps conversations
        (`experiences` names their database apart); each not given as the settings say
        (`zerolang.memory.settings.resolve_stores`). Closing the store closes it. What the memory
        purged stays out of what it writes (`zerolang.memory.opening.open_conversations_of`)."""
        from zerolang.memory.opening import open_conversations_of
        from zerolang.memory.settings import resolve_stores

        stores = resolve_stores(db, space=space, experiences=experiences)
        return cls(open_conversations_of(stores, create=True), owns=True, **options)

    def close(self) -> None:
        if self._owns:
            self.entries.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    # ---- LangGraph's interface ----
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        with self._lock:
            return [self._run(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return self.batch(ops)  # the stores are synchronous and each operation short

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, PutOp):
            self._put(op)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list(op)
        raise ValueError(f"unknown store operation: {type(op).__name__}")

    # ---- entries ----
    def _entry(self, key: str, *, refresh: bool) -> dict[str, Any] | None:
        """The live entry at `key` (its TTL refreshed when asked), None when gone or forgotten."""
        entry = self.entries.get(key, now=self.clock())
        if entry is None or scrub(entry, forgotten(self.entries)) is None:
            return None
        if refresh and entry.get("ttl") is not None:
            self._write(key, entry)
        return entry

    def _write(self, key: str, entry: dict[str, Any]) -> None:
        minutes = entry.get("ttl")
        expires = None if minutes is None else self.clock() + float(minutes) * 60
        index = entry.get("index")
        text = "" if index is False else text_of(entry["value"], index)
        self.entries.put(key, entry, text=text, expires_at=expires)

    def _get(self, op: GetOp) -> Item | None:
        entry = self._entry(item_key(op.namespace, op.key), refresh=op.refresh_ttl)
        return None if entry is None else _item(entry)

    def _put(self, op: PutOp) -> None:
        key = item_key(op.namespace, op.key)
        if op.value is None:  # a delete leaves no word of the item in any index
            self.entries.delete(key, erase=True)
            return
        now = _stamp(self.clock())
        before = self.entries.get(key, now=self.clock())
        entry = {
            "namespace": list(op.namespace),
            "key": op.key,
            "value": dict(op.value),
            "created_at": before["created_at"] if before else now,
            "updated_at": now,
            "ttl": op.ttl,
            "index": op.index if op.index is False or op.index is None else list(op.index),
        }
        read = getattr(self.entries, "purged_terms", None)
        purged = Forgotten.of(read()) if read is not None else Forgotten()
        if purged and scrub(entry, purged) is None:  # what mentions a purged label is not stored:
            self.entries.delete(key, erase=True)  # the put replaced what was there, with nothing
            return
        self._write(key, entry)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = namespace_prefix(op.namespace_prefix)
        found: list[tuple[dict[str, Any], float | None]] = []
        if op.query and terms(op.query):
            wanted = EVERYTHING if op.filter else op.offset + op.limit
            for key, score in self.entries.search(prefix, terms(op.query), wanted, now=self.clock()):
                entry = self._entry(key, refresh=False)
                if entry is not None and split_key(key) is not None:
                    found.append((entry, score))
        else:
            for key in self.entries.keys(prefix, now=self.clock()):
                entry = self._entry(key, refresh=False) if split_key(key) is not None else None
                if entry is not None:
                    found.append((entry, None))
            found.sort(key=lambda pair: str(pair[0]["updated_at"]), reverse=True)
        chosen = [pair for pair in found if matches(pair[0]["value"], op.filter)][
            op.offset : op.offset + op.limit
        ]
        if op.refresh_ttl:
            for entry, _ in chosen:
                if entry.get("ttl") is not None:
                    self._write(item_key(entry["namespace"], entry["key"]), entry)
        return [_search_item(entry, score) for entry, score in chosen]

    def _list(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        spaces: set[tuple[str, ...]] = set()
        for key in self.entries.keys(ROOT, now=self.clock()):
            named = split_key(key)
            if named is None:
                continue
            namespace = named[0]
            if all(namespace_matches(namespace, c.match_type, c.path) for c in op.match_conditions or ()):
                spaces.add(namespace if op.max_depth is None else namespace[: op.max_depth])
        return sorted(spaces)[op.offset : op.offset + op.limit]


def _stamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat()


def _item(entry: dict[str, Any]) -> Item:
    return Item(
        value=entry["value"],
        key=entry["key"],
        namespace=tuple(entry["namespace"]),
        created_at=datetime.fromisoformat(entry["created_at"]),
        updated_at=datetime.fromisoformat(entry["updated_at"]),
    )


def _search_item(entry: dict[str, Any], score: float | None) -> SearchItem:
    return SearchItem(
        tuple(entry["namespace"]),
        entry["key"],
        entry["value"],
        datetime.fromisoformat(entry["created_at"]),
        datetime.fromisoformat(entry["updated_at"]),
        score,
    )
