"""`Ahead`: a source's items made in a helper thread while a gate is open, in order, errors in place."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from zerolang.knowledge.overlap import Ahead, Gate


def numbers(count: int, fail_at: int | None = None) -> Iterator[int]:
    for number in range(count):
        if number == fail_at:
            raise ValueError(f"bad item {number}")
        yield number


def test_items_come_in_order_made_by_the_helper() -> None:
    makers: set[threading.Thread] = set()

    def source() -> Iterator[int]:
        for number in range(1000):
            makers.add(threading.current_thread())
            yield number

    ahead = Ahead(source(), 7, Gate())
    assert list(ahead) == list(range(1000))
    assert list(ahead) == []  # ended for good
    ahead.close()
    assert threading.current_thread() not in makers


def test_an_error_comes_after_the_items_before_it() -> None:
    ahead = Ahead(numbers(50, fail_at=30), 4, Gate())
    got = []
    with pytest.raises(ValueError, match="bad item 30"):
        for item in ahead:
            got.append(item)
    assert got == list(range(30))
    ahead.close()


def test_the_helper_waits_while_the_gate_is_closed() -> None:
    gate = Gate()
    made: list[int] = []

    def source() -> Iterator[int]:
        for number in range(100):
            made.append(number)
            yield number

    ahead = Ahead(source(), 50, gate)
    threading.Event().wait(0.2)
    assert made == []  # nobody waits and no engine works: nothing made
    with gate.busy():
        for _ in range(200):
            if len(made) >= 50:
                break
            threading.Event().wait(0.01)
    assert len(made) in (50, 51)  # at most `limit` ahead (and the one it was making)
    assert next(ahead) == 0
    ahead.close()


def test_closing_early_stops_the_helper() -> None:
    ahead = Ahead(numbers(10**9), 3, Gate())
    assert next(ahead) == 0
    ahead.close()
    assert not ahead._thread.is_alive()
