"""Forget: tombstones, restore and purge on both backends; forgotten knowledge never comes back."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from zerolang import storage
from zerolang.knowledge.backend import FactFilter
from zerolang.knowledge.forget import Selector, forget, purge, restore
from zerolang.knowledge.formats import checkpoint as checkpoints
from zerolang.knowledge.formats.exchange import Format, export, import_text
from zerolang.knowledge.formats.levels import Level
from zerolang.knowledge.ingest import ingest, parse_inputs
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.recall import RecallOptions, recall
from zerolang.memory import MemoryStore
from zerolang.util.errors import ZeroError

from .conftest import inputs

SECRET = "Zorblax Quuxly"  # normalised: zorblax quuxly
SECRET_LABEL = "zorblax quuxly"
AT = "2026-03-01T00:00:00.000Z"
LATER = "2026-03-02T00:00:00.000Z"

DATA = inputs(
    (
        "2026-02-18T00:00:00Z",
        "user_prompt",
        "design",
        [
            ("agent", "needs", "memory", 0.9),
            ("agent", "knows", SECRET, 0.8),
            (SECRET, "lives in", "paris", 0.7),
        ],
    ),
    (
        "2026-02-19T00:00:00Z",
        "observation",
        "review",
        [("agent", "needs", "memory", 0.6), ("memory", "stores", "facts", 0.9)],
    ),
)


def load(store: MemoryStore, text: str = DATA, now: str = AT) -> None:
    ingest(store, parse_inputs(text), now=now)


def everything_visible(store: MemoryStore) -> str:
    """Every read path's output, concatenated: what a user could ever see of the store."""
    seen: list[str] = []
    for form in Format:
        seen.append(export(store, form))
    for level in Level:
        seen.append(export(store, Format.COMPACT, level))
    seen.append(export(store, Format.COMPACT, since=checkpoints.compute([], []).hash))
    for concept in store.backend.scan_concepts():
        seen.append(json.dumps(store.recall(concept).to_json()))
        for ranker in ("score", "activation"):
            hits = recall(store, concept.label, RecallOptions(depth=3, limit=50, ranker=ranker))  # type: ignore[arg-type]
            seen.append(repr(hits))
    for query in ("match (?x ?p ?y)", "match (?x ?p ?y) from semantic", 'recall "agent" depth 3 limit 50'):
        seen.append(repr(run_query(store, query, touch=False)))
    seen.append(repr(list(store.backend.scan_episodes())))
    return "\n".join(seen)


def test_forget_a_concept_removes_it_from_every_path_and_keeps_it_forgotten(store: MemoryStore) -> None:
    load(store)
    before = export(store, Format.COMPACT)
    old_json = export(store, Format.JSON)
    assert SECRET_LABEL in everything_visible(store)
    report = forget(store, Selector("concept", SECRET), at=AT)
    assert report.removed.facts == 2 and report.removed.concepts == 2  # the secret and paris
    assert store.check().ok
    assert store.find_concept(SECRET) is None and store.find_concept("paris") is None
    visible = everything_visible(store)
    assert SECRET_LABEL not in visible and "paris" not in visible
    assert "agent" in visible  # the rest stays
    state = checkpoints.of_store(store)

    # re-ingest, import of an old export (both forms), and a delta carrying it: all still forgotten
    result = ingest(store, parse_inputs(DATA), now=LATER)
    assert result.forgotten == 2 and result.new_episodes == 0
    import_text(store, before, "old.0c")
    import_text(store, old_json, "old.json")
    assert checkpoints.of_store(store) == state
    assert SECRET_LABEL not in everything_visible(store)
    with pytest.raises(ZeroError, match="not a past state"):  # no delta reaches back before a forget
        export(store, Format.COMPACT, since=checkpoints.compute([], []).hash[:-1] + "0")
    # a fresh fact about the forgotten concept is blocked too (the concept's hash is)
    load(store, inputs(("2026-02-20T00:00:00Z", "chat", "x", [(SECRET, "likes", "tea", 0.5)])), LATER)
    assert store.find_concept(SECRET) is None and store.find_concept("tea") is None

    row, back = restore(store, SECRET, at=LATER)
    assert row.kind == "concept" and back == 2
    assert store.find_concept(SECRET) is not None and store.check().ok
    load(store, inputs(("2026-02-20T00:00:00Z", "chat", "x", [(SECRET, "likes", "tea", 0.5)])), LATER)
    assert store.find_concept("tea") is not None


