"""What only PostgreSQL does: row-level security per role, schema versions, connection errors."""

from __future__ import annotations

import secrets
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from tests.storage.contract.helpers import as_role, make_input
from zerolang import storage
from zerolang.cli.app import app
from zerolang.memory import ingest
from zerolang.util.errors import ZeroError

runner = CliRunner()


def test_row_level_security_keeps_each_role_in_its_space(postgres_url: str, roles: tuple[str, str]) -> None:
    a, b = roles
    with storage.open_store(postgres_url, space=f"{a}-space") as store:
        ingest(store, [make_input(("secret", "of", "alice", 0.9))])
    with storage.open_store(postgres_url, space=f"{b}-space") as store:
        ingest(store, [make_input(("secret", "of", "bob", 0.9))])
    for role in roles:
        granted = runner.invoke(
            app, ["memory", "grant", role, "--db", postgres_url, "--space", f"{role}-space"]
        )
        assert granted.exit_code == 0, granted.output
    with psycopg.connect(as_role(postgres_url, a)) as connection:
        spaces = {
            row[0] for row in connection.execute("SELECT space FROM facts UNION SELECT space FROM concepts")
        }
        assert spaces == {f"{a}-space"}
        labels = {row[0] for row in connection.execute("SELECT label FROM concepts")}
        assert labels == {"secret", "alice"}
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute(
                "INSERT INTO contexts (space, hash, event_time, source, scope, created_at)"
                " VALUES (%s, %s, 'x', 'y', 'z', 'now')",
                (f"{b}-space", b"\x00" * 32),
            )
    with storage.open_store(as_role(postgres_url, a), space=f"{b}-space") as sneaky:
        assert sneaky.counts().to_json() == {"concepts": 0, "facts": 0, "episodes": 0, "contexts": 0}
        assert sneaky.get_concept_by_label("bob") is None
    with storage.open_store(as_role(postgres_url, b), space=f"{b}-space") as own:
        assert own.counts().facts == 1 and own.check().ok
        ingest(own, [make_input(("bob", "writes", "here", 0.5), scope="own")])
        assert own.counts().facts == 2
        # COPY cannot write under row-level security: this role's rows went through the staging
        # tables and an INSERT ... SELECT that the policies check; the owner copies straight in.
        assert own.backend._copies_into_tables() is False  # type: ignore[attr-defined]
    with storage.open_store(postgres_url, space=f"{b}-space") as owner:
        assert owner.backend._copies_into_tables() is True  # type: ignore[attr-defined]
        assert owner.counts().facts == 2 and owner.check().ok


def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    storage.open_store(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        (version,) = admin.execute("SELECT version FROM zero_schema_version").fetchone()  # type: ignore[misc]
        admin.execute("UPDATE zero_schema_version SET version = 99")
        try:
            with pytest.raises(ZeroError, match=r"made by a newer zerolang \(schema 99, this one reads"):
                storage.open_store(postgres_url).close()
        finally:
            admin.execute("UPDATE zero_schema_version SET version = %s", (version,))


def test_an_empty_database_is_not_opened_for_reading(postgres_url: str) -> None:
    name = f"zt_backend_empty_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = postgres_url.rpartition("/")[0] + f"/{name}"
    try:
        result = runner.invoke(app, ["memory", "stats", "--db", url])
        assert result.exit_code == 1
        assert "no memory store in this database" in result.stderr
        bad = runner.invoke(
            app, ["query", "recall x", "--db", url.rpartition("/")[0] + "/zt_no_such_db_here"]
        )
        assert bad.exit_code == 1 and "cannot connect to PostgreSQL" in bad.stderr
        assert "Traceback" not in bad.output
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_write_row_level_security_refuses_is_one_line(
    postgres_url: str, roles: tuple[str, str], tmp_path: Path
) -> None:
    """A role writing a space it was not granted: one line on stderr, no driver echo (`psycopg.Pipeline`),
    no traceback, and nothing written; small and large batches alike."""
    import json

    a, _ = roles
    granted = runner.invoke(app, ["memory", "grant", a, "--db", postgres_url, "--space", f"{a}-space"])
    assert granted.exit_code == 0, granted.output
    for count in (2, 600):
        records = [
            {
                "tuples": [{"subject": f"s{n}", "predicate": "p", "object": f"o{n}", "confidence": 0.5}],
                "context": {"event_time": "2026-01-01T00:00:00Z", "source": "x", "scope": "y"},
            }
            for n in range(count)
        ]
        path = tmp_path / f"{count}.json"
        path.write_text(json.dumps(records))
        at = ["--db", as_role(postgres_url, a), "--space", f"{a}-other"]
        result = subprocess.run(  # a process of its own: logging as a user's shell has it (no pytest)
            [sys.executable, "-m", "zerolang", "memory", "ingest", str(path), *at],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 1
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith("error: ") and "row-level security" in result.stderr
        assert "Pipeline" not in result.stderr and "Traceback" not in result.stderr
    with storage.open_store(postgres_url, space=f"{a}-other") as owner:
        assert owner.counts().episodes == 0


def test_the_driver_does_not_echo_an_error_a_pipeline_already_raised(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """psycopg logs a second error ending a pipeline that failed (`error ignored terminating
    <psycopg.Pipeline ...>`); the first error is raised, and is what a command reports."""
    from zerolang.storage.postgres.connection import connect

    with (
        connect(postgres_url) as connection,
        caplog.at_level("WARNING"),
        pytest.raises(ValueError),
        connection.transaction(),
        connection.pipeline(),
    ):
        connection.execute("SELECT 1/0")
        raise ValueError("raised in the block, as a write's own error is")
    assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")] == []
