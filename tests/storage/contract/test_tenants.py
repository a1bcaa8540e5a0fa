"""PostgreSQL tenants cannot harm each other: a role granted one space, doing its worst inside an open
transaction, neither damages, blocks nor reads another space (issue 28, point 1).

`bob` runs every statement a hostile tenant would try: each is refused, or does nothing to
`alice`'s space; while his transaction (holding whatever he could take) stays open, `alice`
checks, ingests, counts, recalls and forgets in her space with a short lock and statement
timeout, and every one succeeds; the owner's `check` of both spaces passes afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from tests.backends import restored
from tests.storage.contract.helpers import ROOT, as_role, make_input
from zerolang import storage
from zerolang.cli.app import app
from zerolang.memory import ingest
from zerolang.storage.schema import space_tables
from zerolang.util.errors import ZeroError

runner = CliRunner()
TIMEOUTS = "options=-c%20lock_timeout%3D5000%20-c%20statement_timeout%3D30000"
SHARED = ("zero_space_grants", "zero_schema_version")  # the tables beside the space tables
FIXTURES = ROOT / "tests" / "fixtures" / "stores"


@dataclass(slots=True)
class Tenants:
    url: str  # the owner's
    alice: str  # roles; each one's space is its name with "-space"
    bob: str

    def space(self, role: str) -> str:
        return f"{role}-space"

    def login(self, role: str) -> str:
        joiner = "&" if "?" in self.url else "?"
        return f"{as_role(self.url, role)}{joiner}{TIMEOUTS}"


@dataclass(slots=True)
class Hostile:
    """Bob's one open transaction: statements refused (each in a savepoint) or let through."""

    connection: psycopg.Connection[Any]
    refused: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)

    def refuses(self, sql: str, *errors: type[psycopg.Error]) -> None:
        kinds = errors or (psycopg.errors.InsufficientPrivilege,)
        with pytest.raises(kinds), self.connection.transaction():
            self.connection.execute(sql)
        self.refused.append(sql)

    def runs(self, sql: str) -> list[tuple[Any, ...]]:
        with self.connection.transaction():  # a savepoint that keeps what it took until the end
            cursor = self.connection.execute(sql)
            rows = cursor.fetchall() if cursor.description else []
        self.allowed.append(sql)
        return rows


@pytest.fixture
def tenants(postgres_url: str, roles: tuple[str, str]) -> Tenants:
    alice, bob = roles
    found = Tenants(postgres_url, alice, bob)
    for role in roles:
        granted = runner.invoke(
            app, ["memory", "grant", role, "--db", postgres_url, "--space", found.space(role)]
        )
        assert granted.exit_code == 0, granted.output
        with storage.open_store(found.login(role), space=found.space(role)) as own:
            ingest(own, [make_input((f"{role} secret", "is", "kept", 0.9))])
    return found


@pytest.fixture
def hostile(tenants: Tenants) -> Iterator[Hostile]:
    with psycopg.connect(tenants.login(tenants.bob)) as connection:
        yield Hostile(connection)