def test_forget_restore_round_trips_the_checkpoint(store: MemoryStore) -> None:
    load(store)
    state = checkpoints.of_store(store)
    facts = {f.fact_hash: f.confidence for f in store.backend.find_facts(FactFilter())}
    forget(store, Selector("source", "observation"), at=AT)
    assert checkpoints.of_store(store) != state
    # the fact observed from both sources keeps one episode and its confidence is refolded
    needs = [f for f in store.backend.find_facts(FactFilter()) if f.predicate == "needs"]
    assert len(needs) == 1 and needs[0].observations == 1 and needs[0].confidence == pytest.approx(0.9)
    assert store.find_concept("facts") is None and store.check().ok
    restore(store, "observation", at=LATER)
    assert checkpoints.of_store(store) == state
    restored = {f.fact_hash: f.confidence for f in store.backend.find_facts(FactFilter())}
    assert restored == pytest.approx(facts)


@pytest.mark.parametrize(
    ("selector", "gone", "kept"),
    [
        (Selector("fact", f"agent|knows|{SECRET}"), ["agent|knows"], [SECRET_LABEL, "paris"]),
        (Selector("scope", "review"), ["stores"], ["paris"]),
        (Selector("time", "2026-02-19T00:00:00Z.."), ["stores"], ["paris"]),
        (Selector("time", "..2026-02-19T00:00:00Z"), [SECRET_LABEL, "paris"], ["stores"]),
    ],
)
def test_each_kind_of_forget(
    store: MemoryStore, selector: Selector, gone: list[str], kept: list[str]
) -> None:
    load(store)
    forget(store, selector, at=AT)
    text = export(store, Format.COMPACT)
    for word in gone:
        assert word not in text.replace("|", "")
    for word in kept:
        assert word in text
    assert store.check().ok
    state = checkpoints.of_store(store)
    load(store, now=LATER)
    assert checkpoints.of_store(store) == state


def test_forget_a_whole_space_leaves_other_spaces(open_store: Callable[..., MemoryStore], space: str) -> None:
    store, other = open_store(), open_store(space + "-b")
    load(store)
    load(other)
    forget(store, Selector("space", space), at=AT)
    assert store.counts().episodes == 0 and store.counts().concepts == 0
    assert other.counts().episodes == 5
    load(store, now=LATER)
    assert store.counts().episodes == 0
    with pytest.raises(ZeroError, match="needs the store opened on it"):
        forget(store, Selector("space", "elsewhere"), at=AT)


def test_nothing_to_forget_is_an_error_and_changes_nothing(store: MemoryStore) -> None:
    load(store)
    state = checkpoints.of_store(store)
    for selector in (
        Selector("concept", "nobody"),
        Selector("fact", "agent|hates|memory"),
        Selector("fact", "not a fact"),
        Selector("source", "nowhere"),
        Selector("time", "2030-01-01.."),
        Selector("time", "yesterday.."),
    ):
        with pytest.raises(ZeroError):
            forget(store, selector, at=AT)
    assert checkpoints.of_store(store) == state and store.backend.tombstones() == []
    with pytest.raises(ZeroError):
        Selector("planet", "mars")


def test_purge_erases_content_and_restore_only_lifts_the_block(store: MemoryStore) -> None:
    load(store)
    forget(store, Selector("concept", SECRET), at=AT)
    report = forget(store, Selector("scope", "design"), at=LATER, purge=True)
    assert report.purged
    rows = store.backend.tombstones()
    # the purge also purged the earlier tombstone naming the secret
    assert all(row.target is None and row.payload is None for row in rows)
    assert store.check().ok
    _, back = restore(store, rows[0].hash.hex(), at=LATER)
    assert back == 0  # purged: nothing to put back
    with pytest.raises(ZeroError, match="already restored"):
        restore(store, rows[0].hash.hex(), at=LATER)
    purge(store, rows[1].hash.hex()[:8], at=LATER)


def test_purged_labels_leave_no_bytes_in_the_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with storage.open_store(path) as store:
        load(store)
        forget(store, Selector("concept", SECRET), at=AT)  # a first, restorable forget holds the label
        assert _file_bytes(path).count(SECRET_LABEL.encode()) > 0
        load(
            store,
            inputs(("2026-02-21T00:00:00Z", "chat", "s", [("agent", "met", "quibbleflux", 0.9)])),
            LATER,
        )
        forget(store, Selector("concept", "quibbleflux"), at=LATER, purge=True)
        purge(store, SECRET_LABEL, at=LATER)
        assert store.check().ok
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = _file_bytes(path)
    for word in (SECRET_LABEL, "quibbleflux", "zorblax"):
        assert word.encode() not in data, word
    assert b"agent" in data  # the scan does see labels


def _file_bytes(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (path, Path(f"{path}-wal")) if p.exists())


