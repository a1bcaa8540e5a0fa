"""The archive's summary index as an older Python API and `zero mcp` kept it: `index.db` in the archive
folder, a memory store of its own. Every surface now keeps the index in the memory store
(`zerolang.memory.settings`); `absorb_legacy_index` moves such a file's rows there, once.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.archive.index import IndexStore


def absorb_legacy_index(path: Path, target: IndexStore) -> int:
    """Move every row of the index file at `path` into `target` (a row `target` already holds stays as
    it is there) and return how many were new. Once they are in `target`, the file goes when it held
    nothing but the index; else its index rows are deleted, so no copy outlives a purge of `target`."""
    from zerolang.storage.registry import open_backend
    from zerolang.storage.sql.core import SqlCore
    from zerolang.storage.sql.index import clear_index, every_record, holds_only_an_index

    if not path.is_file():
        return 0
    source = open_backend(path, create=False)
    try:
        assert isinstance(source, SqlCore)  # a file: the SQLite engine
        added = 0
        for record in every_record(source):
            if target.get(record.hash) is None:
                target.put(record)
                added += 1
        only_index = holds_only_an_index(source)
        if not only_index:
            clear_index(source)
    finally:
        source.close()
    if only_index:
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{path}{suffix}").unlink()
    return added
