"""`Alongside`: work in a helper thread from `start` to `result`, or inline; its failure re-raised."""

from __future__ import annotations

import threading

import pytest

from zerolang.storage.sql.alongside import Alongside


def test_started_work_runs_in_another_thread_and_returns_its_value() -> None:
    ran: list[threading.Thread] = []

    def run() -> int:
        ran.append(threading.current_thread())
        return 42

    work = Alongside(run)
    work.start()
    work.start()  # once
    assert work.result() == 42
    assert len(ran) == 1 and ran[0] is not threading.current_thread()


def test_work_never_started_runs_inline_in_result() -> None:
    ran: list[threading.Thread] = []

    def run() -> str:
        ran.append(threading.current_thread())
        return "done"

    work = Alongside(run)
    assert work.result() == "done"
    assert ran == [threading.current_thread()]


def test_a_failure_is_raised_by_result_as_the_same_exception() -> None:
    error = KeyError("missing")

    def fail() -> None:
        raise error

    work = Alongside(fail)
    work.start()
    work.wait()
    assert work.failed
    with pytest.raises(KeyError) as raised:
        work.result()
    assert raised.value is error


def test_an_inline_failure_is_raised_by_result() -> None:
    work = Alongside(lambda: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        work.result()
