"""Storage: every store zerolang keeps, on every engine, opened through one registry.

- `registry`: `open_store`, `open_backend`, `open_index`, `open_experiences`,
  `open_conversations`, `open_state`, `tokens_of`: a path or URL to the engine for its scheme
  (`holds_conversations`: whether an older release's separate file still holds turns;
  `holds_purges`: whether a memory may hold purges to carry);
- `errors`: the `StorageError` family every engine's failures become;
- `sql`: the SQL the engines share, written once with `?` placeholders;
- `sqlite`: the embedded default, one file (or `:memory:`);
- `postgres`: a shared PostgreSQL server (psycopg 3, the `postgres` extra).

Nothing outside this package writes SQL or picks an engine.
"""

from __future__ import annotations

from zerolang.storage.errors import EngineError, StorageError, UnknownEngine, storage_errors
from zerolang.storage.registry import (
    absorb_experiences,
    conversations_on,
    engine_for,
    holds_conversations,
    holds_purges,
    index_of,
    open_backend,
    open_conversations,
    open_experiences,
    open_index,
    open_state,
    open_store,
    tokens_of,
)

__all__ = [
    "EngineError",
    "StorageError",
    "UnknownEngine",
    "absorb_experiences",
    "conversations_on",
    "engine_for",
    "holds_conversations",
    "holds_purges",
    "index_of",
    "open_backend",
    "open_conversations",
    "open_experiences",
    "open_index",
    "open_state",
    "open_store",
    "storage_errors",
    "tokens_of",
]
