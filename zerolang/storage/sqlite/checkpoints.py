"""Checkpointing a large write's WAL in a helper thread, on a connection of its own.

In WAL mode a commit appends the pages it changed to the `-wal` file; a *checkpoint* copies them
back into the database file and syncs it. SQLite runs one inside the commit that takes the WAL past
`wal_autocheckpoint` pages (1,000), so the writer waits for it: a batch of an ingest, whose
hash-keyed rows land all over its tables, rewrites most of the file, and the copy and its `fsync`
cost the writer a quarter of its time. A bulk commit instead hands the checkpoint to this thread
(the commit itself has already made the batch durable in the WAL, as before) and the writer goes on
with the next batch. A `PASSIVE` checkpoint never blocks a reader or a writer, here or in another
process, and one interrupted by a crash is simply redone by the next.

The thread starts with the first bulk commit and stops with the backend (`close` waits for a
checkpoint under way, as SQLite's own closing checkpoint would have made the process wait).
"""

from __future__ import annotations

import sqlite3
import threading


class Checkpointer:
    """A helper thread that checkpoints the WAL of the database at `location` when asked."""

    __slots__ = ("_asked", "_location", "_stop", "_thread", "_timeout")

    def __init__(self, location: str, timeout: float) -> None:
        self._location = location
        self._timeout = timeout
        self._asked = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None

    def ask(self) -> None:
        """Checkpoint soon (the thread starts on the first call; asks made while one runs merge)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="zero-checkpoint", daemon=True)
            self._thread.start()
        self._asked.set()

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
