"""`frozen_after`: what a block builds leaves the collector's reach, garbage made before it does not stay.

`gc.freeze` acts on the whole process, so each check runs in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(script: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr


def test_what_the_block_builds_is_frozen_and_freed_when_dropped() -> None:
    run(
        """
        import gc
        from zerolang.util.gcpause import frozen_after

        class Leaf:
            pass

        before = gc.get_freeze_count()
        with frozen_after():
            assert not gc.isenabled()
            tree = [[Leaf() for _ in range(100)] for _ in range(100)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= before + 10_000
        walked = {id(thing) for thing in gc.get_objects()}  # what a collection would walk
        assert id(tree[0][0]) not in walked and id(tree) not in walked
        tree = None
        assert gc.get_freeze_count() < before + 10_000, "dropped objects leave the permanent generation"
        """
    )


def test_cyclic_garbage_made_before_the_block_is_collected_not_frozen() -> None:
    run(
        """
        import gc, weakref
        from zerolang.util.gcpause import frozen_after

        class Cell:
            pass

        cell = Cell()
        cell.me = cell
        alive = weakref.ref(cell)
        cell = None
        assert alive() is not None, "a cycle waits for the collector"
        with frozen_after():
            pass
        assert alive() is None
        """
    )


def test_a_paused_collector_stays_paused() -> None:
    run(
        """
        import gc
        from zerolang.util.gcpause import frozen_after

        gc.disable()
        with frozen_after():
            pass
        assert not gc.isenabled()
        """
    )
