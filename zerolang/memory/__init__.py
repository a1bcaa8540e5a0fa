"""0-memory: compile facts into `.0` graphs, content-address them, store and recall them.

    from zerolang.memory import CompilerInput, MemoryStore, compile_input, ingest

- `types`: the hash identities and the records (validated at construction);
- `normalize`: label and predicate normalisation, the alias table (spec §7);
- `hashing`: ConceptHash, FactHash, ContextHash, EpisodeHash (spec §7 vectors);
- `compiler`: CompilerInput -> (graph AST, MemoryRecord);
- `store`: the SQLite store with its merge rules;
- `check`: what `MemoryStore.check` verifies (git-fsck style);
- `ingest`: reading inputs (JSON, JSON array, JSON Lines) into a store;
- `handle`: `open(...)`, the documented Python API (docs/python-api.md): one `Memory` object.
"""

from __future__ import annotations

from zerolang.memory.check import Problem
from zerolang.memory.compiler import build_graph, compile_input, compile_record
from zerolang.memory.handle import Memory, open_memory
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

open = open_memory  # `zerolang.memory.open(location, space=...)`: the Python API's entry point

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
