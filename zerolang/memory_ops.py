"""Memory inside graphs: the `MemoryStore`, `MemoryRecall` and `MemoryQuery` builtins (seed 000 V3.1).

A graph reaches the memory the runner gives it (`zero run graph.0 --db PATH
--space NAME`, or `RunContext.memory`); without one these ops fail with a
clear error. Time comes from the run's clock (`zero run --now`), so a graph
that stores facts and recalls them runs deterministically. Recall and query
never record accesses (a run does not change what the next run ranks).
Outside the `zerolang.memory` package so that importing the builtins (every
`zero run`) does not import the memory; each op imports it when it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zerolang.builtins import Inputs, Params, RunContext, builtin
from zerolang.errors import RunError, ZeroError
from zerolang.values import Value, as_number, from_json

if TYPE_CHECKING:
    from zerolang.memory.store import MemoryStore as Store


def _memory(ctx: RunContext, op: str) -> Store:
    memory: Any = ctx.memory
    if memory is None:
        raise RunError(
            f"{op} needs a memory store: run the graph with `zero run FILE --db PATH [--space NAME]`"
        )
    return memory  # type: ignore[no-any-return]


def _text(inputs: Inputs, index: int, what: str, op: str) -> str:
    value = inputs[index] if index < len(inputs) else None
    if not isinstance(value, str) or not value.strip():
        raise RunError(f"{op}: the {what} (input {index + 1}) must be a non-empty string")
    return value


def _number(given: Value, name: str, op: str) -> float:
    value = as_number(given)
    if value is None:
        raise RunError(f"{op}: param `{name}` must be a number")
    return value


def _now(ctx: RunContext) -> str:
    from datetime import UTC, datetime

    from zerolang.memory.tiers import format_time

    return format_time(datetime.fromtimestamp(ctx.clock(), UTC))


@builtin(
    "MemoryStore",
    "memory",
    reads="subject, predicate, object",
    params={
        "confidence": "how sure the graph is, 0..1 (default 1.0)",
        "source": 'where the fact came from (default "graph")',
        "scope": 'what it is about (default "graph")',
        "event_time": "when it was observed (default: the run's clock)",
    },
)
def memory_store(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Store the fact `subject predicate object` in the run's memory; returns {fact_hash, episode_hash, new}.

    Storing the same fact in the same context again changes nothing (`new` is false).
    """
    from zerolang.memory.compiler import compile_record
    from zerolang.memory.types import CompilerInput, ContextMeta, SemanticTuple

    store = _memory(ctx, "MemoryStore")
    subject = _text(inputs, 0, "subject", "MemoryStore")
    predicate = _text(inputs, 1, "predicate", "MemoryStore")
    obj = _text(inputs, 2, "object", "MemoryStore")
    confidence = _number(params.get("confidence", 1.0), "confidence", "MemoryStore")
    now = _now(ctx)
    event_time = params.get("event_time", now)
    try:
        meta = ContextMeta(
            str(event_time), str(params.get("source", "graph")), str(params.get("scope", "graph"))
        )
        record = compile_record(
            CompilerInput((SemanticTuple(subject, predicate, obj, float(confidence)),), meta), now=now
        )
        result = store.insert_record(record, verify=False)
    except (ZeroError, ValueError) as error:
        raise RunError(f"MemoryStore: {error}") from None
    relation = record.relations[0]
    return {
        "fact_hash": relation.fact_hash.hex(),
        "episode_hash": relation.episode_hash.hex(),
        "new": result.new_episodes > 0,
    }


@builtin(
    "MemoryRecall",
    "memory",
    reads="seed, after...",
    params={"depth": "hops from the seed, 1..10 (default 2)", "limit": "at most this many (default 10)"},
)
def memory_recall(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Recall what is around a concept: a list of {concept, depth, score, path}, best first.

    Inputs after the seed are not read: they order the run (recall after a `MemoryStore`).
    """
    from zerolang.memory.recall import RecallOptions, recall

    store = _memory(ctx, "MemoryRecall")
    seed = _text(inputs, 0, "seed concept", "MemoryRecall")
    depth = int(_number(params.get("depth", 2), "depth", "MemoryRecall"))
    limit = int(_number(params.get("limit", 10), "limit", "MemoryRecall"))
    if not 1 <= depth <= 10 or limit < 1:
        raise RunError("MemoryRecall: depth must be 1..10 and limit at least 1")
    from datetime import UTC, datetime

    moment = datetime.fromtimestamp(ctx.clock(), UTC)
    try:
        results = recall(
            store, seed, RecallOptions(depth=depth, limit=limit, touch=False), clock=lambda: moment
        )
    except ZeroError as error:
        raise RunError(f"MemoryRecall: {str(error).splitlines()[0]}") from None
    rows = []
    for result in results:
        row = result.to_json()
        rows.append({key: row[key] for key in ("concept", "depth", "score", "path")})
    return from_json(rows)


@builtin("MemoryQuery", "memory", reads="query, after...")
def memory_query(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Run a `zero query` query (recall or match) on the run's memory; its result rows as a list.

    Inputs after the query are not read: they order the run (query after a `MemoryStore`).
    """
    from datetime import UTC, datetime

    from zerolang.query.executor import run_query

    store = _memory(ctx, "MemoryQuery")
    text = _text(inputs, 0, "query", "MemoryQuery")
    moment = datetime.fromtimestamp(ctx.clock(), UTC)
    try:
        result = run_query(store, text, clock=lambda: moment, touch=False)
    except ZeroError as error:
        raise RunError(f"MemoryQuery: {str(error).splitlines()[0]}") from None
    return from_json(result.rows)
