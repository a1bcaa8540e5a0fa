"""Pure-Python work done in a helper thread while the writer waits on its database engine.

`sqlite3` releases the GIL inside `sqlite3_step`, and psycopg while it waits for the server: a
long statement (an `INSERT ... SELECT` of a whole batch) leaves the interpreter idle. A batch's
seal changes (a SHA-256 per written row, `zerolang.knowledge.integrity`) depend only on its plan and
the rows read before the write, so they are computed meanwhile, on the other core.

The writer starts the work just before its long statements (`start`), never before a run of
short ones (`executemany`): a thread holding the GIL between the engine's short steps would slow
each of them down. `result` waits for the work and returns its value or raises its exception (the
same object, with its traceback): a failure surfaces where it did when the work ran inline, and
the batch's transaction rolls back as before. A writer that never started the work runs it inline
in `result`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar, cast

T = TypeVar("T")

# A plan of fewer new episodes than this computes its seal changes inline: a thread costs more than
# it hides (the writers' rule, `start_for`).
MIN_ROWS = 500


class Alongside(Generic[T]):
    """`work`, run in a helper thread from `start` until `result`, or inline by `result`."""

    __slots__ = ("_done", "_error", "_thread", "_value", "_work")

    def __init__(self, work: Callable[[], T]) -> None:
        self._work = work
        self._thread: threading.Thread | None = None
        self._done = False
        self._value: T | None = None
        self._error: BaseException | None = None

    def start(self) -> None:
        """Begin the work in a helper thread (once; later calls do nothing)."""
        if self._thread is None and not self._done:
            self._thread = threading.Thread(target=self._run, name="zero-alongside", daemon=True)
            self._thread.start()

    def start_for(self, rows: int) -> None:
        """`start`, when a plan writes `rows` new episodes, enough to be worth a thread (`MIN_ROWS`)."""
        if rows >= MIN_ROWS:
            self.start()

    def _run(self) -> None:
        try:
            self._value = self._work()
        except BaseException as error:  # handed to `result`, which raises it in the writer's thread
            self._error = error
        self._done = True

    @property
    def failed(self) -> bool:
        """Whether the work ran and raised (after `wait`)."""
        return self._error is not None

    def wait(self) -> None:
        """Wait for the work if it was started (what a writer does before leaving on an error)."""
        if self._thread is not None:
            self._thread.join()

    def result(self) -> T:
        """The work's value, or its exception raised (the work runs now if it was never started)."""
        if self._thread is None and not self._done:
            self._done = True
            return self._work()
        self.wait()
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        return cast(T, self._value)
