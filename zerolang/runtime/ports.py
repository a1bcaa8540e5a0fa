"""What the runtime needs from outside it, as protocols: where state lives, and the run's memory.

The runtime never imports what implements these. A caller hands them to a run
(`RunContext`, `Program.run`): `zerolang.runtime.state.MemoryStateStore` or a
persistent store opened by `zerolang.storage` for `StateStore`, and
`zerolang.knowledge.graph_port.GraphMemory` (a memory store seen from a graph) for
`MemoryPort`. A run without a memory fails in the memory builtins with one clear line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from zerolang.runtime.values import Value

if TYPE_CHECKING:  # the protocols name it; a run without a memory never imports datetime (issue 43)
    from datetime import datetime


class StateStore(Protocol):
    """What the `LoadState` / `SaveState` builtins need."""

    def load(self, key: str) -> Value:
        """The value stored under `key`, or `zerolang.runtime.state.MISSING`."""
        ...

    def save(self, key: str, value: Value) -> None: ...


class MemoryPort(Protocol):
    """What the `MemoryStore`, `MemoryRecall` and `MemoryQuery` builtins need of the run's memory.

    Each method takes the run's clock reading as `now`, so a graph that stores and recalls
    runs deterministically; recall and query record no accesses. A failure is a
    `zerolang.util.errors.ZeroError` (or `ValueError`) whose first line the builtin reports.
    """

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
        """Store one fact in one context (`event_time` None: `now`); {fact_hash, episode_hash, new}."""
        ...

    def recall(self, seed: str, *, depth: int, limit: int, now: datetime) -> list[dict[str, Value]]:
        """What is around `seed`, best first: each {concept, depth, score, path}."""
        ...

    def query(self, text: str, *, now: datetime) -> list[Value]:
        """The result rows of a query of the DSL (`recall ...` or `match ...`)."""
        ...
