"""One contract for every ExperienceStore: SQLite (FTS5) and PostgreSQL (tsvector).

PostgreSQL runs at 127.0.0.1:5432 on CI (trust auth); each run makes its own
database `zt_capture_<pid>_<random>` and drops it afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from zerolang.experience.budget import render
from zerolang.experience.build import build
from zerolang.experience.capture import Extractors, TurnRecorder, capture_files
from zerolang.experience.ranking import full_text
from zerolang.experience.recall import RecallWeights, recall
from zerolang.experience.store import ExperienceStore
from zerolang.experience.transcripts import read_transcript
from zerolang.storage.errors import StorageError
from zerolang.storage.schema import EDGE_KINDS
from zerolang.storage.sql.experiences import BULK_TURNS
from zerolang.storage.sqlite.experience import SqliteExperienceStore
from zerolang.util.tokens import count_tokens

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"
SERVER = "host=127.0.0.1 port=5432 user=postgres"


@pytest.fixture(scope="module")
def pg_database() -> Iterator[str]:
    psycopg = pytest.importorskip("psycopg")
    name = f"zt_capture_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{SERVER} dbname=postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield f"{SERVER} dbname={name}"
    finally:
        with psycopg.connect(f"{SERVER} dbname=postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ExperienceStore]:
    if request.param == "sqlite":
        with SqliteExperienceStore(tmp_path / "e.db") as sqlite:
            yield sqlite
        return
    from zerolang.storage.postgres.experience import PostgresExperienceStore

    dsn = request.getfixturevalue("pg_database")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with PostgresExperienceStore(dsn, schema=schema) as postgres:
        yield postgres
        postgres._conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_capture_counts_are_the_same_everywhere(store: ExperienceStore) -> None:
    files = sorted(FIXTURES.iterdir())
    added = capture_files(store, files).added
    assert added.as_dict() == {"turns": 13, "experiences": 33, "concepts": 158, "edges": 258}
    assert store.counts() == added.as_dict()
    assert capture_files(store, files).added.as_dict() == {
        "turns": 0,
        "experiences": 0,
        "concepts": 0,
        "edges": 0,
    }


def test_reads(store: ExperienceStore) -> None:
    capture_files(store, [FIXTURES / "pi_v1.jsonl"])
    hits = full_text(store, ["tomatoes", "compost"], 10).experiences
    assert hits and all(score > 0 for _, score in hits)
    found = store.experiences([ident for ident, _ in hits])
    assert any("compost" in e.what for e in found.values())
    experience = next(iter(found.values()))
    assert experience.affect == {k: v for k, v in experience.affect.items() if 0 < v < 1}
    turns = full_text(store, ["nitrogen"], 5).turns
    assert len(turns) == 1
    members = store.experiences_of_turns([turns[0][0]])
    assert [e.layer.value for e in members] == ["input", "contemplation", "output"]
    neighbours = store.neighbour_turns([turns[0][0]])
    assert len(neighbours) == 1 and neighbours[0][0] == turns[0][0]
    mentions = store.mentions_of([members[0].id])
    assert mentions and all(src == members[0].id for src, _, _ in mentions)
    concepts = {concept for _, concept, _ in mentions}
    frequency = store.concept_frequency(concepts)
    assert set(frequency) == concepts and min(frequency.values()) >= 1
    assert set(store.concept_labels(concepts)) == concepts
    assert {src for src, _ in store.mentioning(concepts)} >= {members[0].id}
    assert (
        full_text(store, [], 5).experiences == [] and full_text(store, ['"quoted" OR'], 5).experiences == []
    )


def test_sessions_and_their_turns_page_in_order(store: ExperienceStore) -> None:
    """What `zero explore` pages through: sessions newest first (by their latest turn's time; those
    with no time last, ties by name) with their turn counts and first and last times, a session's
    turns by position, each page starting after the last row of the one before."""
    ids = {}
    times = {
        "b": "2024-05-0{}T10:00:00Z",
        "a": "2024-06-0{}T10:00:00Z",
        "c": None,
        "d": "2024-05-0{}T10:00:00Z",
    }
    for name, turns in (("b", 3), ("a", 1), ("c", 2), ("d", 3)):
        recorder = TurnRecorder(store, session=name)
        ids[name] = recorder.session
        shape = times[name]
        for n in range(turns):
            when = None if shape is None else shape.format(n + 1)
            recorder.record(user_said=f"question {n} of {name}", agent_said="answer", when=when)
    order = ["a", *sorted(["b", "d"], key=lambda name: ids[name]), "c"]
    listed = store.sessions("", 10)
    assert [row.session for row in listed] == [ids[name] for name in order]
    assert [row.turns for row in listed] == [{"a": 1, "b": 3, "c": 2, "d": 3}[name] for name in order]
    first = listed[0]
    assert (first.first, first.last) == ("2024-06-01T10:00:00Z", "2024-06-01T10:00:00Z")
    assert (listed[1].first, listed[1].last) == ("2024-05-01T10:00:00Z", "2024-05-03T10:00:00Z")
    assert (listed[-1].first, listed[-1].last) == (None, None)
    paged, after = [], ""
    while page := store.sessions(after, 1):
        paged += page
        after = page[-1].session
    assert paged == listed
    assert store.sessions(listed[-1].session, 10) == []
    named = [(row.session, row.turns) for row in listed]
    three = next(session for session, turns in named if turns == 3)
    first = store.session_turns(three, -1, 2)
    assert [position for _, position in first] == [0, 1]
    rest = store.session_turns(three, first[-1][1], 2)
    assert [position for _, position in rest] == [2]
    assert len({ident for ident, _ in first + rest}) == 3
    assert store.session_turns("nobody", -1, 5) == []


def test_recorder_and_recall_under_a_budget(store: ExperienceStore) -> None:
    recorder = TurnRecorder(store, session="s", user="David", agent="Lilu")
    recorder.record(user_said="I read the Philokalia again.", agent_said="What draws you back?")
    recorder.record(user_said="The calm about passions.", agent_said="That is apatheia.")
    assert store.last_turn(recorder.session) is not None
    again = TurnRecorder(store, session="s", user="David", agent="Lilu")
    assert again.record(user_said="Melissa wants to learn it", agent_said="Lovely").turns == 1
    hits = recall(store, "Philokalia", limit=10)
    assert "That is apatheia." in {hit.experience.what for hit in hits}
    for budget in (40, 120, 400):
        rendering = render(store, "Philokalia", hits, budget=budget)
        assert count_tokens(rendering.text) <= budget


def test_the_full_texts_first_session_keeps_a_place_on_every_engine(store: ExperienceStore) -> None:
    """The graph piles what Ana said into the first places; the other of the full text's first two
    sessions keeps the fifth when the room is kept there (`kept` 0)."""
    busy = TurnRecorder(store, session="busy", user="Ana", agent="Ben")
    for place in ("gate", "roses", "tools", "weeds", "shed", "path"):
        busy.record(user_said=f"the {place} in the garden needed work")
    quiet = TurnRecorder(store, session="quiet", user="Cy", agent="Ben")
    quiet.record(user_said="Tea is ready.")
    quiet.record(user_said="Garden, garden, my garden!")
    question = "What did Ana do in the garden?"
    plain = recall(store, question, limit=8, weights=RecallWeights(speaker=2.0, sessions=0, kept=0))
    assert [hit.experience.who for hit in plain[:5]] == ["Ana"] * 5
    hits = recall(store, question, limit=8, weights=RecallWeights(speaker=2.0, sessions=2, kept=0))
    assert [hit.experience.who for hit in hits[:5]] == ["Ana"] * 4 + ["Cy"]
    assert any(reason.startswith("its session is the full text's") for reason in hits[4].reasons)
    # the sessions of the graph's and the full text's orders fused (`fused`) reach it alike
    fused = recall(store, question, limit=8, weights=RecallWeights(speaker=2.0, sessions=0, fused=2, kept=0))
    assert [hit.experience.who for hit in fused[:5]] == ["Ana"] * 4 + ["Cy"]
    assert "its session is among the first of both rankings fused" in fused[4].reasons


def test_without_psycopg_a_postgres_url_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The experience and conversation stores import psycopg only when they connect: without it, a
    `postgresql://` location says what to install (it used to escape as an internal error)."""
    import sys
    from pathlib import Path

    from zerolang.memory.opening import open_conversations_of, open_experiences_of
    from zerolang.memory.settings import resolve_stores
    from zerolang.util.errors import ZeroError

    monkeypatch.setitem(sys.modules, "psycopg", None)  # `import psycopg` raises ImportError
    stores = resolve_stores(experiences=Path("postgresql://postgres@127.0.0.1:5432/test"), environ={})
    for opener in (open_experiences_of, open_conversations_of):
        with pytest.raises(
            ZeroError, match=r'PostgreSQL needs psycopg 3: python -m pip install "\.\[postgres\]"'
        ):
            opener(stores, create=False)


