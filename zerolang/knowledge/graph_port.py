"""`GraphMemory`: a memory store as the runtime's `MemoryPort`, for the memory builtins in graphs.

`zero run graph.0 --db PATH --space NAME` and `InterpreterRuntime` hand a run this
wrapper around their `MemoryStore` (seed 000 V3.1). Time comes from the run's clock,
so a graph that stores facts and recalls them runs deterministically. Recall and query
never record accesses: a run does not change what the next run ranks.
"""

from __future__ import annotations

from datetime import datetime

from zerolang.knowledge.compiler import compile_record
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.recall import RecallOptions, recall
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.types import CompilerInput, ContextMeta, SemanticTuple
from zerolang.runtime.values import Value, from_json
from zerolang.util.times import format_time

_RECALLED = ("concept", "depth", "score", "path")  # what a recall row shows a graph


class GraphMemory:
    """One space of a memory store, as the memory builtins see it (`zerolang.runtime.ports.MemoryPort`)."""

    __slots__ = ("memory",)

    def __init__(self, memory: MemoryStore) -> None:
        self.memory = memory

    def store(
        self,
        subject: str,
        predicate: str,
        obj: str,
        *,
        confidence: float,
        source: str,
        scope: str,
        event_time: str | None,
        now: datetime,
    ) -> dict[str, Value]:
        stamp = format_time(now)
        meta = ContextMeta(event_time if event_time is not None else stamp, source, scope)
        record = compile_record(
            CompilerInput((SemanticTuple(subject, predicate, obj, confidence),), meta), now=stamp
        )
        result = self.memory.insert_record(record, verify=False)
        relation = record.relations[0]
        return {
            "fact_hash": relation.fact_hash.hex(),
            "episode_hash": relation.episode_hash.hex(),
            "new": result.new_episodes > 0,
        }

    def recall(self, seed: str, *, depth: int, limit: int, now: datetime) -> list[dict[str, Value]]:
        options = RecallOptions(depth=depth, limit=limit, touch=False)
        rows: list[dict[str, Value]] = []
        for result in recall(self.memory, seed, options, clock=lambda: now):
            row = result.to_json()
            rows.append({key: from_json(row[key]) for key in _RECALLED})
        return rows

    def query(self, text: str, *, now: datetime) -> list[Value]:
        result = run_query(self.memory, text, clock=lambda: now, touch=False)
        return [from_json(row) for row in result.rows]
