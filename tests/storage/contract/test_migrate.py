"""`zero memory migrate`: copies between backends come out with equal checkpoints, and reruns complete."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.storage.contract.helpers import example
from tests.storage.contract.workers import inputs
from zerolang import storage
from zerolang.cli.app import app
from zerolang.knowledge.formats import checkpoint
from zerolang.knowledge.tiers import EpisodicMemory
from zerolang.memory import MemoryStore, ingest
from zerolang.storage.copy import CopyProgress, copy_space, copy_store

runner = CliRunner()


def test_copy_to_and_from_sqlite_keeps_the_checkpoint(
    open_store: Callable[..., MemoryStore], space: str, tmp_path: Path
) -> None:
    source = open_store()
    example(source)
    ingest(source, inputs(0, 30))
    EpisodicMemory(source, min_confidence=0.5).sweep()  # a pruned log to carry over
    with storage.open_store(tmp_path / "copy.db", space=space) as copy:
        result = copy_space(source, copy)
        assert result.pruned > 0
        assert checkpoint.of_store(copy) == checkpoint.of_store(source)
        assert copy.counts() == source.counts()
        assert copy.check().ok
        back = open_store(f"{space}-back")
        copy_space(copy, back)
        assert checkpoint.of_store(back) == checkpoint.of_store(source)
        assert back.get_facts(back.get_concept_by_label("agent").hash) == source.get_facts(  # type: ignore[union-attr]
            source.get_concept_by_label("agent").hash  # type: ignore[union-attr]
        )


@pytest.mark.slow
def test_an_interrupted_copy_completes_on_rerun(
    open_store: Callable[..., MemoryStore], space: str, tmp_path: Path
) -> None:
    source = storage.open_store(tmp_path / "source.db")
    ingest(source, inputs(0, 2500))
    target = open_store()

    def interrupt(state: CopyProgress) -> None:
        if state.done >= 200:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        copy_space(source, target, interrupt, batch_size=100)
    assert 0 < target.counts().episodes < source.counts().episodes
    copy_space(source, target)
    assert checkpoint.of_store(target) == checkpoint.of_store(source)
    assert target.counts() == source.counts()
    assert target.check().ok
    source.close()


def test_the_cli_copies_every_space(location: str, space: str, tmp_path: Path) -> None:
    origin = tmp_path / "origin.db"
    with (
        storage.open_store(origin, space=f"{space}-a") as a,
        storage.open_store(origin, space=f"{space}-b") as b,
    ):
        example(a)
        ingest(b, inputs(0, 5))
        expected = {
            name: checkpoint.of_store(s).hash[:12] for name, s in ((f"{space}-a", a), (f"{space}-b", b))
        }
    result = runner.invoke(app, ["memory", "migrate", str(origin), location])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == sorted(expected)
    for line in lines:
        name = line.split(":")[0]
        assert line.endswith(f"checkpoint {expected[name]} ok")
    again = runner.invoke(app, ["memory", "migrate", str(origin), location, "--space", f"{space}-b"])
    assert again.exit_code == 0
    assert again.stdout.startswith(f"{space}-b: 5 records, 0 new episodes, 0 pruned;")
    stats = runner.invoke(app, ["memory", "stats", "--db", location, "--space", f"{space}-a", "--json"])
    assert stats.exit_code == 0 and '"episodes": 9' in stats.stdout


def test_migrating_from_nowhere_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["memory", "migrate", str(tmp_path / "none.db"), str(tmp_path / "to.db")])
    assert result.exit_code == 1
    assert "no memory database here" in result.stderr
    assert not (tmp_path / "to.db").exists()


def test_copy_store_without_spaces_copies_nothing(tmp_path: Path) -> None:
    with storage.open_store(tmp_path / "a.db") as a, storage.open_store(tmp_path / "b.db") as b:
        assert copy_store(a, b) == []


def test_migrate_carries_the_summary_index(location: str, space: str, tmp_path: Path) -> None:
    """The archive's index rows of a space travel with it, revoked ones too; a rerun adds nothing."""
    from datetime import date

    from zerolang.archive.index import IndexQuery, IndexRecord

    origin = tmp_path / "origin.db"
    rows = [
        IndexRecord(
            hash=f"{number:064x}",
            summary=f"summary {number}",
            day=date(2026, 11, number),
            source_channel="dm:alice",
            created_at="2026-11-20T09:30:00Z",
            consent_scope="personal",
            y_privacy=number - 5,
            consent_flags=("revoked",) if number == 3 else (),
        )
        for number in range(1, 6)
    ]
    with storage.open_store(origin, space=space) as source:
        example(source)
        for row in rows:
            source.backend.index.put(row)
    for _ in range(2):
        result = runner.invoke(app, ["memory", "migrate", str(origin), location])
        assert result.exit_code == 0, result.output
        assert f"{space}: " in result.stdout and "; 5 index rows; checkpoint" in result.stdout
    with storage.open_store(location, space=space) as target:
        copied = target.backend.index.search(IndexQuery(include_revoked=True, limit=10))
        assert sorted(copied, key=lambda r: r.hash) == rows
        assert target.backend.index.count() == 5


