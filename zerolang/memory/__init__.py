"""0-memory's Python API: `zerolang.memory.open(...)` and the names a program needs, in one place.

    import zerolang.memory
    with zerolang.memory.open("agent.db", space="alice") as memory: ...

    from zerolang.memory import CompilerInput, MemoryStore, compile_input, ingest, open_store

- `open` / `open_memory` (`api`): one `Memory` object for facts, queries, captured
  experiences and the archive, as docs/python-api.md documents it;
- the memory domain's names (`zerolang.knowledge`): the records and their hashes, the
  compiler, normalisation, ingest, `MemoryStore` and its views;
- `open_store` (`zerolang.storage`): a `MemoryStore` on the store a path or URL names;
- `open_experiences_of`, `open_conversations_of`, `carry_purges_into`, `move_conversations`
  (`opening`): a memory's conversations and experiences, in its space, the memory's purges
  carried into them, and an older release's separate file moved into the memory's.
- `TombstoneRow`, `FactTimes` (`zerolang.knowledge.backend`): a forget's record and a fact's
  times, as the surfaces show them (they never import the backend: pyproject's import-linter
  contract).

This package sits above the domain and the storage layer; it adds no behaviour of its
own. Names are imported on first use, so `import zerolang.memory` loads nothing heavy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.knowledge.backend import FactTimes, TombstoneRow
    from zerolang.knowledge.check import Problem
    from zerolang.knowledge.compiler import build_graph, compile_input, compile_record
    from zerolang.knowledge.hashing import concept_hash, context_hash, episode_hash, fact_hash
    from zerolang.knowledge.ingest import SourcedInput, ingest, load_inputs, parse_inputs
    from zerolang.knowledge.normalize import DEFAULT_ALIASES, AliasTable, normalize_label, normalize_predicate
    from zerolang.knowledge.store import (
        CheckReport,
        ConceptView,
        Counts,
        FactView,
        InsertResult,
        MemoryStore,
        Observation,
        Progress,
    )
    from zerolang.knowledge.types import (
        CompilerInput,
        ConceptHash,
        ConceptNode,
        ContextHash,
        ContextMeta,
        ContextNode,
        EpisodeHash,
        Fact,
        FactHash,
        InputError,
        MemoryRecord,
        RelationNode,
        SemanticTuple,
    )
    from zerolang.memory.api import Memory, open_memory
    from zerolang.memory.api import open_memory as open
    from zerolang.memory.opening import (
        carry_purges_into,
        move_conversations,
        open_conversations_of,
        open_experiences_of,
    )
    from zerolang.storage.registry import open_store

_HOMES = {
    "open_store": "zerolang.storage.registry",
    "Problem": "zerolang.knowledge.check",
    "TombstoneRow": "zerolang.knowledge.backend",
    "FactTimes": "zerolang.knowledge.backend",
    "build_graph": "zerolang.knowledge.compiler",
    "compile_input": "zerolang.knowledge.compiler",
    "compile_record": "zerolang.knowledge.compiler",
    "Memory": "zerolang.memory.api",
    "open_memory": "zerolang.memory.api",
    # `zerolang.memory.open(location, space=...)`: the Python API's entry point
    "open": "zerolang.memory.api",
    "concept_hash": "zerolang.knowledge.hashing",
    "context_hash": "zerolang.knowledge.hashing",
    "episode_hash": "zerolang.knowledge.hashing",
    "fact_hash": "zerolang.knowledge.hashing",
    "SourcedInput": "zerolang.knowledge.ingest",
    "ingest": "zerolang.knowledge.ingest",
    "load_inputs": "zerolang.knowledge.ingest",
    "parse_inputs": "zerolang.knowledge.ingest",
    "DEFAULT_ALIASES": "zerolang.knowledge.normalize",
    "AliasTable": "zerolang.knowledge.normalize",
    "normalize_label": "zerolang.knowledge.normalize",
    "normalize_predicate": "zerolang.knowledge.normalize",
    "CheckReport": "zerolang.knowledge.store",
    "ConceptView": "zerolang.knowledge.store",
    "Counts": "zerolang.knowledge.store",
    "FactView": "zerolang.knowledge.store",
    "InsertResult": "zerolang.knowledge.store",
    "MemoryStore": "zerolang.knowledge.store",
    "Observation": "zerolang.knowledge.store",
    "Progress": "zerolang.knowledge.store",
    "CompilerInput": "zerolang.knowledge.types",
    "ConceptHash": "zerolang.knowledge.types",
    "ConceptNode": "zerolang.knowledge.types",
    "ContextHash": "zerolang.knowledge.types",
    "ContextMeta": "zerolang.knowledge.types",
    "ContextNode": "zerolang.knowledge.types",
    "EpisodeHash": "zerolang.knowledge.types",
    "Fact": "zerolang.knowledge.types",
    "FactHash": "zerolang.knowledge.types",
    "InputError": "zerolang.knowledge.types",
    "MemoryRecord": "zerolang.knowledge.types",
    "RelationNode": "zerolang.knowledge.types",
    "SemanticTuple": "zerolang.knowledge.types",
    "carry_purges_into": "zerolang.memory.opening",
    "move_conversations": "zerolang.memory.opening",
    "open_conversations_of": "zerolang.memory.opening",
    "open_experiences_of": "zerolang.memory.opening",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(home)
    # Bind every name this module is home to: importing `zerolang.knowledge.ingest` has just set the
    # package attribute `ingest` to the submodule, which must not shadow the function of that name.
    for other, other_home in _HOMES.items():
        if other_home == home:
            globals()[other] = getattr(module, "open_memory" if other == "open" else other)
    return globals()[name]


__all__ = [
    "DEFAULT_ALIASES",
    "AliasTable",
    "CheckReport",
    "CompilerInput",
    "ConceptHash",
    "ConceptNode",
    "ConceptView",
    "ContextHash",
    "ContextMeta",
    "ContextNode",
    "Counts",
    "EpisodeHash",
    "Fact",
    "FactHash",
    "FactTimes",
    "FactView",
    "InputError",
    "InsertResult",
    "Memory",
    "MemoryRecord",
    "MemoryStore",
    "Observation",
    "Problem",
    "Progress",
    "RelationNode",
    "SemanticTuple",
    "SourcedInput",
    "TombstoneRow",
    "build_graph",
    "carry_purges_into",
    "compile_input",
    "compile_record",
    "concept_hash",
    "context_hash",
    "episode_hash",
    "fact_hash",
    "ingest",
    "load_inputs",
    "move_conversations",
    "normalize_label",
    "normalize_predicate",
    "open",
    "open_conversations_of",
    "open_experiences_of",
    "open_memory",
    "open_store",
    "parse_inputs",
]
