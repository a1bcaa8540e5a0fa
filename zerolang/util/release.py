"""Dropping a big structure a piece at a time, so no single release holds the GIL for long.

Dropping the last reference to a tree of a million objects frees all of them in
one cascade of C calls (100 ms or more) that no other thread can interrupt: a
language server answering requests on one thread and analysing on another
stalled each time an old analysis was dropped. `release` takes the structures
over and drops them from the top: each object it is the sole holder of is
opened (its referents held on a stack) before it is dropped, down through the
chain of small objects from the top (`SHALLOW` levels) and through every big
container (more than `BIG` referents), whose items are then dropped one by one,
each with its own small subtree. It runs Python bytecode between the pieces, so
the interpreter can hand the GIL to another thread at any piece.

Nothing is changed, only the order of the drops; an object another holder still
refers to is left alone (dropping our reference frees nothing).
"""

from __future__ import annotations

import gc
import sys

BIG = 32  # a container with more referents than this is opened, its items dropped one by one
SHALLOW = 8  # levels of small objects opened from the top, to reach the big containers below


def release(things: list[object]) -> None:
    """Drop `things` (a list only the caller holds; emptied), freeing what only they held piecewise."""
    stack: list[tuple[object, int]] = [(thing, SHALLOW) for thing in things]
    things.clear()
    while stack:
        thing, levels = stack.pop()
        # 2 references: the local `thing` and getrefcount's argument; nothing else holds it
        if gc.is_tracked(thing) and sys.getrefcount(thing) == 2:
            inside = gc.get_referents(thing)
            if len(inside) > BIG:
                stack.extend((item, 0) for item in inside)
            elif levels > 0:
                stack.extend((item, levels - 1) for item in inside)
            del inside
        del thing