def test_migrate_carries_the_tier_state(
    open_store: Callable[..., MemoryStore], space: str, tmp_path: Path
) -> None:
    """Working memory, access counts and semantic memory (promoted facts, the episodes merged into them)
    arrive as they were, demoted (pruned) episodes stay pruned; a rerun, even after an interruption,
    duplicates nothing."""
    from datetime import UTC, datetime

    from zerolang.knowledge.tiers import WorkingMemory, consolidate

    source = open_store()
    example(source)
    ingest(source, inputs(0, 40))
    clock = lambda: datetime(2026, 2, 21, 12, tzinfo=UTC)  # noqa: E731
    promoted = consolidate(source, min_episodes=2, min_confidence=0.0, sweep_below=0.5, clock=clock)
    assert promoted.promoted > 0 and promoted.pruned > 0  # promoted to semantic memory, and demoted
    episodes = [e.episode_hash for e in EpisodicMemory(source, clock=clock).all()]
    assert len(episodes) >= 9
    buffer = WorkingMemory(source, "s1", capacity=3, clock=clock)
    for key in episodes[:5]:
        buffer.push(key)
    WorkingMemory(source, "s2", clock=clock).push(episodes[7])
    EpisodicMemory(source, clock=clock).touch(episodes[2:9])
    EpisodicMemory(source, clock=clock).touch(episodes[3:4])
    state = source.backend.tier_state()
    assert state.working and state.accesses and state.semantic and state.sources

    with storage.open_store(tmp_path / "copy.db", space=space) as copy:

        def interrupt(progress: CopyProgress) -> None:
            if progress.done >= 20:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            copy_space(source, copy, interrupt, batch_size=10)
        for _ in range(2):  # the completing rerun, then one more
            result = copy_space(source, copy)
            assert copy.backend.tier_state() == state
            assert copy.backend.pruned() == source.backend.pruned()
            assert checkpoint.of_store(copy) == checkpoint.of_store(source)
            assert copy.counts() == source.counts()
            assert copy.check().ok
        assert result.new_episodes == 0
        assert [k.digest for k in WorkingMemory(copy, "s1", capacity=3).peek()] == [
            k.digest for k in episodes[2:5]
        ]
        back = open_store(f"{space}-back")
        copy_space(copy, back)
        assert back.backend.tier_state() == state
        assert checkpoint.of_store(back) == checkpoint.of_store(source)


def _record(subject: str, obj: str, confidence: float, event: str, **validity: str) -> dict[str, object]:
    tuples = [{"subject": subject, "predicate": "works at", "object": obj, "confidence": confidence}]
    context = {"event_time": event, "source": "hr", "scope": "cv", "metadata": validity}
    return {"tuples": tuples, "context": context}


def test_migrate_carries_the_event_log_and_the_history(location: str, space: str, tmp_path: Path) -> None:
    """`zero memory log` and `history` answer the same after SQLite -> the backend -> SQLite, with two
    spaces whose writes interleave in the source; a rerun appends nothing."""
    import json

    origin, back = tmp_path / "origin.db", tmp_path / "back.db"
    other = f"{space}-other"
    batches = [
        [_record("bob", "acme", 0.9, "2019-01-01T00:00:00Z", valid_from="2019-01-01", valid_to="2021-01-01")],
        [_record("bob", "initech", 0.8, "2021-01-01T00:00:00Z")],
        [_record("bob", "initech", 0.4, "2021-01-01T00:00:00Z")],  # restated
        [_record("carol", "globex", 0.7, "2023-01-01T00:00:00Z")],
    ]
    for number, batch in enumerate(batches):
        path = tmp_path / f"in{number}.json"
        path.write_text(json.dumps(batch))
        for name in (space, other):  # the two spaces' log entries interleave in the table
            now = f"2026-03-0{number + 1}T00:00:00Z"
            args = ["memory", "ingest", str(path), "--db", str(origin), "--space", name, "--now", now]
            assert runner.invoke(app, args).exit_code == 0
    steps = [
        ["memory", "retract", "bob|works at|initech", "--valid-to", "2023-01-01"],
        ["memory", "forget", "carol"],
    ]
    for step in steps:
        result = runner.invoke(app, [*step, "--db", str(origin), "--space", space])
        assert result.exit_code == 0, result.output

    def shown(where: str, name: str = space) -> list[str]:
        at = ["--db", where, "--space", name]
        log = runner.invoke(app, ["memory", "log", *at])
        history = runner.invoke(app, ["memory", "history", "bob", *at, "--json"])
        assert log.exit_code == 0 and history.exit_code == 0, log.output + history.output
        return [log.stdout, history.stdout]

    expected = {name: shown(str(origin), name) for name in (space, other)}
    assert "retract" in expected[space][0] and "forget" in expected[space][0]
    assert "restated" in expected[space][1]
    for source, target in ((str(origin), location), (location, str(back))):
        for name in (space, other, space):  # each space, then one again
            result = runner.invoke(app, ["memory", "migrate", source, target, "--space", name])
            assert result.exit_code == 0, result.output
        for name in (space, other):
            assert shown(target, name) == expected[name]
