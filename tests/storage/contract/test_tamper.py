"""Hand edits of a store's rows (issue 15, point 6): `check` sees each one, nothing crashes.

Each edit is what someone with `sqlite3` or `psql` might do to a store the
example was ingested into: change a value, point a row elsewhere, delete or
add a row, or (SQLite, which does not enforce column types) put a text or a
BLOB where a number or label belongs. After every edit `zero memory check`
exits 1 naming a problem, and `zero memory export` either still works or
says clearly (exit 1) that the store is damaged: never exit 3, never a traceback.
The PostgreSQL half applies the edits its column types allow to a space of
the contract suite's database.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.storage.contract.helpers import EXAMPLE as EXAMPLE_INPUT
from tests.storage.contract.helpers import before_words, example
from zerolang import storage
from zerolang.cli.app import app
from zerolang.knowledge.formats.exchange import Format, export
from zerolang.memory import MemoryStore
from zerolang.util.errors import ZeroError

runner = CliRunner()

AGENT = "(SELECT hash FROM concepts WHERE space = '{s}' AND label = 'agent')"
OTHER_CONCEPT = "(SELECT hash FROM concepts WHERE space = '{s}' AND label <> 'agent' ORDER BY hash LIMIT 1)"
FACT = "(SELECT hash FROM facts WHERE space = '{s}' ORDER BY hash LIMIT 1)"
LAST_FACT = "(SELECT hash FROM facts WHERE space = '{s}' ORDER BY hash DESC LIMIT 1)"
CONTEXT = "(SELECT hash FROM contexts WHERE space = '{s}' ORDER BY hash LIMIT 1)"
SESSION = "(SELECT hash FROM contexts WHERE space = '{s}' AND session_id IS NOT NULL ORDER BY hash LIMIT 1)"
LAST_CONTEXT = "(SELECT hash FROM contexts WHERE space = '{s}' ORDER BY hash DESC LIMIT 1)"
EPISODE = "(SELECT hash FROM episodes WHERE space = '{s}' ORDER BY hash LIMIT 1)"
ALIAS = "(SELECT min(id) FROM concept_aliases WHERE space = '{s}')"
IN_SPACE = "space = '{s}' AND"

# Edits both engines accept: (id, SQL with {s} for the space).
PORTABLE = [
    ("concept-confidence-up", f"UPDATE concepts SET confidence = 0.999 WHERE {IN_SPACE} hash = {AGENT}"),
    ("concept-confidence-down", f"UPDATE concepts SET confidence = 0.01 WHERE {IN_SPACE} hash = {AGENT}"),
    ("concept-label", f"UPDATE concepts SET label = 'agnet' WHERE {IN_SPACE} hash = {AGENT}"),
    (
        "concept-created",
        f"UPDATE concepts SET created_at = '2020-01-01T00:00:00.000Z' WHERE {IN_SPACE} hash = {AGENT}",
    ),
    (
        "concept-updated",
        f"UPDATE concepts SET updated_at = '2030-01-01T00:00:00.000Z' WHERE {IN_SPACE} hash = {AGENT}",
    ),
    (
        "concept-updated-before-created",
        f"UPDATE concepts SET updated_at = '2000-01-01T00:00:00.000Z' WHERE {IN_SPACE} hash = {AGENT}",
    ),
    ("concept-deleted", f"DELETE FROM concepts WHERE {IN_SPACE} hash = {AGENT}"),
    ("alias-deleted", f"DELETE FROM concept_aliases WHERE {IN_SPACE} id = {ALIAS}"),
    (
        "alias-repointed",
        f"UPDATE concept_aliases SET concept_hash = {OTHER_CONCEPT} WHERE {IN_SPACE} id = {ALIAS}",
    ),
    ("alias-text", f"UPDATE concept_aliases SET alias = 'Intruder' WHERE {IN_SPACE} id = {ALIAS}"),
    ("alias-key", f"UPDATE concept_aliases SET alias_key = 'intruder' WHERE {IN_SPACE} id = {ALIAS}"),
    (
        "alias-added",
        "INSERT INTO concept_aliases (space, concept_hash, alias, alias_key)"
        " SELECT space, hash, 'Sneaky', 'sneaky' FROM concepts WHERE space = '{s}' AND label = 'agent'",
    ),
    ("context-agent", f"UPDATE contexts SET agent_id = 'mallory' WHERE {IN_SPACE} hash = {CONTEXT}"),
    ("context-session", f"UPDATE contexts SET session_id = 'elsewhere' WHERE {IN_SPACE} hash = {SESSION}"),
    ("context-session-null", f"UPDATE contexts SET session_id = NULL WHERE {IN_SPACE} hash = {SESSION}"),
    ("context-metadata", f"UPDATE contexts SET metadata = '{{\"x\": 1}}' WHERE {IN_SPACE} hash = {CONTEXT}"),
    (
        "context-metadata-invalid",
        f"UPDATE contexts SET metadata = '{{not json' WHERE {IN_SPACE} hash = {CONTEXT}",
    ),
    ("context-metadata-list", f"UPDATE contexts SET metadata = '[1, 2]' WHERE {IN_SPACE} hash = {CONTEXT}"),
    (
        "context-created",
        f"UPDATE contexts SET created_at = '2020-01-01T00:00:00.000Z' WHERE {IN_SPACE} hash = {CONTEXT}",
    ),
    (
        "context-event-time",
        f"UPDATE contexts SET event_time = '2025-01-01T00:00:00Z' WHERE {IN_SPACE} hash = {CONTEXT}",
    ),
    ("context-deleted", f"DELETE FROM contexts WHERE {IN_SPACE} hash = {CONTEXT}"),
    ("fact-confidence", f"UPDATE facts SET confidence = 0.5 WHERE {IN_SPACE} hash = {FACT}"),
    ("fact-observations", f"UPDATE facts SET observations = 5 WHERE {IN_SPACE} hash = {FACT}"),
    (
        "fact-created",
        f"UPDATE facts SET created_at = '2020-01-01T00:00:00.000Z' WHERE {IN_SPACE} hash = {FACT}",
    ),
    (
        "fact-updated",
        f"UPDATE facts SET updated_at = '2030-01-01T00:00:00.000Z' WHERE {IN_SPACE} hash = {FACT}",
    ),
    (
        "fact-updated-before-created",
        f"UPDATE facts SET updated_at = '2000-01-01T00:00:00.000Z' WHERE {IN_SPACE} hash = {FACT}",
    ),
    ("fact-predicate", f"UPDATE facts SET predicate = 'hates' WHERE {IN_SPACE} hash = {FACT}"),
    (
        "fact-swapped",
        f"UPDATE facts SET subject_hash = object_hash, object_hash = subject_hash WHERE {IN_SPACE} hash = {FACT}",
    ),
    ("fact-deleted", f"DELETE FROM facts WHERE {IN_SPACE} hash = {FACT}"),
    ("episode-confidence", f"UPDATE episodes SET confidence = 0.01 WHERE {IN_SPACE} hash = {EPISODE}"),
    (
        "episode-created",
        f"UPDATE episodes SET created_at = '2020-01-01T00:00:00.000Z' WHERE {IN_SPACE} hash = {EPISODE}",
    ),
    ("episode-deleted", f"DELETE FROM episodes WHERE {IN_SPACE} hash = {EPISODE}"),
    ("episode-fact", f"UPDATE episodes SET fact_hash = {LAST_FACT} WHERE {IN_SPACE} hash = {EPISODE}"),
    (
        "episode-context",
        f"UPDATE episodes SET context_hash = {LAST_CONTEXT} WHERE {IN_SPACE} hash = {EPISODE}",
    ),
    ("seal-deleted", "DELETE FROM table_seals WHERE space = '{s}' AND tbl = 'contexts'"),
    (
        "seal-digest",
        "UPDATE table_seals SET digest = '0000000000000000000000000000000000000000000000000000000000000000' WHERE space = '{s}' AND tbl = 'facts'",
    ),
    ("seal-garbage", "UPDATE table_seals SET digest = 'zz' WHERE space = '{s}' AND tbl = 'facts'"),
]

# Edits only SQLite takes (it stores any value in any column; CHECK constraints switched off).
SQLITE_ONLY = [
    ("concept-confidence-text", f"UPDATE concepts SET confidence = 'high' WHERE {IN_SPACE} hash = {AGENT}"),
    ("concept-confidence-blob", f"UPDATE concepts SET confidence = x'00' WHERE {IN_SPACE} hash = {AGENT}"),
    ("concept-label-blob", f"UPDATE concepts SET label = x'6167656e74' WHERE {IN_SPACE} hash = {AGENT}"),
    ("concept-label-number", f"UPDATE concepts SET label = 42 WHERE {IN_SPACE} hash = {AGENT}"),
    (
        "concept-label-not-utf8",
        f"UPDATE concepts SET label = CAST(x'61ff' AS TEXT) WHERE {IN_SPACE} hash = {AGENT}",
    ),
    ("concept-hash-short", f"UPDATE concepts SET hash = x'00' WHERE {IN_SPACE} hash = {AGENT}"),
    ("concept-hash-text", f"UPDATE concepts SET hash = 'agent' WHERE {IN_SPACE} hash = {AGENT}"),
    ("concept-hash-zero", f"UPDATE concepts SET hash = zeroblob(32) WHERE {IN_SPACE} hash = {AGENT}"),
    ("fact-confidence-blob", f"UPDATE facts SET confidence = x'00' WHERE {IN_SPACE} hash = {FACT}"),
    ("fact-confidence-big", f"UPDATE facts SET confidence = 7.5 WHERE {IN_SPACE} hash = {FACT}"),
    ("fact-observations-text", f"UPDATE facts SET observations = 'many' WHERE {IN_SPACE} hash = {FACT}"),
    ("fact-observations-real", f"UPDATE facts SET observations = 1.5 WHERE {IN_SPACE} hash = {FACT}"),
    ("fact-subject-text", f"UPDATE facts SET subject_hash = 'agent' WHERE {IN_SPACE} hash = {FACT}"),
    ("fact-predicate-blob", f"UPDATE facts SET predicate = x'6e65656473' WHERE {IN_SPACE} hash = {FACT}"),
    ("episode-confidence-text", f"UPDATE episodes SET confidence = 'sure' WHERE {IN_SPACE} hash = {EPISODE}"),
    ("episode-created-number", f"UPDATE episodes SET created_at = 12 WHERE {IN_SPACE} hash = {EPISODE}"),
    (
        "episode-added",
        "INSERT INTO episodes VALUES ('{s}', zeroblob(32), zeroblob(32), zeroblob(32), 0.5, 'x')",
    ),
    ("context-source-blob", f"UPDATE contexts SET source = x'75736572' WHERE {IN_SPACE} hash = {CONTEXT}"),
    ("context-metadata-blob", f"UPDATE contexts SET metadata = x'7b7d' WHERE {IN_SPACE} hash = {CONTEXT}"),
    ("context-agent-number", f"UPDATE contexts SET agent_id = 7 WHERE {IN_SPACE} hash = {CONTEXT}"),
    (
        "context-metadata-not-utf8",
        f"UPDATE contexts SET metadata = CAST(x'7bff7d' AS TEXT) WHERE {IN_SPACE} hash = {CONTEXT}",
    ),
    ("alias-blob", f"UPDATE concept_aliases SET alias = x'ff' WHERE {IN_SPACE} id = {ALIAS}"),
    ("alias-number", f"UPDATE concept_aliases SET alias = 7 WHERE {IN_SPACE} id = {ALIAS}"),
    ("seal-rows-text", "UPDATE table_seals SET row_count = 'many' WHERE space = '{s}' AND tbl = 'concepts'"),
]


def _ids(edits: list[tuple[str, str]]) -> list[str]:
    return [name for name, _ in edits]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tamper") / "memory.db"
    result = runner.invoke(app, ["memory", "ingest", str(EXAMPLE_INPUT), "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    shutil.copyfile(pristine, path)
    return path


def zero(*arguments: str, db: Path) -> Any:
    return runner.invoke(app, ["memory", *arguments, "--db", str(db)])


def edit_sqlite(db: Path, sql: str) -> None:
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA ignore_check_constraints = ON")
    changed = connection.execute(sql.replace("{s}", "default")).rowcount
    connection.commit()
    connection.close()
    assert changed > 0, "the edit must change something"


def assert_no_crash(result: Any) -> None:
    assert result.exit_code in (0, 1), (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def test_the_pristine_store_checks_ok(db: Path) -> None:
    result = zero("check", db=db)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("name", "sql"), PORTABLE + SQLITE_ONLY, ids=_ids(PORTABLE + SQLITE_ONLY))
def test_check_sees_every_hand_edit(db: Path, name: str, sql: str) -> None:
    edit_sqlite(db, sql)
    checked = zero("check", db=db)
    assert_no_crash(checked)
    assert checked.exit_code == 1, f"{name} went unseen: {checked.output}"
    assert "problem" in checked.stderr
    for form in ("0c", "json"):
        exported = zero("export", "--format", form, db=db)
        assert_no_crash(exported)
        if exported.exit_code == 1:  # refused with one clear line, nothing half-written
            assert exported.stderr.startswith("error: ") and exported.stderr.count("\n") == 1
            assert "damaged" in exported.stderr
            assert exported.stdout == ""


READERS = [
    ["memory", "get", "agent"],
    ["memory", "stats"],
    ["memory", "checkpoint"],
    ["memory", "history", "agent"],
    ["query", "match (?a ?p ?b)"],
    ["query", "recall agent"],
]


@pytest.mark.parametrize(("name", "sql"), PORTABLE + SQLITE_ONLY, ids=_ids(PORTABLE + SQLITE_ONLY))
def test_reading_commands_never_crash_on_a_hand_edit(db: Path, name: str, sql: str) -> None:
    """They answer, or say the store is damaged (one line, exit 1, pointing at `check`)."""
    edit_sqlite(db, sql)
    for command in READERS:
        result = runner.invoke(app, [*command, "--db", str(db)])
        assert_no_crash(result)
        if result.exit_code == 1 and "damaged" in result.stderr:
            assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr


def test_check_lists_a_seal_problem_only_when_no_row_explains_it(db: Path) -> None:
    edit_sqlite(db, PORTABLE[0][1])  # a concept's confidence raised: not derivable, the seal sees it
    checked = zero("check", db=db)
    assert "seal: concepts: 8 rows, but their contents differ" in checked.stdout
    edit_sqlite(db, PORTABLE[2][1])  # its label as well: now the row itself is reported
    checked = zero("check", db=db)
    assert "hash does not match its label 'agnet'" in checked.stdout
    assert "seal:" not in checked.stdout


def test_writes_keep_the_seals(db: Path, tmp_path: Path) -> None:
    """Ingesting more (new and merged rows), sweeping and importing leave a store that checks ok."""
    again = tmp_path / "again.json"
    again.write_text(EXAMPLE_INPUT.read_text(encoding="utf-8").replace("2026-02-1", "2026-03-1"), "utf-8")
    assert zero("ingest", str(again), db=db).exit_code == 0
    assert zero("sweep", "--min-confidence", "0.99", "--now", "2030-01-01T00:00:00Z", db=db).exit_code in (
        0,
        1,
    )
    assert zero("check", db=db).exit_code == 0, zero("check", db=db).output
    exported = zero("export", db=db)
    copy = tmp_path / "copy.db"
    imported = runner.invoke(app, ["memory", "import", "-", "--db", str(copy)], input=exported.stdout)
    assert imported.exit_code == 0, imported.output
    assert zero("check", db=copy).exit_code == 0, zero("check", db=copy).output


# ---- PostgreSQL: the contract suite's database, a space per test ----


@pytest.fixture
def pg_store(postgres_url: str) -> Iterator[tuple[MemoryStore, str]]:
    import secrets

    space = f"t-{secrets.token_hex(6)}"
    store = storage.open_store(postgres_url, space=space)
    example(store)
    yield store, postgres_url
    store.close()


@pytest.mark.parametrize(("name", "sql"), PORTABLE, ids=_ids(PORTABLE))
def test_check_sees_every_hand_edit_on_postgres(
    pg_store: tuple[MemoryStore, str], name: str, sql: str
) -> None:
    import psycopg

    store, url = pg_store
    assert store.check().ok
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("SET session_replication_role = replica")  # foreign keys off, as a hand edit may
        changed = connection.execute(sql.replace("{s}", store.space).replace("%", "%%")).rowcount
    assert changed > 0
    report = store.check()
    assert not report.ok, f"{name} went unseen"
    for form in (Format.COMPACT, Format.JSON):
        try:
            export(store, form)
        except ZeroError as error:
            assert "damaged" in str(error)


def test_a_store_from_before_seals_is_sealed_when_opened(db: Path) -> None:
    """A file from before the seals migration is sealed from its rows on first open; later edits then show."""
    before = 7  # the schema version just before seals existed (step 8 made them)
    connection = sqlite3.connect(db)
    connection.execute("DROP TABLE table_seals")
    connection.execute("DROP TABLE memory_index")  # later migrations: made again on open
    _before_periods(connection)
    connection.execute(f"PRAGMA user_version = {before}")
    before_words(connection)
    connection.commit()
    connection.close()
    assert zero("check", db=db).exit_code == 0
    edit_sqlite(db, PORTABLE[12][1])  # a context's agent_id: covered by the seal alone
    checked = zero("check", db=db)
    assert checked.exit_code == 1
    assert "seal: contexts: 3 rows, but their contents differ" in checked.stdout


def _before_periods(connection: sqlite3.Connection) -> None:
    """The tables as they were before step 13 (validity periods and declarations)."""
    connection.execute("DROP TABLE fact_periods")
    connection.execute("DROP TABLE declarations")
    connection.execute(
        "CREATE TABLE fact_times (space TEXT NOT NULL, fact_hash BLOB NOT NULL, valid_from TEXT,"
        " valid_to TEXT, retired_at TEXT, retired_by TEXT, PRIMARY KEY (space, fact_hash)) WITHOUT ROWID"
    )


HISTORY_EDITS = [
    ("fact-period-reopened", "UPDATE fact_periods SET valid_to = NULL, ended_by = NULL"),
    ("fact-event-detail", "UPDATE fact_events SET detail = 'nothing happened'"),
    ("space-log-subject", "UPDATE space_log SET subject = 'someone else'"),
    ("semantic-observations", "UPDATE semantic_facts SET observations = 99"),
    ("semantic-first-seen", "UPDATE semantic_facts SET first_seen = '1999-01-01T00:00:00.000Z'"),
    ("tombstone-payload", "UPDATE tombstones SET payload = '{}'"),
    ("tombstone-target", "UPDATE tombstones SET target = 'something else'"),
    ("semantic-source-deleted", "DELETE FROM semantic_sources"),
    ("forgotten-key-deleted", "DELETE FROM forgotten_keys"),  # would let the forgotten back in
]


@pytest.mark.parametrize(("name", "sql"), HISTORY_EDITS, ids=_ids(HISTORY_EDITS))
def test_check_sees_a_hand_edit_of_the_history_and_tiers(db: Path, name: str, sql: str) -> None:
    now = "2026-03-02T00:00:00Z"
    for command in (
        ["retract", "agent|needs|long-term-memory", "--now", now],
        ["consolidate", "--min-episodes", "1", "--now", "2026-02-20T00:00:00Z"],
        ["forget", "--fact", "short-term-memory|feeds|long-term-memory", "--now", now],
    ):
        done = zero(*command, db=db)
        assert done.exit_code == 0, done.output
    assert zero("check", db=db).exit_code == 0
    edit_sqlite(db, sql)
    checked = zero("check", db=db)
    assert_no_crash(checked)
    assert checked.exit_code == 1, f"{name} went unseen"


def _history(db: Path | str, *space: str) -> None:
    """Retract a fact, consolidate, forget a fact: every table of the second generation holds rows."""
    now = "2026-03-02T00:00:00Z"
    for command in (
        ["retract", "agent|needs|long-term-memory", "--now", now],
        ["consolidate", "--min-episodes", "1", "--now", "2026-02-20T00:00:00Z"],
        ["forget", "--fact", "short-term-memory|feeds|long-term-memory", "--now", now],
    ):
        done = runner.invoke(app, ["memory", *command, "--db", str(db), *space])
        assert done.exit_code == 0, done.output


DANGLING = [
    (
        "forgotten-key-tombstone",
        "UPDATE forgotten_keys SET tombstone = zeroblob(32) WHERE tombstone = (SELECT min(tombstone) FROM forgotten_keys)",
        "forgotten key",
        "tombstone",
    ),
    (
        "semantic-source-episode",
        "UPDATE semantic_sources SET episode_hash = zeroblob(32) WHERE episode_hash = (SELECT min(episode_hash) FROM semantic_sources)",
        "semantic source",
        "episode",
    ),
    (
        "semantic-source-fact",
        "UPDATE semantic_sources SET fact_hash = zeroblob(32) WHERE fact_hash = (SELECT min(fact_hash) FROM semantic_sources)",
        "semantic source",
        "semantic fact",
    ),
    (
        "semantic-fact",
        "UPDATE semantic_facts SET fact_hash = zeroblob(32) WHERE fact_hash = (SELECT min(fact_hash) FROM semantic_facts)",
        "semantic fact",
        "fact",
    ),
    (
        "fact-period",
        "UPDATE fact_periods SET fact_hash = zeroblob(32) WHERE fact_hash = (SELECT min(fact_hash) FROM fact_periods)",
        "fact period",
        "fact",
    ),
    (
        "fact-event",
        "UPDATE fact_events SET fact_hash = zeroblob(32) WHERE fact_hash = (SELECT min(fact_hash) FROM fact_events)",
        "fact event",
        "fact",
    ),
]


@pytest.mark.parametrize(("name", "sql", "kind", "target"), DANGLING, ids=[d[0] for d in DANGLING])
def test_check_resolves_the_references_of_the_history_and_tiers(
    db: Path, name: str, sql: str, kind: str, target: str
) -> None:
    """A row of the history, semantic memory or tombstones naming what the store does not hold is
    reported with what is missing (beside the seal it breaks)."""
    _history(db)
    edit_sqlite(db, sql)
    checked = zero("check", db=db)
    assert checked.exit_code == 1
    assert f"its {target} {'0' * 12}" in checked.stdout and kind in checked.stdout, checked.stdout


def test_restore_and_purge_keep_the_seals(db: Path) -> None:
    _history(db)
    for command in (
        ["restore", "short-term-memory|feeds|long-term-memory", "--now", "2026-03-03T00:00:00Z"],
        ["forget", "agent", "--now", "2026-03-04T00:00:00Z"],
        ["purge", "agent", "--now", "2026-03-05T00:00:00Z"],
    ):
        done = zero(*command, db=db)
        assert done.exit_code == 0, done.output
        checked = zero("check", db=db)
        assert checked.exit_code == 0, (command, checked.output)
    edit_sqlite(db, "UPDATE tombstones SET purged_at = NULL WHERE purged_at IS NOT NULL")
    assert "seal: tombstones" in zero("check", db=db).stdout


def test_a_deleted_marker_is_reported_not_resealed(db: Path) -> None:
    """Opening a store never reseals it because a marker row is missing: `check` says so instead."""
    _history(db)
    edit_sqlite(db, "DELETE FROM table_seals WHERE space = '' AND tbl = '*sealed:2*'")
    edit_sqlite(db, "UPDATE fact_events SET detail = 'nothing happened'")
    for _ in range(2):  # the first open did not seal the edit in
        checked = zero("check", db=db)
        assert checked.exit_code == 1
        assert "the marker row '*sealed:2*'" in checked.stdout
        assert "seal: fact_events:" in checked.stdout and "contents differ" in checked.stdout


def test_a_store_from_before_the_second_seals_is_sealed_when_opened(db: Path) -> None:
    """A file whose first-generation tables are sealed gets the history, log, semantic memory and
    tombstones sealed from their rows on first open; later edits there then show."""
    from zerolang.knowledge.integrity import GENERATIONS

    _history(db)
    connection = sqlite3.connect(db)
    tables = (*GENERATIONS[1][1], GENERATIONS[1][0])
    connection.execute(f"DELETE FROM table_seals WHERE tbl IN ({', '.join('?' * len(tables))})", tables)
    connection.execute("PRAGMA user_version = 10")  # step 11 made the second generation
    _before_periods(connection)
    before_words(connection)
    connection.commit()
    connection.close()
    checked = zero("check", db=db)
    assert checked.exit_code == 0, checked.output
    edit_sqlite(db, "UPDATE space_log SET detail = 'nothing'")
    checked = zero("check", db=db)
    assert checked.exit_code == 1
    assert "seal: space_log:" in checked.stdout


@pytest.mark.parametrize(("name", "sql"), HISTORY_EDITS, ids=_ids(HISTORY_EDITS))
def test_check_sees_a_hand_edit_of_the_history_and_tiers_on_postgres(
    pg_store: tuple[MemoryStore, str], name: str, sql: str
) -> None:
    import psycopg

    store, url = pg_store
    _history(url, "--space", store.space)
    assert store.check().ok, store.check().problems
    with psycopg.connect(url, autocommit=True) as connection:
        changed = connection.execute(
            sql.replace("'someone else'", "'\\x00'::bytea") + " WHERE space = %s", [store.space]
        ).rowcount
    assert changed > 0
    assert not store.check().ok, f"{name} went unseen"
