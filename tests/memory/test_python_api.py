"""The Python API (`zerolang.memory.open`): the docs page's example runs and prints what it shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

import zerolang.memory
from zerolang.util.errors import ZeroError

DOC = Path(__file__).resolve().parents[2] / "docs" / "python-api.md"


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_docs_example_runs_and_prints_what_the_page_shows() -> None:
    example = _blocks("python")[-1]
    shown = _blocks("text")[-1]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example, str(DOC), "exec"), {"__name__": "docs_example"})
    assert out.getvalue() == shown


def test_a_file_memory_keeps_facts_and_experiences_in_one_file(tmp_path: Path) -> None:
    db = tmp_path / "agent.db"
    with zerolang.memory.open(db) as memory:
        result = memory.remember([("agent", "uses", "sqlite")])
        assert result.new_facts == 1
        memory.capture(session="s", user_said="what is the weather forecast", agent_said="rain")
    assert [path.name for path in tmp_path.glob("*.db")] == ["agent.db"]  # one location for one memory
    with zerolang.memory.open(db, create=False) as memory:
        view = memory.get("agent")
        assert view is not None and [f.object for f in view.facts] == ["sqlite"]
        fact = memory.fact(str(view.facts[0].fact.fact_hash))
        assert fact is not None and (fact.subject, fact.object) == ("agent", "sqlite")
        assert memory.recall_turns("forecast")[0].experience.what == "what is the weather forecast"
        assert memory.get("nothing-like-this") is None
        assert memory.fact("not a hash") is None


def test_spaces_are_separate(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with zerolang.memory.open(db, space="a") as memory:
        memory.remember([("x", "is", "y")])
        assert memory.space == "a"
    with zerolang.memory.open(db, space="b") as memory:
        assert memory.get("x") is None


def test_bad_input_is_one_clear_error(tmp_path: Path) -> None:
    with zerolang.memory.open(":memory:") as memory:
        with pytest.raises(ZeroError, match=r"confidence"):
            memory.remember([("a", "b", "c", 7.0)])
        with pytest.raises(ZeroError, match=r"input 1: .*tuples"):
            memory.ingest({"context": {"event_time": "2026-01-01", "source": "s", "scope": "x"}})
        with pytest.raises(ZeroError, match="format is 0, 0c or json"):
            memory.export("yaml")
        with pytest.raises(ZeroError, match="query is empty"):
            memory.recall_turns("  ")
        assert memory.store.counts().facts == 0
    with pytest.raises(ZeroError, match="no such directory"):
        zerolang.memory.open(tmp_path / "missing" / "m.db")
    with pytest.raises(ZeroError):
        zerolang.memory.open(tmp_path / "absent.db", create=False)


def test_forget_is_a_named_seam(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the forget module it says so; with it, it delegates (Selector, forget(store, selector, at=))."""
    import types

    from zerolang.memory import api as handle

    with zerolang.memory.open(":memory:") as memory:
        monkeypatch.setattr(handle, "FORGET_MODULE", "zerolang.memory.no_such_forget_module")
        with pytest.raises(ZeroError, match="forget is not in this build"):
            memory.forget("concept", "x")
        calls: list[tuple[object, ...]] = []
        fake = types.ModuleType("fake_forget")
        fake.Selector = lambda kind, target: (kind, target)  # type: ignore[attr-defined]
        fake.forget = lambda store, selector, *, at, purge, **options: (
            calls.append((store, selector, purge)) or "report"
        )  # type: ignore[attr-defined]
        monkeypatch.setitem(__import__("sys").modules, "fake_forget", fake)
        monkeypatch.setattr(handle, "FORGET_MODULE", "fake_forget")
        assert memory.forget("concept", "x", purge=True) == "report"
        assert calls == [(memory.store, ("concept", "x"), True)]


def test_a_store_time_given_in_any_offset_is_kept_in_the_store_format(tmp_path: Path) -> None:
    """`now` is the store time in its one format, whatever offset and precision it was written in,
    so times compare as the store compares them (as text)."""
    with zerolang.memory.open(tmp_path / "m.db") as memory:
        memory.remember([("ann", "likes", "tea")], now="2024-01-02T01:00:00+01:00", event_time="2024-01-01")
        memory.remember([("ann", "likes", "jam")], now="2024-01-02T00:00:00.5Z", event_time="2024-01-01")
        recorded = sorted(p.recorded_at for entry in memory.history("ann") for p in entry.periods)
    assert recorded == ["2024-01-02T00:00:00.000Z", "2024-01-02T00:00:00.500Z"]


def test_a_bad_store_time_is_one_clear_error(tmp_path: Path) -> None:
    with zerolang.memory.open(tmp_path / "m.db") as memory, pytest.raises(ZeroError, match="now"):
        memory.remember([("ann", "likes", "tea")], now="yesterday")
