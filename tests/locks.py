"""A lock on a folder shared beyond one test process: pytest-xdist's workers, another checkout's run.

The npm packages the editor tests install are kept in one folder per user
(`~/.cache/zerolang-test-node`, or `$ZERO_TEST_NODE_DIR`) between runs; two
processes installing into it, or building the `.vsix` in it, at once would
clobber each other. `held(folder)` makes them take turns.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def held(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder` (created if missing); other holders wait for it."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
