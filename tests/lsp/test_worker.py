"""The analysis worker: newest text per document only, a stale analysis cancelled and never delivered."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from tests.lsp.samples import GREETER
from zerolang.lsp import worker as worker_module
from zerolang.lsp.analysis import Analysis, analyse
from zerolang.lsp.diagnostics import diagnostics
from zerolang.lsp.positions import LineIndex
from zerolang.lsp.worker import Ticket, Worker

WAIT = 30  # seconds, for a loaded machine; nothing here measures time


class Recorder:
    def __init__(self) -> None:
        self.delivered: list[Ticket] = []
        self.event = threading.Event()

    def __call__(self, ticket: Ticket) -> None:
        self.delivered.append(ticket)
        self.event.set()


def gated(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event, list[str]]:
    """`analyse` that stops on `started` until `release`, then reaches a checkpoint; records its sources."""
    started, release = threading.Event(), threading.Event()
    analysed: list[str] = []

    def slow(source: str, path: str | None, encoding: str, checkpoint: Callable[[], None]) -> Analysis:
        analysed.append(source)
        started.set()
        release.wait(WAIT)
        checkpoint()
        return Analysis(source, path, LineIndex(source), None, [])

    monkeypatch.setattr(worker_module, "analyse", slow)
    return started, release, analysed


def test_a_new_text_cancels_the_running_analysis_which_is_never_delivered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started, release, analysed = gated(monkeypatch)
    record = Recorder()
    work = Worker(record)
    old = work.submit(Ticket("file:///a.0", 1, "old", None))
    assert started.wait(WAIT)
    new = work.submit(Ticket("file:///a.0", 2, "new", None))
    assert old.stale.is_set() and not new.stale.is_set()
    release.set()
    assert record.event.wait(WAIT)
    assert new.done.wait(WAIT) and old.done.is_set()
    assert old.result is None
    assert [ticket.version for ticket in record.delivered] == [2]
    assert analysed == ["old", "new"]
    work.stop()


def test_a_waiting_text_replaced_before_it_started_is_never_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    started, release, analysed = gated(monkeypatch)
    record = Recorder()
    work = Worker(record)
    work.submit(Ticket("file:///busy.0", 1, "busy", None))
    assert started.wait(WAIT)
    dropped = work.submit(Ticket("file:///b.0", 1, "b1", None))
    kept = work.submit(Ticket("file:///b.0", 2, "b2", None))
    assert dropped.stale.is_set() and dropped.done.is_set()
    assert work.pending("file:///b.0", 2) is kept and work.pending("file:///b.0", 1) is None
    release.set()
    assert kept.done.wait(WAIT)
    assert analysed == ["busy", "b2"]
    assert sorted(ticket.source for ticket in record.delivered) == ["b2", "busy"]
    work.stop()


def test_closing_cancels_the_running_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    started, release, _ = gated(monkeypatch)
    record = Recorder()
    work = Worker(record)
    ticket = work.submit(Ticket("file:///c.0", 1, "c", None))
    assert started.wait(WAIT)
    work.cancel("file:///c.0")
    release.set()
    assert ticket.done.wait(WAIT)
    assert ticket.result is None and record.delivered == []
    work.stop()


def test_the_worker_finds_what_the_direct_analysis_finds() -> None:
    record = Recorder()
    work = Worker(record)
    broken = GREETER.replace('inputs: ["hello", "message"]', 'inputs: ["hello", "mesage"]')
    ticket = work.submit(Ticket("file:///g.0", 1, broken, None))
    assert record.event.wait(WAIT)
    assert ticket.result is not None
    direct = analyse(broken, None)
    assert diagnostics(ticket.result.findings, ticket.result.lines) == diagnostics(
        direct.findings, direct.lines
    )
    assert ticket.result.occurrences == direct.occurrences
    work.stop()


def test_more_findings_than_the_cap_end_with_a_note_of_how_many_more() -> None:
    from zerolang.util.limits import MAX_DIAGNOSTICS

    count = MAX_DIAGNOSTICS
    nodes = ['{ id: "n0", type: Constant, value: 1 }']
    nodes += [
        f'{{ id: "n{i}", type: Operation, op: Addd, inputs: ["n{i - 1}", "gone{i}"] }}'
        for i in range(1, count)
    ]
    source = 'Graph { name: "g", nodes: [' + ",\n".join(nodes) + f'], outputs: ["n{count - 1}"] }}\n'
    analysis = analyse(source, None)
    found = diagnostics(analysis.findings, analysis.lines)
    assert len(analysis.findings) > MAX_DIAGNOSTICS
    assert len(found) == MAX_DIAGNOSTICS + 1
    assert found[-1].message.startswith(f"... and {len(analysis.findings) - MAX_DIAGNOSTICS} more problems")
    assert found[-1].range.start.line == 0


def test_a_cancelled_analysis_hands_over_what_it_made() -> None:
    from zerolang.lsp.analysis import Cancelled
    from zerolang.syntax.ast import Graph

    calls = 0

    def checkpoint() -> None:
        nonlocal calls
        calls += 1
        if calls == 2:  # after parsing
            raise Cancelled("file:///g.0")

    with pytest.raises(Cancelled) as stopped:
        analyse(GREETER, None, checkpoint=checkpoint)
    assert isinstance(stopped.value.remains[0], Graph)


def test_the_worker_itself_drops_cancelled_parts_and_stale_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither a cancelled analysis's parts nor a finished but stale analysis is dropped elsewhere."""
    from zerolang.lsp.analysis import Cancelled

    dropped: list[object] = []
    monkeypatch.setattr(worker_module, "release", lambda things: (dropped.extend(things), things.clear()))
    started, release = threading.Event(), threading.Event()
    parts = ["parsed graph"]

    def slow(source: str, path: str | None, encoding: str, checkpoint: Callable[[], None]) -> Analysis:
        started.set()
        release.wait(WAIT)
        if source == "cancelled":
            stop = Cancelled("file:///a.0")
            stop.remains = parts
            raise stop
        return Analysis(source, path, LineIndex(source), None, [])  # finished, past its last checkpoint

    monkeypatch.setattr(worker_module, "analyse", slow)
    record = Recorder()
    work = Worker(record)
    for source in ("cancelled", "stale"):
        started.clear()
        release.clear()
        ticket = work.submit(Ticket(f"file:///{source}.0", 1, source, None))
        assert started.wait(WAIT)
        work.cancel(ticket.uri)
        release.set()
        assert ticket.done.wait(WAIT)
    work.submit(Ticket("file:///last.0", 1, "last", None))
    assert record.event.wait(WAIT)
    assert [ticket.source for ticket in record.delivered] == ["last"]
    assert dropped[0] is parts
    assert isinstance(dropped[1], Analysis) and dropped[1].source == "stale"
    work.stop()
