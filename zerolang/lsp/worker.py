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
holding the GIL, and every request waited.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

from zerolang.lsp.analysis import Analysis, Cancelled, analyse
from zerolang.util.gcpause import frozen_after


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

    def check(self) -> None:
        """Raise `Cancelled` once a newer text of the document arrived (a checkpoint of `analyse`)."""
        if self.stale.is_set():
            raise Cancelled(self.uri)


class Worker:
    """One daemon thread analysing submitted texts, the newest of each document only."""

    def __init__(self, deliver: Callable[[Ticket], None], *, freeze: bool = False) -> None:
        self._deliver = deliver
        self.freeze = freeze
        self._lock = threading.Condition()
        self._waiting: dict[str, Ticket] = {}  # uri -> newest ticket not started yet
        self._running: Ticket | None = None
        self._thread: threading.Thread | None = None
        self._stopped = False

    def submit(self, ticket: Ticket) -> Ticket:
        """Queue `ticket`, cancelling what its document had waiting or running."""
        with self._lock:
            self._cancel_locked(ticket.uri)
            self._waiting[ticket.uri] = ticket
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="zero-lsp-analysis", daemon=True)
                self._thread.start()
            self._lock.notify()
        return ticket

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
            old.done.set()
        if self._running is not None and self._running.uri == uri:
            self._running.stale.set()

    def _loop(self) -> None:
        while True:
            with self._lock:
                while not self._waiting and not self._stopped:
                    self._lock.wait()
                if self._stopped:
                    return
                uri = next(iter(self._waiting))
                ticket = self._running = self._waiting.pop(uri)
            try:
                with self.settled():
                    try:
                        ticket.result = analyse(
                            ticket.source, ticket.path, ticket.encoding, checkpoint=ticket.check
                        )
                    except Cancelled:
                        ticket.result = None
            finally:
                with self._lock:
                    self._running = None
                ticket.done.set()
            if ticket.result is not None and not ticket.stale.is_set():
                self._deliver(ticket)
