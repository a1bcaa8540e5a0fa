"""One thread that opens the explorer's stores and runs every read and write on them, one at a time.

A SQLite connection may be used only on the thread that opened it, and one request's reads should
not interleave with another's write: the event loop hands each request's work to this thread and
stays free to accept the next request meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from zerolang.explore.reads import Explorer

T = TypeVar("T")


class Worker:
    """The stores `opener` opens, on a thread of their own; `await worker(fn, *args)` runs `fn` there."""

    def __init__(self, opener: Callable[[], Explorer]) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="zero-explore")
        try:
            self.explorer = self._pool.submit(opener).result()  # its errors reach the caller
        except BaseException:
            self._pool.shutdown()
            raise

    async def __call__(self, function: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, partial(function, *args))

    def call(self, function: Callable[..., T], *args: object) -> T:
        """Run `function` on the stores' thread and wait for it (outside an event loop)."""
        return self._pool.submit(function, *args).result()

    def close(self) -> None:
        try:
            self._pool.submit(self.explorer.close).result()
        finally:
            self._pool.shutdown()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
