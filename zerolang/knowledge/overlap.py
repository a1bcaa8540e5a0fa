"""Compiling the next records of an ingest while the database engine writes the current batch.

An ingest alternates Python (compile a record, plan a batch) with engine time the interpreter
spends idle: `sqlite3` releases the GIL inside a long `sqlite3_step` (a batch's `INSERT ...
SELECT`, its commit), psycopg while it waits for the server. `ahead` compiles in a helper thread
during exactly that time: the writer opens the `ENGINE` gate around its long statements
(`with ENGINE.busy():`), and the consumer opens it while it waits for a record. Otherwise the
helper waits at the next record: it never competes for the GIL with the writer's own Python or its
runs of short engine steps (a thread holding the GIL between them would slow each one down).

Records come out in order; an error the source raises comes out at its place, after the records
before it (as `MemoryStore.insert_records` expects of a lazy source); a consumer that stops early
stops the helper (`close`).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Generic, TypeVar, cast

T = TypeVar("T")


class Gate:
    """Open while anyone holds it open (`busy`); `wait_open` blocks until it is."""

    __slots__ = ("_condition", "_held", "_holders")

    def __init__(self) -> None:
        self._condition = threading.Condition(threading.Lock())
        self._holders = 0
        self._held = _Held(self)  # one for every holder: it keeps no state of its own

    def busy(self) -> AbstractContextManager[None]:
        """Held open for the `with` block (a writer's engine step: several a call, so a plain
        context manager, not a generator's)."""
        return self._held

    def _open(self) -> None:
        with self._condition:
            self._holders += 1
            self._condition.notify_all()

    def _close(self) -> None:
        with self._condition:
            self._holders -= 1

    def wait_open(self, stop: threading.Event) -> None:
        with self._condition:
            while self._holders == 0 and not stop.is_set():
                self._condition.wait(0.05)


class _Held(AbstractContextManager[None]):
    __slots__ = ("_gate",)

    def __init__(self, gate: Gate) -> None:
        self._gate = gate

    def __enter__(self) -> None:
        self._gate._open()

    def __exit__(self, *_: object) -> None:
        self._gate._close()


ENGINE = Gate()  # open while a writer waits on its engine (process-wide: it only paces helpers)

_END = object()
_NONE = object()


class Ahead(Generic[T]):
    """The items of `source`, produced in a helper thread while `gate` is open, at most `limit`
    ahead of the consumer."""

    def __init__(self, source: Iterable[T], limit: int, gate: Gate = ENGINE) -> None:
        self._source = iter(source)
        self._limit = limit
        self._gate = gate
        self._items: deque[object] = deque()
        self._ready = threading.Condition(threading.Lock())
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._produce, name="zero-ahead", daemon=True)
        self._thread.start()

    def _produce(self) -> None:
        items, ready = self._items, self._ready
        try:
            while not self._stop.is_set():
                self._gate.wait_open(self._stop)
                if self._stop.is_set():
                    return
                with ready:
                    while len(items) >= self._limit and not self._stop.is_set():
                        ready.wait(0.05)
                try:
                    item = next(self._source)
                except StopIteration:
                    break
                with ready:
                    items.append(item)
                    ready.notify_all()
        except BaseException as error:  # handed to the consumer, after the items before it
            self._error = error
        with ready:
            items.append(_END)
            ready.notify_all()

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        items, ready = self._items, self._ready
        with ready:
            if items:
                item = items.popleft()
                ready.notify_all()
            else:
                item = _NONE
        if item is _NONE:
            with self._gate.busy(), ready:  # the consumer waits: let the helper run
                while not items:
                    ready.wait()
                item = items.popleft()
                ready.notify_all()
        if item is _END:
            items.appendleft(_END)  # every later call ends too
            if self._error is not None:
                error, self._error = self._error, None
                raise error
            raise StopIteration
        return cast(T, item)

    def close(self) -> None:
        """Stop the helper (it finishes the item it is making) and wait for it."""
        self._stop.set()
        with self._ready:
            self._ready.notify_all()
        self._thread.join()