def test_cli_forget_tombstones_restore_purge(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    runner = CliRunner()
    db = str(tmp_path / "m.db")
    source = tmp_path / "in.json"
    source.write_text(DATA)

    def zero(*args: str) -> str:
        result = runner.invoke(app, ["memory", *args, "--db", db])
        assert result.exit_code == 0, result.output
        return result.output

    zero("ingest", str(source))
    out = zero("forget", SECRET, "--now", AT)
    assert out.startswith(f"forgot concept {SECRET_LABEL}: 2 facts, 2 episodes, 2 concepts")
    assert "live      concept  zorblax quuxly" in zero("tombstones")
    assert '"forgotten": 2' in zero("ingest", str(source), "--json")
    assert "1 problem" not in zero("check")
    failed = runner.invoke(app, ["memory", "get", SECRET, "--db", db])
    assert failed.exit_code == 1 and "no concept" in failed.output
    document = json.loads(zero("restore", "Zorblax  Quuxly", "--json"))
    assert document["restored_episodes"] == 2
    assert SECRET_LABEL in zero("get", SECRET)
    out = zero("forget", "--scope", "design", "--purge", "--now", LATER, "--json")
    assert json.loads(out)["purged"] is True
    tomb = json.loads(zero("tombstones", "--json"))
    assert [t["kind"] for t in tomb] == ["concept", "scope"] and tomb[1]["target"] is None
    assert "purged tombstone" in zero("purge", tomb[0]["tombstone"][:10])
    log = zero("log")
    kinds = [line.split()[2] for line in log.splitlines()]
    assert kinds == ["ingest", "forget", "ingest", "restore", "forget"]  # a restore re-applies, then says so
    assert json.loads(zero("log", "--json", "--limit", "1"))[0]["detail"].startswith("scope (purged)")
    for bad in (["forget"], ["forget", "x", "--source", "y"], ["restore", "nothing-here"]):
        result = runner.invoke(app, ["memory", *bad, "--db", db])
        assert result.exit_code == 1 and result.output.startswith("error: "), result.output


def _periods(store: MemoryStore, facts: list[bytes]) -> list[object]:
    return [replace(row, id=None) for row in store.backend.periods(facts)]


def test_migrate_carries_tombstones_and_fact_times(tmp_path: Path, postgres_url: str) -> None:
    from zerolang.storage.copy import copy_store

    space = f"migrate-{tmp_path.name[-12:]}".replace("_", "-")
    with storage.open_store(tmp_path / "src.db", space=space, single_valued=["lives in"]) as source:
        load(source)
        load(
            source,
            inputs(("2027-01-01T00:00:00Z", "chat", "later", [("agent", "lives in", "rome", 0.9)])),
            LATER,
        )
        load(
            source,
            inputs(("2028-01-01T00:00:00Z", "chat", "later", [("agent", "lives in", "oslo", 0.9)])),
            LATER,
        )
        forget(source, Selector("concept", SECRET), at=AT)
        with storage.open_store(postgres_url, space=space, single_valued=["lives in"]) as moved:
            for _ in range(2):  # rerunnable
                copy_store(source, moved, [space])
            assert checkpoints.of_store(moved) == checkpoints.of_store(source)
            assert [r.hash for r in moved.backend.tombstones()] == [
                r.hash for r in source.backend.tombstones()
            ]
            load(moved, now=LATER)
            assert moved.find_concept(SECRET) is None
            facts = [f.fact_hash.digest for f in source.backend.find_facts(FactFilter())]
            assert _periods(moved, facts) == _periods(source, facts)
            assert moved.backend.declarations() == source.backend.declarations()
            assert len(moved.backend.fact_events(facts)) == len(source.backend.fact_events(facts))


def test_each_space_keeps_an_append_only_log_without_labels(store: MemoryStore) -> None:
    load(store)
    forget(store, Selector("concept", SECRET), at=AT)
    restore(store, SECRET, at=LATER)
    forget(store, Selector("concept", SECRET), at="2026-03-03T00:00:00.000Z", purge=True)
    load(store, now=LATER)
    entries = store.backend.log_entries()
    assert [e.kind for e in entries] == ["ingest", "forget", "ingest", "restore", "forget"]
    assert [e.seq for e in entries] == sorted(e.seq for e in entries)
    assert entries[1].subject == entries[3].subject  # the restore names the tombstone it lifted
    assert "purged" in entries[4].detail
    assert SECRET_LABEL not in json.dumps([e.to_json() for e in entries])
    assert [e.kind for e in store.backend.log_entries(2)] == ["restore", "forget"]