def zero(tenants: Tenants, role: str, *arguments: str) -> str:
    result = runner.invoke(
        app,
        [*arguments, "--db", tenants.login(role), "--space", tenants.space(role)],
        env={"ZERO_MEMORY_LOCK_TIMEOUT": "5"},
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def alice_is_unaffected(tenants: Tenants, round: int) -> None:
    """Alice's check, ingest, stats, recall and forget, each within the timeouts."""
    alice = tenants.alice
    assert "problems" not in zero(tenants, alice, "memory", "check")
    with storage.open_store(tenants.login(alice), space=tenants.space(alice)) as store:
        ingest(store, [make_input((f"ann{round}", "likes", "tea", 0.8))])
        assert store.check().ok
    assert "facts     2" in zero(tenants, alice, "memory", "stats")
    assert f"ann{round}" in zero(tenants, alice, "query", f"recall ann{round}")
    zero(tenants, alice, "memory", "forget", f"ann{round}")
    assert "facts     1" in zero(tenants, alice, "memory", "stats")


def test_a_tenant_can_neither_damage_nor_block_nor_read_another_space(
    tenants: Tenants, hostile: Hostile
) -> None:
    alice, bob = tenants.space(tenants.alice), tenants.space(tenants.bob)
    marker = "'*pending:9*', 0, '" + "0" * 64 + "'"
    # the shared marker rows: readable, never written
    assert hostile.runs("SELECT count(*) FROM table_seals WHERE space = ''")[0][0] >= 4
    hostile.refuses("DELETE FROM table_seals WHERE space = ''")
    hostile.refuses("TRUNCATE table_seals")
    hostile.refuses(f"INSERT INTO table_seals VALUES ('', {marker})")
    assert hostile.runs("UPDATE table_seals SET row_count = 0 WHERE space = '' RETURNING 1") == []
    assert hostile.runs(f"UPDATE table_seals SET row_count = 0 WHERE space = '{alice}' RETURNING 1") == []
    # the shared sequences: no number ahead of them, no setting them
    log = "INSERT INTO space_log (seq, space, at, kind, subject) SELECT nextval(pg_get_serial_sequence"
    hostile.refuses(f"{log}('space_log', 'seq')) + 1, '{bob}', 'x', 'x', '\\x00'::bytea")
    hostile.refuses(f"UPDATE space_log SET seq = seq + 1000 WHERE space = '{bob}'")
    hostile.refuses("SELECT setval(pg_get_serial_sequence('space_log', 'seq'), 1000000000)")
    # bob's own rows, written and locked (as a writer of his space holds them)
    hostile.runs(
        f"INSERT INTO space_log (space, at, kind, subject) VALUES ('{bob}', 'x', 'x', '\\x00'::bytea)"
    )
    hostile.runs(f"SELECT * FROM zero_spaces WHERE space = '{bob}' FOR UPDATE")
    # no lock on a shared table beyond a reader's; the old advisory locks lock nothing now
    for table in (*space_tables("postgresql"), *SHARED):
        for mode in ("ROW EXCLUSIVE", "SHARE", "EXCLUSIVE", "ACCESS EXCLUSIVE"):
            hostile.refuses(f"LOCK TABLE {table} IN {mode} MODE")
        hostile.runs(f"LOCK TABLE {table} IN ACCESS SHARE MODE")
    hostile.runs(f"SELECT pg_advisory_lock(23117, hashtext('{alice}'))")
    hostile.runs("SELECT pg_advisory_lock(1515014471)")
    # another space's row: invisible, so neither lockable nor writable
    assert hostile.runs(f"SELECT * FROM zero_spaces WHERE space = '{alice}' FOR UPDATE") == []
    hostile.refuses(f"INSERT INTO zero_spaces VALUES ('{alice}')")
    # the grants: his own only, and not his to write
    assert hostile.runs("SELECT role_name, space FROM zero_space_grants") == [(tenants.bob, bob)]
    hostile.refuses(f"INSERT INTO zero_space_grants VALUES (session_user, '{alice}')")
    # deletes only through zero_delete, which checks the caller's grant, whatever it shadows
    hostile.refuses(f"DELETE FROM facts WHERE space = '{bob}'")
    hostile.refuses(f"SELECT zero_delete('facts', '{alice}', NULL, '{{}}'::text[])")
    hostile.runs("CREATE TEMPORARY TABLE zero_space_grants (role_name text, space text)")
    hostile.runs(f"INSERT INTO pg_temp.zero_space_grants VALUES (session_user, '{alice}')")
    hostile.refuses(f"SELECT zero_delete('facts', '{alice}', NULL, '{{}}'::text[])")
    hostile.refuses(f"SELECT zero_delete('zero_space_grants', '{bob}', NULL, '{{}}'::text[])")
    hostile.refuses(f"SELECT zero_tenant_privileges('{tenants.bob}')")
    # row-level security stays on, and no other role can be taken
    hostile.refuses("SET row_security = off; SELECT * FROM concepts")
    hostile.refuses(f'SET ROLE "{tenants.alice}"')
    hostile.refuses("ALTER TABLE facts DISABLE ROW LEVEL SECURITY", psycopg.errors.InsufficientPrivilege)
    hostile.refuses(
        "CREATE TRIGGER t BEFORE INSERT ON facts FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger()"
    )
    # a leaky function sees only the rows his policies admit
    seen: list[str] = []
    hostile.connection.add_notice_handler(lambda notice: seen.append(str(notice.message_primary)))
    hostile.runs(
        "CREATE FUNCTION pg_temp.leak(text) RETURNS boolean LANGUAGE plpgsql COST 0.0000001 AS"
        " $$ BEGIN RAISE NOTICE 'saw %', $1; RETURN true; END $$"
    )
    hostile.runs("SELECT label FROM concepts WHERE pg_temp.leak(label)")
    assert seen and not any(tenants.alice in text for text in seen), seen
    assert {row[0] for row in hostile.runs("SELECT DISTINCT space FROM facts")} == {bob}

    alice_is_unaffected(tenants, 1)  # bob's transaction still open, holding all he could take
    hostile.connection.commit()
    alice_is_unaffected(tenants, 2)
    with storage.open_store(tenants.url, space=alice) as owner:
        assert owner.check().ok
    with storage.open_store(tenants.url, space=bob) as owner:  # what bob wrote by hand is his own damage
        assert {problem.kind for problem in owner.check().problems} == {"log entry"}
    assert len(hostile.refused) > 4 * len(space_tables("postgresql")) and len(hostile.allowed) > 20


@pytest.mark.parametrize("privilege", ["INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"])
def test_a_tenant_holds_no_table_level_write_privilege(tenants: Tenants, privilege: str) -> None:
    """PostgreSQL lets a role lock a table above `ACCESS SHARE` only with one of these."""
    with psycopg.connect(tenants.url) as admin:
        held = admin.execute(
            "SELECT t FROM unnest(%s::text[]) AS t WHERE has_table_privilege(%s, t, %s)",
            ([*space_tables("postgresql"), *SHARED], tenants.bob, privilege),
        ).fetchall()
    assert held == []


def test_a_write_waits_for_its_own_space_only(tenants: Tenants) -> None:
    """A writer of bob's space holds bob's row; alice's writer does not wait for it, bob's does."""
    with psycopg.connect(tenants.login(tenants.bob)) as writer:
        writer.execute("SELECT 1 FROM zero_spaces WHERE space = %s FOR UPDATE", (tenants.space(tenants.bob),))
        with storage.open_store(tenants.login(tenants.alice), space=tenants.space(tenants.alice)) as store:
            ingest(store, [make_input(("alice", "writes", "freely", 0.5))])
        result = runner.invoke(
            app,
            [
                "memory",
                "forget",
                "kept",
                "--db",
                tenants.login(tenants.bob),
                "--space",
                tenants.space(tenants.bob),
            ],
            env={"ZERO_MEMORY_LOCK_TIMEOUT": "1"},
        )
        assert result.exit_code == 1 and "another process has held a write transaction" in result.output


@pytest.mark.slow
def test_a_role_granted_before_tenants_were_kept_apart_loses_what_it_no_longer_needs(
    roles: tuple[str, str],
) -> None:
    """A store from before schema step 16, with a role granted the way that release did: the role
    cannot open it until its owner has (the owner migrates it); then it holds only a tenant's
    privileges, and still ingests, forgets and checks its space."""
    role, _ = roles
    with restored(FIXTURES / "main-2026-11-28.pg.sql") as url:
        with psycopg.connect(url, autocommit=True) as admin:
            for statement in (
                'GRANT USAGE ON SCHEMA public TO "{0}"',
                'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "{0}"',
                'REVOKE INSERT, UPDATE, DELETE ON zero_space_grants, zero_schema_version FROM "{0}"',
                'GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO "{0}"',
                "INSERT INTO zero_space_grants VALUES ('{0}', 'other')",
            ):
                admin.execute(statement.format(role).encode())
        tenant = as_role(url, role)
        with pytest.raises(ZeroError, match="its owner must open it once to bring it up to date"):
            storage.open_store(tenant, space="other", create=False)
        storage.open_store(url, create=False).close()
        with psycopg.connect(url) as admin:
            assert admin.execute(
                "SELECT has_table_privilege(%s, 'facts', 'DELETE'), has_table_privilege(%s, 'facts', 'SELECT')",
                (role, role),
            ).fetchone() == (False, True)
        with storage.open_store(tenant, space="other", create=False) as store:
            assert store.check().ok
            ingest(store, [make_input(("zed", "likes", "jam", 0.5))])
        forgot = runner.invoke(app, ["memory", "forget", "zed", "--db", tenant, "--space", "other"])
        assert forgot.exit_code == 0, forgot.output
        with storage.open_store(url, space="other", create=False) as owner:
            assert owner.check().ok and owner.get_concept_by_label("zed") is None


QUICK = "options=-c%20lock_timeout%3D1000"  # alice waits at most 1 s for any lock: longer fails her


def _quick(tenants: Tenants, role: str) -> str:
    joiner = "&" if "?" in tenants.url else "?"
    return f"{as_role(tenants.url, role)}{joiner}{QUICK}"


@pytest.mark.slow
@pytest.mark.parametrize("step", ["whole-store writes", "a migration"])
def test_no_tenant_waits_behind_the_owner_for_another_tenant(
    tenants: Tenants, step: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40, point 5. Bob holds his space's row `FOR UPDATE` (and the schema version, read) and
    stays idle. The owner's whole-store step (a purge with an archive locks `zero_spaces` against every
    writer; a migration locks `zero_schema_version`) keeps trying without joining PostgreSQL's lock
    queue, so alice's ingest, which waits at most 1 s for any lock, goes through meanwhile; the owner
    gives up with one clear line when its own wait runs out. Before, the owner's queued lock held
    alice behind it for its whole 60 s."""
    import threading

    from zerolang.storage.errors import StoreBusy

    monkeypatch.setenv("ZERO_MEMORY_LOCK_TIMEOUT", "4")
    started, outcome = threading.Event(), []

    def owner() -> None:
        with storage.open_store(tenants.url, space=tenants.space(tenants.alice)) as store:
            backend: Any = store.backend
            try:
                with backend.transaction():
                    started.set()
                    if step == "a migration":
                        backend._lock_version(16)
                    else:
                        backend.exclude_writers()
                outcome.append("locked")
            except StoreBusy as error:
                outcome.append(str(error))

    with psycopg.connect(tenants.login(tenants.bob)) as bob:
        bob.execute("SELECT 1 FROM zero_spaces WHERE space = %s FOR UPDATE", (tenants.space(tenants.bob),))
        bob.execute("SELECT version FROM zero_schema_version").fetchall()
        thread = threading.Thread(target=owner)
        thread.start()
        started.wait(30)
        for round in range(3):  # while the owner keeps trying
            with storage.open_store(
                _quick(tenants, tenants.alice), space=tenants.space(tenants.alice)
            ) as own:
                ingest(own, [make_input((f"ann{round}", "likes", "tea", 0.8))])
                assert own.check().ok
        thread.join(60)
        assert len(outcome) == 1 and "another process has held a write transaction for over 4 s" in outcome[0]
    with storage.open_store(tenants.url, space=tenants.space(tenants.alice)) as store:
        assert store.check().ok
        assert store.counts().facts == 4
