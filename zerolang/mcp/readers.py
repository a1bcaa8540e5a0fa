"""Tool calls that only read, run off the request loop so a long one does not hold up the rest.

The server's `Memory` belongs to the event loop's thread (a SQLite connection serves the thread that
opened it), and its writes stay there. `Readers` keeps a few worker threads, each with its own
`Memory` opened again on the same stores (the same database, space, experiences and archive), and
runs a reading tool's work on one of them: a `query` over a big store takes its time on a worker
while `get`, `store` and the rest are answered on the loop. SQLite's WAL and PostgreSQL's MVCC let
each reader see what was committed when it starts. Where a store lives only in this process (`:memory:`),
there is nothing to open again: the work runs on the loop, as before.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar, cast

from zerolang.memory.api import Memory
from zerolang.util.locations import IN_MEMORY

T = TypeVar("T")
WORKERS = 2

_Job = tuple[Callable[[Memory], object], "Future[object]"] | None


class Readers:
    """Worker threads with their own memories, opened on first use; `close` closes them (in their threads)."""

    def __init__(self, memory: Memory, workers: int = WORKERS) -> None:
        self._memory = memory
        self._workers = max(1, workers)
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        stores = memory.stores
        self.apart = IN_MEMORY not in (str(stores.memory), str(stores.experiences))

    def _open(self) -> Memory:
        from zerolang.memory.api import open_memory_of

        return open_memory_of(self._memory.stores, create=False)

    async def run(self, work: Callable[[Memory], T]) -> T:
        """`work(memory)` on a worker thread's memory (or on the loop's, where none can be opened)."""
        if not self.apart:
            return work(self._memory)
        future: Future[T] = Future()
        self._start()
        self._jobs.put((work, cast("Future[object]", future)))
        return await asyncio.wrap_future(future)

    def _start(self) -> None:
        with self._lock:
            if len(self._threads) >= self._workers:
                return
            while len(self._threads) < self._workers:
                thread = threading.Thread(target=self._serve, name="zero-mcp-reader", daemon=True)
                thread.start()
                self._threads.append(thread)

    def _serve(self) -> None:
        memory: Memory | None = None
        try:
            while (job := self._jobs.get()) is not None:
                work, future = job
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    if memory is None:
                        memory = self._open()
                    future.set_result(work(memory))
                except BaseException as error:  # the caller's to report
                    future.set_exception(error)
        finally:
            if memory is not None:
                memory.close()

    def close(self) -> None:
        """Stop the workers once they finish their work, closing their memories."""
        with self._lock:
            threads, self._threads = self._threads, []
        for _ in threads:
            self._jobs.put(None)
        for thread in threads:
            thread.join()

    def __enter__(self) -> Readers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