def test_a_grown_transcript_indexes_its_turns_as_a_whole_capture_does(
    store: ExperienceStore, tmp_path: Path
) -> None:
    """Batched writes: a new turn's full text is made from the batch, a held turn that gained a
    layer is read again; both are found by their words, and the counts are a whole capture's."""
    import json

    def line(i: int) -> str:
        role = "user" if i % 2 == 0 else "assistant"
        return json.dumps({"role": role, "content": f"message {i} word{i} about the parser"}) + "\n"

    path = tmp_path / "chat.jsonl"
    path.write_text("".join(line(i) for i in range(7)), encoding="utf-8")  # the last turn is open
    first = capture_files(store, [path]).added
    assert (first.turns, first.experiences) == (4, 7)
    path.write_text("".join(line(i) for i in range(10)), encoding="utf-8")
    second = capture_files(store, [path]).added
    assert (second.turns, second.experiences) == (1, 3)
    assert capture_files(store, [path]).added.as_dict() == dict.fromkeys(second.as_dict(), 0)
    counts = store.counts()
    with SqliteExperienceStore(tmp_path / "whole.db") as whole:
        assert capture_files(whole, [path]).added.as_dict() == counts
    for i in range(10):
        hits = full_text(store, [f"word{i}"], 5).turns
        assert len(hits) == 1, i
        assert full_text(store, [f"word{i}"], 5).experiences
    held = {turn for i in (6, 7) for turn, _ in full_text(store, [f"word{i}"], 5).turns}
    assert len(held) == 1  # the open turn's question and its later answer: one turn, one entry


