"""`release`: everything only the released structures held is freed, a piece at a time; the rest is untouched."""

from __future__ import annotations

import sys
import weakref
from types import FrameType
from typing import Any

from zerolang.util.release import release


class Leaf:
    """A weakly referable object, to see when it is freed."""

    def __init__(self, children: list[Leaf] | None = None) -> None:
        self.children = children or []


def tree(width: int) -> tuple[Leaf, list[weakref.ref[Leaf]]]:
    leaves = [Leaf([Leaf(), Leaf()]) for _ in range(width)]
    refs = [weakref.ref(leaf) for leaf in leaves] + [weakref.ref(leaf.children[0]) for leaf in leaves]
    return Leaf([Leaf(leaves)]), refs


def test_what_only_the_structure_held_is_freed_and_the_list_emptied() -> None:
    root, refs = tree(200)
    things: list[object] = [root, {"key": [Leaf()]}]
    del root
    release(things)
    assert things == []
    assert all(ref() is None for ref in refs)


def test_what_another_holder_keeps_stays_whole() -> None:
    root, refs = tree(200)
    kept = root.children[0].children[100]
    things: list[object] = [root]
    del root
    release(things)
    assert refs[100]() is kept and len(kept.children) == 2
    assert sum(ref() is not None for ref in refs) == 2  # the kept leaf and its first child


def test_the_items_of_a_big_container_are_freed_one_by_one() -> None:
    """Bytecode runs between the frees of a big list's items (there the GIL can pass to another thread)."""
    root, refs = tree(200)
    lines = 0
    seen: list[int] = []
    for ref in refs[:200]:
        weakref.finalize(ref(), lambda: seen.append(lines))

    def trace(frame: FrameType, event: str, _: Any) -> Any:
        nonlocal lines
        lines += event == "line" and frame.f_code is release.__code__
        return trace

    things: list[object] = [root]
    del root
    sys.settrace(trace)
    try:
        release(things)
    finally:
        sys.settrace(None)
    assert len(seen) == 200
    assert len(set(seen)) == 200, "each item freed after its own line of `release`"
