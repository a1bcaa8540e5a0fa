"""0-memory: compile facts into `.0` graphs, content-address them, store and recall them.

    from zerolang.memory import CompilerInput, MemoryStore, compile_input, ingest

- `types`: the hash identities and the records (validated at construction);
- `normalize`: label and predicate normalisation, the alias table (spec §7);
- `hashing`: ConceptHash, FactHash, ContextHash, EpisodeHash (spec §7 vectors);
- `compiler`: CompilerInput -> (graph AST, MemoryRecord);
- `store`: `MemoryStore`, one space of a store on any backend (`backend`, `backends/`);
- `merge`: the merge rules every backend applies;
- `check`: what `MemoryStore.check` verifies (git-fsck style);
- `ingest`: reading inputs (JSON, JSON array, JSON Lines) into a store;
- `handle`: `open(...)`, the documented Python API (docs/python-api.md): one `Memory` object.

Names are imported on first use, so importing a submodule (a backend, the
state store) does not load the compiler.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.memory.check import Problem
    from zerolang.memory.compiler import build_graph, compile_input, compile_record
    from zerolang.memory.handle import Memory, open_memory
    from zerolang.memory.handle import open_memory as open
    from zerolang.memory.hashing import concept_hash, context_hash, episode_hash, fact_hash
    from zerolang.memory.ingest import SourcedInput, ingest, load_inputs, parse_inputs
    from zerolang.memory.normalize import DEFAULT_ALIASES, AliasTable, normalize_label, normalize_predicate
    from zerolang.memory.store import (
        CheckReport,
        ConceptView,
        Counts,
        FactView,
        InsertResult,
        MemoryStore,
        Observation,
        Progress,
    )
    from zerolang.memory.types import (
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

_HOMES = {
    "Problem": "zerolang.memory.check",
    "build_graph": "zerolang.memory.compiler",
    "compile_input": "zerolang.memory.compiler",
    "compile_record": "zerolang.memory.compiler",
    "Memory": "zerolang.memory.handle",
    "open_memory": "zerolang.memory.handle",
    # `zerolang.memory.open(location, space=...)`: the Python API's entry point
    "open": "zerolang.memory.handle",
    "concept_hash": "zerolang.memory.hashing",
    "context_hash": "zerolang.memory.hashing",
    "episode_hash": "zerolang.memory.hashing",
    "fact_hash": "zerolang.memory.hashing",
    "SourcedInput": "zerolang.memory.ingest",
    "ingest": "zerolang.memory.ingest",
    "load_inputs": "zerolang.memory.ingest",
    "parse_inputs": "zerolang.memory.ingest",
    "DEFAULT_ALIASES": "zerolang.memory.normalize",
    "AliasTable": "zerolang.memory.normalize",
    "normalize_label": "zerolang.memory.normalize",
    "normalize_predicate": "zerolang.memory.normalize",
    "CheckReport": "zerolang.memory.store",
    "ConceptView": "zerolang.memory.store",
    "Counts": "zerolang.memory.store",
    "FactView": "zerolang.memory.store",
    "InsertResult": "zerolang.memory.store",
    "MemoryStore": "zerolang.memory.store",
    "Observation": "zerolang.memory.store",
    "Progress": "zerolang.memory.store",
    "CompilerInput": "zerolang.memory.types",
    "ConceptHash": "zerolang.memory.types",
    "ConceptNode": "zerolang.memory.types",
    "ContextHash": "zerolang.memory.types",
    "ContextMeta": "zerolang.memory.types",
    "ContextNode": "zerolang.memory.types",
    "EpisodeHash": "zerolang.memory.types",
    "Fact": "zerolang.memory.types",
    "FactHash": "zerolang.memory.types",
    "InputError": "zerolang.memory.types",
    "MemoryRecord": "zerolang.memory.types",
    "RelationNode": "zerolang.memory.types",
    "SemanticTuple": "zerolang.memory.types",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(home)
    # Bind every name this module is home to: importing `zerolang.memory.ingest` has just set the
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
    "build_graph",
    "compile_input",
    "compile_record",
    "concept_hash",
    "context_hash",
    "episode_hash",
    "fact_hash",
    "ingest",
    "load_inputs",
    "normalize_label",
    "normalize_predicate",
    "open",
    "open_memory",
    "parse_inputs",
]
