"""Durable file operations for the archive: atomic writes and the archive-wide lock.

A write goes to a temporary file in the target's own folder (so the rename
never crosses a file system), is fsynced, renamed over the target, and the
folder is fsynced: a crash leaves the old state or the new one, plus at
worst a `.NAME.*.tmp` leftover that `zero archive gc` removes.

The lock is `flock` on `ROOT/.lock`: writers of new documents share it,
tier moves and gc hold it alone, so gc never sees a temporary file that a
live writer is still filling. Readers take no lock (see store.py for why
they are safe anyway).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

TEMP_SUFFIX = ".tmp"
READ_ONLY = 0o444


def write_atomic(target: Path, data: bytes, *, mode: int = READ_ONLY) -> None:
    """Write `data` to `target` atomically and durably (temp file in the same folder, fsync, rename)."""
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    fsync_folder(folder)


class BatchWriter:
    """Many atomic writes made durable together, for `put_many` and tier moves.

    Each write is still a temporary file renamed into place (a reader sees the old state or the
    whole new file). Durability comes once, in `commit`: a few files are fsynced one by one with
    their folders; many are flushed with one `os.sync()`, which costs far less than thousands of
    fsyncs. Until `commit` returns, a crash may leave a renamed file torn; reads verify every
    hash, so a torn copy is never returned, a later `put` of the same document rewrites it, and
    moves delete old copies only after `commit`.
    """

    SMALL = 8

    def __init__(self) -> None:
        self.files: list[Path] = []

    def write(self, target: Path, data: bytes, *, mode: int = READ_ONLY) -> None:
        folder = target.parent
        folder.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=TEMP_SUFFIX)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
            os.chmod(temporary, mode)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        self.files.append(target)

    def commit(self) -> None:
        if len(self.files) > self.SMALL:
            os.sync()
        else:
            for path in self.files:
                descriptor = os.open(path, os.O_RDONLY)
                try:
                    os.fsync(descriptor)
                finally:
                    os.close(descriptor)
            for folder in {path.parent for path in self.files}:
                fsync_folder(folder)
        self.files.clear()


def fsync_folder(folder: Path) -> None:
    """Make a rename or unlink in `folder` durable (a no-op where folders cannot be opened)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(descriptor)
    except OSError:  # pragma: no cover - some file systems refuse fsync on folders
        pass
    finally:
        os.close(descriptor)


def is_temp(path: Path) -> bool:
    return path.name.startswith(".") and path.name.endswith(TEMP_SUFFIX)


@contextlib.contextmanager
def locked(lock_file: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold the archive lock (shared or exclusive) for the body of the `with`."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks, single writer assumed
        yield
        return
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(descriptor)  # closing the descriptor releases the lock
