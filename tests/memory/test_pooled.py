"""Issue 42, point 4: a memory works behind pgbouncer in transaction pooling mode, where each
transaction may run on another server connection (`tests/pooler.py` hands them out in turn): the
commands ingest, recall, query, forget with `--purge`, and a tenant role granted one space, all
through the pooler, with nothing kept on a server connection between two transactions.
"""

from __future__ import annotations

import json
import secrets
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from typer.testing import CliRunner

from tests.backends import scratch
from tests.pooler import pgbouncer
from tests.storage.contract.helpers import as_role
from zerolang.cli.app import app

SECRET = "Zelda Quux"


@pytest.fixture(scope="module")
def pooled() -> Iterator[tuple[str, str]]:
    """A scratch database, directly and through pgbouncer."""
    with scratch() as direct:
        if "options=" in direct:
            pytest.skip("pgbouncer passes no startup options: the scratch schema needs a database of its own")
        with pgbouncer(direct) as through:
            yield direct, through


def zero(*arguments: str) -> str:
    result = CliRunner().invoke(app, list(arguments), env={"ZERO_MEMORY_SPACE": "", "ZERO_EXPERIENCE_DB": ""})
    assert result.exit_code == 0, result.output
    return result.output


def dump(direct: str) -> bytes:
    name = urlsplit(direct).path.lstrip("/")
    found = subprocess.run(
        ["pg_dump", "-h", "127.0.0.1", "-U", "postgres", name], capture_output=True, check=True
    )
    return found.stdout


def test_the_pooler_hands_one_client_s_transactions_to_several_server_connections(
    pooled: tuple[str, str],
) -> None:
    """What makes the tests below mean something: session state would not follow a client."""
    _, db = pooled
    with psycopg.connect(db, autocommit=True, prepare_threshold=None) as client:
        servers = {client.execute("SELECT pg_backend_pid()").fetchone() for _ in range(12)}
        client.execute("SET work_mem = '1234kB'")
        seen = {client.execute("SELECT current_setting('work_mem')").fetchone() for _ in range(12)}
    assert len(servers) > 1
    assert len(seen) > 1  # a session's SET reached some server connections, not others


def test_a_connection_tells_a_pooler_from_the_server(pooled: tuple[str, str]) -> None:
    """Through the pooler nothing is prepared (a statement prepared on one server connection is not on
    the next); directly, what runs often is."""
    from zerolang.storage.postgres.connection import connect
    from zerolang.storage.postgres.connection import pooled as is_pooled

    direct, db = pooled
    for url, expected in ((db, True), (direct, False)):
        with connect(url) as connection:
            assert is_pooled(connection) is expected
            assert (connection.prepare_threshold is None) is expected


def test_a_memory_ingests_recalls_and_purges_through_pgbouncer(
    pooled: tuple[str, str], tmp_path: Path
) -> None:
    direct, db = pooled
    chat = tmp_path / "chat.json"
    chat.write_text(
        json.dumps(
            [
                {"role": "user", "content": f"{SECRET} told me the vault code is 7788"},
                {"role": "assistant", "content": "Noted."},
            ]
        )
    )
    zero("remember", SECRET, "works_at", "Acme", "--db", db)
    for round_ in range(3):  # the same facts again: updates, through the transaction's own functions
        zero("remember", "Mo", "likes", "chess", "--db", db)
        zero("remember", "Mo", "plays", f"game {round_}", "--db", db)
    zero("convo", "store", "coder", str(chat), "--db", db)
    assert "mo likes chess" in zero("recall", "What does Mo like?", "--db", db)
    assert "chess" in zero("query", "recall Mo", "--db", db)
    out = zero("memory", "forget", SECRET, "--purge", "--db", db)
    assert "erased:" in out, out
    assert b"zelda" not in dump(direct).lower()
    assert "chess" in zero("query", "recall Mo", "--db", db)
    assert "problems" not in zero("memory", "check", "--db", db)


def test_a_tenant_role_works_in_its_own_space_through_pgbouncer(pooled: tuple[str, str]) -> None:
    direct, db = pooled
    role = f"zt_pooled_{secrets.token_hex(4)}"
    with psycopg.connect(direct, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        zero("remember", "Owner", "keeps", "ledger", "--db", db)  # the owner's default space
        zero("memory", "grant", role, "--db", db, "--space", "tenant")
        tenant = as_role(db, role)
        zero("remember", "Ann", "likes", "tea", "--db", tenant, "--space", "tenant")
        zero("remember", "Ann", "likes", "tea", "--db", tenant, "--space", "tenant")  # an update
        assert "tea" in zero("query", "recall Ann", "--db", tenant, "--space", "tenant")
        assert "ledger" not in zero("memory", "export", "--db", tenant, "--space", "tenant")
        zero("memory", "forget", "Ann", "--db", tenant, "--space", "tenant")
        gone = CliRunner().invoke(app, ["query", "recall Ann", "--db", tenant, "--space", "tenant"])
        assert gone.exit_code == 1 and "no concept 'Ann'" in gone.output, gone.output
    finally:
        with psycopg.connect(direct, autocommit=True) as admin:
            admin.execute(f'DROP OWNED BY "{role}"')
            admin.execute(f'DROP ROLE "{role}"')


def test_an_experience_schema_of_its_own_is_refused_through_the_pooler(pooled: tuple[str, str]) -> None:
    """A schema other than the server's default needs a session's search_path: through a pooler, one
    line saying so rather than tables found on one server connection and missed on the next."""
    from zerolang.storage.errors import StorageError
    from zerolang.storage.postgres.experience import PostgresExperienceStore

    _, db = pooled
    with pytest.raises(StorageError) as refused:
        PostgresExperienceStore(db, schema="zt_pooled_schema")
    said = str(refused.value)
    assert "search_path" in said and "pooler" in said and "\n" not in said
    PostgresExperienceStore(db).close()  # the memory's own schema, `public`, needs no setting