def test_batches_of_a_few_turns_store_what_one_batch_does(
    store: ExperienceStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zerolang.experience import capture

    files = sorted(FIXTURES.iterdir())
    monkeypatch.setattr(capture, "BATCH_TURNS", 1)
    added = capture_files(store, files).added
    assert added.as_dict() == {"turns": 13, "experiences": 33, "concepts": 158, "edges": 258}
    assert store.counts() == added.as_dict()


def _fail_on_fifth_turn(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Make capture's fifth `add_turn` raise; returns the real one."""
    from zerolang.experience import capture

    real = capture.add_turn
    calls: list[int] = []

    def failing(*args: object, **kwargs: object) -> None:
        calls.append(1)
        if len(calls) == 5:
            raise RuntimeError("disk on fire")
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(capture, "add_turn", failing)
    return real


def test_a_failure_in_a_later_batch_writes_nothing(
    store: ExperienceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zerolang.experience import capture

    monkeypatch.setattr(capture, "BATCH_TURNS", 1)
    _fail_on_fifth_turn(monkeypatch)
    with pytest.raises(RuntimeError):
        capture_files(store, sorted(FIXTURES.iterdir()))
    assert set(store.counts().values()) == {0}


def test_a_bulk_capture_stores_what_a_plain_one_does(store: ExperienceStore, tmp_path: Path) -> None:
    """`expected_turns` past BULK_TURNS (the edges' index made once at the end) changes no record and
    leaves the index in place: reads by concept still work, and a second capture adds nothing."""
    files = sorted(FIXTURES.iterdir())
    sessions = [session for path in files for session in read_transcript(path)]
    parts = Extractors()
    batch = build(sessions, affect=parts.affect, concepts=parts.concepts)
    bulk = store.add_all([batch], expected_turns=BULK_TURNS)
    with SqliteExperienceStore(tmp_path / "plain.db") as plain:
        assert plain.add_all([batch]) == bulk
        concept = batch.concepts[0].id
        assert sorted(store.mentioning([concept])) == sorted(plain.mentioning([concept]))
        assert store.concept_frequency([concept]) == plain.concept_frequency([concept])
    if isinstance(store, SqliteExperienceStore):
        assert store.db.has_table("exp_edge_dst")  # the index, made again
    assert store.add_all([batch], expected_turns=BULK_TURNS).as_dict() == dict.fromkeys(
        ("turns", "experiences", "concepts", "edges"), 0
    )


def _edges(store: ExperienceStore) -> list[tuple[str, str, str, float]]:
    """Every edge with its weight: what a capture wrote, read back in one order."""
    db = store.db  # type: ignore[attr-defined]
    ends = {"mentions": ("exp_experience", "exp_concept"), "sibling": ("exp_experience",) * 2}
    ends["next"] = ("exp_turn", "exp_turn")
    return sorted(
        (str(s), kind, str(d), float(w))
        for kind, (sources, targets) in ends.items()
        for s, d, w in db.rows(
            f"SELECT a.id, b.id, g.weight FROM exp_edge g JOIN {sources} a ON a.seq = g.src"
            f" JOIN {targets} b ON b.seq = g.dst WHERE g.kind = {EDGE_KINDS[kind]}"
        )
    )


def test_a_bulk_capture_in_batches_over_held_records_stores_every_edge_once(
    store: ExperienceStore, tmp_path: Path
) -> None:
    """The bulk path collects edges and inserts them at the end: over a store that holds some of the
    records already and with an edge met in two batches, it writes exactly what plain batches do, and
    counts only the edges that were new."""
    files = sorted(FIXTURES.iterdir())
    sessions = [session for path in files for session in read_transcript(path)]
    parts = Extractors()
    whole = build(sessions, affect=parts.affect, concepts=parts.concepts)
    first = build(sessions[:1], affect=parts.affect, concepts=parts.concepts)
    halves = [build([session], affect=parts.affect, concepts=parts.concepts) for session in sessions]
    halves[-1].edges.extend(halves[0].edges[:3])  # met again in a later batch
    store.add_all([first])
    bulk = store.add_all(halves, expected_turns=BULK_TURNS)
    with SqliteExperienceStore(tmp_path / "plain.db") as plain:
        plain.add_all([first])
        assert plain.add_all(halves) == bulk
        assert bulk.edges == len(whole.edges) - len(first.edges)
        assert _edges(store) == _edges(plain)
    assert store.counts()["edges"] == len(whole.edges)


def test_a_failed_bulk_capture_writes_nothing_and_can_run_again(
    store: ExperienceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zerolang.experience import capture
    from zerolang.storage.sql import experiences

    monkeypatch.setattr(experiences, "BULK_TURNS", 1)
    monkeypatch.setattr(capture, "BATCH_TURNS", 1)
    real = _fail_on_fifth_turn(monkeypatch)
    files = sorted(FIXTURES.iterdir())
    with pytest.raises(RuntimeError):
        capture_files(store, files)
    assert set(store.counts().values()) == {0}
    monkeypatch.setattr(capture, "add_turn", real)
    added = capture_files(store, files).added
    assert added.as_dict() == {"turns": 13, "experiences": 33, "concepts": 158, "edges": 258}
    assert store.counts() == added.as_dict()


def test_rows_inserted_many_a_statement_go_in_in_order_each_once(store: ExperienceStore) -> None:
    db = store.db  # type: ignore[attr-defined]  # every SQL store's database
    rows = [(f"session-{index:04d}", store.space) for index in range(1_234)]  # 499 a statement, then 236
    held = [rows[7], rows[1_000]]  # met again: left out, not counted
    inserted = db.insert_rows("exp_session (id, space)", [*rows, *held], skip_held=True)
    assert inserted == len(rows)
    assert [str(row[0]) for row in db.rows("SELECT id FROM exp_session ORDER BY seq")] == [
        ident for ident, _ in rows
    ]
    assert db.insert_rows("exp_session (id, space)", [], skip_held=True) == 0
    with pytest.raises(StorageError):  # not skipping: a held key is an error, as one row at a time
        db.insert_rows("exp_session (id, space)", [("session-new", store.space), rows[3]])
