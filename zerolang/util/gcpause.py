"""Pausing Python's cycle collector around bulk work that creates no reference cycles.

Parsing, validating and running build or walk trees of many small objects
that refer only downward. The collector cannot free any of them, yet it keeps
rescanning the growing heap: on a 100K-node graph that doubled the time.
Reference counting still frees everything as usual while it is paused.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@contextmanager
def frozen_after() -> Iterator[None]:
    """Build a large long-lived structure that no later collection walks again; for a process's own main.

    A program that keeps a big tree alive (a language server's analysis of a
    20,000-node document is a million objects) pays for it in every later pass of
    the cycle collector: a full pass walked that tree for seconds, holding the GIL,
    so the thread answering an editor's requests stalled. Here the collector first
    frees what is cyclic garbage now (cheap once the heap was frozen: only the
    objects made since are walked), then pauses while the block builds, then moves
    everything alive into the permanent generation (`gc.freeze`) and resumes.
    Frozen objects are still freed by reference counting as soon as they are
    dropped; only a reference cycle that became garbage while the block ran stays.
    `gc.freeze` acts on the whole process: only a process's own entry point may ask
    for it (`zero lsp` does; a server run inside a test process does not).
    """
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
