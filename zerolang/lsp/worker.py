"""Analyses on a worker thread: the editor's requests never wait behind a long check.

The server hands each new text of a document to `Worker.submit`; one background
thread analyses the texts in the order they came, newest text per document only:

- a request not yet started is dropped when a newer text of its document arrives;
- a running one is cancelled: its `Ticket` is marked, `analyse` stops at its next
  checkpoint (between parsing, checking and indexing) and its result is never
  delivered, so a stale analysis neither publishes nor replaces a newer one;
- a finished one is handed to `deliver` (the server moves it to its event loop).

With `freeze` (the `zero lsp` process), each analysis is built with the cycle collector
paused and then frozen out of its reach (`zerolang.util.gcpause.frozen_after`): a full
collection walked the million objects of a 20,000-node document's analysis for seconds,
holding the GIL, and every request waited. Analyses the server no longer needs (an old
text's, a stale one's, a cancelled one's parts) are dropped here too, a piece at a time
(`zerolang.util.release`): dropped at once, a million objects are freed in one cascade
that holds the GIL for 100 ms.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext, suppress
from dataclasses import dataclass, field
from typing import Any

from zerolang.lsp.analysis import Analysis, Cancelled, analyse
from zerolang.util.gcpause import frozen_after
from zerolang.util.release import release


@dataclass(slots=True)
class Ticket:
    """One requested analysis: which text of which document, and whether a newer text replaced it."""

    uri: str
    version: int | None
    source: str
    path: str | None
    encoding: str = "utf-16"
    stale: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    result: Analysis | None = None
    _wakers: list[Callable[[], None]] = field(default_factory=list, init=False, repr=False)

    def check(self) -> None:
        """Raise `Cancelled` once a newer text of the document arrived (a checkpoint of `analyse`)."""
        if self.stale.is_set():
            raise Cancelled(self.uri)

    def finish(self) -> None:
        """Mark it done (analysed, or cancelled: then `result` is None) and wake whoever awaits it."""
        self.done.set()
        for wake in list(self._wakers):
            wake()

    async def finished(self) -> None:
        """Wait until it is done, on the running event loop, without holding it or a thread."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def settle() -> None:
            if not future.done():
                future.set_result(None)

        def wake() -> None:  # on the worker's thread
            with suppress(RuntimeError):  # the loop closed meanwhile: nobody waits now
                loop.call_soon_threadsafe(settle)

        self._wakers.append(wake)
        try:
            if not self.done.is_set():  # after joining the wakers: a `finish` now or later wakes us
                await future
        finally:
            self._wakers.remove(wake)


class Worker:
    """One daemon thread analysing submitted texts, the newest of each document only."""

    def __init__(self, deliver: Callable[[Ticket], None], *, freeze: bool = False) -> None:
        self._deliver = deliver
        self.freeze = freeze
        self._lock = threading.Condition()
        self._waiting: dict[str, Ticket] = {}  # uri -> newest ticket not started yet
        self._running: Ticket | None = None
        self._released: list[
            object
        ] = []  # what the worker drops, a piece at a time, before its next analysis
        self._thread: threading.Thread | None = None
        self._stopped = False

    def submit(self, ticket: Ticket) -> Ticket:
        """Queue `ticket`, cancelling what its document had waiting or running."""
        with self._lock:
            self._cancel_locked(ticket.uri)
            self._waiting[ticket.uri] = ticket
            self._start_locked()
        return ticket

    def release_entry(self, table: dict[str, Any], key: str) -> None:
        """Take `table[key]` out, if there, for the worker to drop (a piece at a time).

        The entry goes from the table to the worker's list without a stop in a variable of the
        caller, so the worker holds the last reference and no cascade runs where it was dropped.
        """
        with self._lock:
            if key in table:
                self._released.append(table.pop(key))
                self._start_locked()

    def release_result(self, ticket: Ticket) -> None:
        """Take the ticket's analysis away from it, for the worker to drop (a piece at a time)."""
        with self._lock:
            if ticket.result is not None:
                self._released.append(ticket.result)
                ticket.result = None
                self._start_locked()

    def _start_locked(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="zero-lsp-analysis", daemon=True)
            self._thread.start()
        self._lock.notify()

    def cancel(self, uri: str) -> None:
        """Forget the document's waiting analysis and cancel its running one (a closed document)."""
        with self._lock:
            self._cancel_locked(uri)

    def pending(self, uri: str, version: int | None) -> Ticket | None:
        """The ticket waiting or running for this version of the document, if any."""
        with self._lock:
            for ticket in (self._waiting.get(uri), self._running):
                if ticket is not None and ticket.uri == uri and ticket.version == version:
                    return ticket
        return None

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            for uri in list(self._waiting):
                self._cancel_locked(uri)
            if self._running is not None:
                self._running.stale.set()
            self._lock.notify()

    def settled(self) -> AbstractContextManager[None]:
        """Where an analysis is built: frozen out of the collector's reach after, with `freeze`."""
        return frozen_after() if self.freeze else nullcontext()

    def _cancel_locked(self, uri: str) -> None:
        old = self._waiting.pop(uri, None)
        if old is not None:
            old.stale.set()
            old.finish()
        if self._running is not None and self._running.uri == uri:
            self._running.stale.set()

    def _loop(self) -> None:
        while True:
            with self._lock:
                while not self._waiting and not self._released and not self._stopped:
                    self._lock.wait()
                if self._stopped:
                    return
                dropping, self._released = self._released, []
                if not dropping:
                    uri = next(iter(self._waiting))
                    self._running = self._waiting.pop(uri)
            if dropping:
                release(dropping)
                continue
            self._analyse()

    def _analyse(self) -> None:
        ticket = self._running
        assert ticket is not None
        try:
            with self.settled():
                try:
                    ticket.result = analyse(
                        ticket.source, ticket.path, ticket.encoding, checkpoint=ticket.check
                    )
                except Cancelled as stop:
                    with self._lock:
                        self._released.append(stop.remains)
                    ticket.result = None
        finally:
            with self._lock:
                self._running = None
            ticket.finish()
        if ticket.result is not None and ticket.stale.is_set():
            self.release_result(ticket)
        elif ticket.result is not None:
            self._deliver(ticket)
