"""Checkpointing a large write's WAL in a helper thread, on a connection of its own.

In WAL mode a commit appends the pages it changed to the `-wal` file; a *checkpoint* copies them
back into the database file and syncs it. SQLite runs one inside the commit that takes the WAL past
`wal_autocheckpoint` pages (1,000), so the writer waits for it: a batch of an ingest, whose
hash-keyed rows land all over its tables, rewrites most of the file, and the copy and its `fsync`
cost the writer a quarter of its time. A bulk commit instead hands the checkpoint to this thread
(the commit itself has already made the batch durable in the WAL, as before) and the writer goes on
with the next batch. A `PASSIVE` checkpoint never blocks a reader or a writer, here or in another
process, and one interrupted by a crash is simply redone by the next.

A long-running server whose calls each commit a little (`zero mcp`) hands every checkpoint to it
(`SqliteBackend.serving`): each commit asks, and the thread checkpoints at most every
`AT_MOST_EVERY_S`, so one checkpoint copies what many commits wrote while the calls go on; SQLite
still checkpoints inside a commit should the WAL reach `BACKSTOP` pages (the thread fell behind).

The thread starts with the first commit that asks and stops with the backend (`close` waits for a
checkpoint under way, as SQLite's own closing checkpoint would have made the process wait).
"""

from __future__ import annotations

import sqlite3
import threading
import time

AT_MOST_EVERY_S = 0.05  # a serving store's checkpoints: at most this often
BACKSTOP = 10_000  # pages of WAL at which a serving store's commit checkpoints itself after all


class Checkpointer:
    """A helper thread that checkpoints the WAL of the database at `location` when asked."""

    __slots__ = ("_asked", "_location", "_pause", "_stop", "_thread", "_timeout")

    def __init__(self, location: str, timeout: float) -> None:
        self._location = location
        self._timeout = timeout
        self._pause = 0.0  # seconds between two checkpoints (`spaced`)
        self._asked = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None

    def ask(self) -> None:
        """Checkpoint soon (the thread starts on the first call; asks made while one runs merge)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="zero-checkpoint", daemon=True)
            self._thread.start()
        self._asked.set()

    def spaced(self, seconds: float) -> None:
        """Checkpoint at most every `seconds` from now on (asks made meanwhile merge)."""
        self._pause = seconds

    def _run(self) -> None:
        try:
            connection = sqlite3.connect(self._location, isolation_level=None, timeout=self._timeout)
        except sqlite3.Error:
            return  # the writer's next commits checkpoint as SQLite always does
        try:
            while True:
                self._asked.wait()
                self._asked.clear()
                if self._stop:
                    return
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    continue  # busy or gone: the next checkpoint (or SQLite's own) catches up
                if self._pause:
                    time.sleep(self._pause)
        finally:
            connection.close()

    def close(self) -> None:
        """Stop the thread, after the checkpoint under way if any."""
        if self._thread is None:
            return
        self._stop = True
        self._asked.set()
        self._thread.join()
        self._thread = None
