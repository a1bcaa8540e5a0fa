"""SQLite files from older zerolangs are migrated when opened; newer ones are refused."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.knowledge.conftest import make_input
from zerolang.knowledge.formats import checkpoint
from zerolang.memory import compile_record
from zerolang.storage import open_store
from zerolang.storage.schema import latest, step
from zerolang.storage.sqlite.backend import APPLICATION_ID
from zerolang.util.errors import ZeroError


def old_file(path: Path, with_tiers: bool) -> None:
    """A schema-1 file as the first zerolang wrote it, holding one record (and tier rows, if asked)."""
    record = compile_record(
        make_input(("agent", "needs", "LTM", 0.9), ("LTM", "includes", "episodes", 0.7)),
        now="2026-03-01T00:00:00.000Z",
    )
    db = sqlite3.connect(path)
    for statement in step("sqlite", 1) + (step("sqlite", 2) if with_tiers else ()):
        db.execute(statement)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    for concept in record.concepts:
        db.execute(
            "INSERT INTO concepts VALUES (?, ?, ?, ?, ?)",
            (concept.hash.digest, concept.label, concept.confidence, concept.created_at, concept.updated_at),
        )
        for alias in concept.aliases:
            db.execute(
                "INSERT INTO concept_aliases (concept_hash, alias, alias_key) VALUES (?, ?, ?)",
                (concept.hash.digest, alias, alias.lower()),
            )
    meta = record.context.meta
    db.execute(
        "INSERT INTO contexts VALUES (?, ?, ?, ?, NULL, NULL, ?, ?)",
        (
            record.context.hash.digest,
            meta.event_time,
            meta.source,
            meta.scope,
            json.dumps({}),
            "2026-03-01T00:00:00.000Z",
        ),
    )
    for r in record.relations:
        db.execute(
            "INSERT INTO facts VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
            (
                r.fact_hash.digest,
                r.subject_hash.digest,
                r.predicate,
                r.object_hash.digest,
                r.confidence,
                r.created_at,
                r.created_at,
            ),
        )
        db.execute(
            "INSERT INTO episodes VALUES (?, ?, ?, ?, ?)",
            (r.episode_hash.digest, r.fact_hash.digest, r.context_hash.digest, r.confidence, r.created_at),
        )
    if with_tiers:
        db.execute(
            "INSERT INTO episode_access VALUES (?, 3, 'x')", (record.relations[0].episode_hash.digest,)
        )
        db.execute(
            "INSERT INTO working_items (session, episode_hash, added_at) VALUES ('s', ?, 'x')",
            (record.relations[0].episode_hash.digest,),
        )
    db.commit()
    db.close()


@pytest.mark.parametrize("with_tiers", [False, True])
def test_a_schema_1_file_is_migrated_on_open(tmp_path: Path, with_tiers: bool) -> None:
    path = tmp_path / "old.db"
    old_file(path, with_tiers)
    with open_store(path, create=False) as store:
        assert store.backend.schema_version == latest()  # type: ignore[attr-defined]
        assert store.space == "default"
        assert store.counts().to_json() == {"concepts": 3, "facts": 2, "episodes": 2, "contexts": 1}
        assert store.check().ok
        assert store.get_concept_by_label("LTM") is not None
        first = checkpoint.of_store(store)
        if with_tiers:
            from zerolang.knowledge.tiers import EpisodicMemory, WorkingMemory

            assert sorted(e.access_count for e in EpisodicMemory(store).all()) == [0, 3]
            assert len(WorkingMemory(store, "s")) == 1
        assert store.in_space("other").counts().facts == 0
        assert store.backend.index.count() == 0  # the summary index arrived empty (MEMORY_INDEX)
    with open_store(path, create=False) as again:  # opening a migrated file changes nothing
        assert checkpoint.of_store(again) == first


def test_a_newer_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    open_store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {latest() + 1}")
    db.close()
    with pytest.raises(
        ZeroError, match=rf"schema {latest() + 1}, this one reads {latest()}\); upgrade zerolang"
    ):
        open_store(path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == latest() + 1
