"""`PostgresBackend`: the shared SQL on a psycopg 3 connection.

Writers to one space are serialised by a lock on the space's own row of
`zero_spaces` (row-level security keeps every other role from it), taken
before the batch reads anything, so the merge plan is computed on the state
it is applied to: concurrent ingests of overlapping inputs end exactly where
one serial ingest does. A writer waits for the lock up to `lock_timeout()`
(60 s, or `$ZERO_MEMORY_LOCK_TIMEOUT`), then says so. Inserts are still
`ON CONFLICT`-safe, and readers never wait. A BFS frontier is one query
(`= ANY(array)` on both fact ends), whatever its width.

A role granted spaces (a tenant, `grant_space`) shares no writable state with
the others (`zerolang.storage.schema.tenants`): it deletes through
`zero_delete`, and leaves what concerns the whole store to the owner.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

from zerolang.knowledge import merge
from zerolang.knowledge.backend import RecallInputs
from zerolang.knowledge.integrity import change
from zerolang.knowledge.overlap import ENGINE
from zerolang.storage.errors import StorageError, translating
from zerolang.storage.locks import lock_timeout, lock_timeout_error, waiting
from zerolang.storage.postgres.connection import connect, plan_each_execution
from zerolang.storage.postgres.replicas import replicas_of, wrote
from zerolang.storage.postgres.statements import PsycopgStatements
from zerolang.storage.postgres.words import PostgresWords
from zerolang.storage.schema import CONVERSATIONS, EXPERIENCES, Plan, plan, space_tables
from zerolang.storage.sql.alongside import Alongside
from zerolang.storage.sql.backend import SqlBackend
from zerolang.storage.sql.records import EPISODES_SELECT, episodes_in_order
from zerolang.storage.sql.traversal import ENDS_SELECT, ends_of, most_confident
from zerolang.util.locations import display
from zerolang.util.spaces import DEFAULT_SPACE, check_space

if TYPE_CHECKING:
    import psycopg

    from zerolang.storage.postgres.replicas import Replicas

# A bulk load that adds this share of the episodes the planner believes the table holds (or any
# to a table never analysed) refreshes the statistics (`refresh_statistics`) rather than waiting for
# autovacuum: plans costed for an empty table made recall 2-3x slower after a first big ingest.
STALE_SHARE = 0.1
STATISTICS_TARGET = 10  # the sample of that refresh: 300 rows per unit of target

_STEP_LOCK_MS = 50  # how long a migration's statement waits for a table's lock before it tries again
_CREATE_LOCK = 0x5A4D4947  # a transaction's advisory lock, taken only while a database has no store yet
_ARRAYS = {bytes: "bytea[]", str: "text[]", int: "int8[]"}  # `zero_delete`'s keys, by their type


@translating
class PostgresBackend(PsycopgStatements, SqlBackend, PostgresWords):
    __slots__ = ("_bound", "_location", "_owner", "_replicas", "_space", "_sql", "connection")

    kind = "postgres"
    greatest = "greatest"
    code_points = '"C"'

    def __init__(
        self,
        connection: psycopg.Connection[Any],
        location: str,
        space: str,
        owner: bool,
        replicas: Replicas | None = None,
    ) -> None:
        self.connection = connection
        self._replicas = replicas  # the hot standbys reads may go to ($ZERO_MEMORY_READ_DB)
        self._location = location
        self._space = space
        self._owner = owner
        self._sql: dict[str, str] = {}
        self._bound: bool | None = None  # whether row-level security binds the role (`bound`)

    @classmethod
    def connect(cls, url: str, *, space: str = DEFAULT_SPACE, create: bool = True) -> PostgresBackend:
        connection = connect(url)  # psycopg is importable from here on
        import psycopg

        backend = cls(connection, display(url), space, True)
        backend._set_up(lambda: backend._setup(create), psycopg.Error, "cannot use this database")
        backend._replicas = replicas_of(connection, url)
        return backend

    def _setup(self, create: bool) -> None:
        """Create the store, or take the steps an older one needs, in one transaction; a store at the
        latest schema is opened without a lock any other role could hold."""
        plan_each_execution(self.connection)  # psycopg prepares a query it runs often
        with self.connection.transaction():
            version = self._stored_version()
        if version is not None and not _work(plan("postgresql", version, location=self._location)):
            return
        if version is None and not create:
            raise StorageError(f"{self._location}: no memory store in this database (ingest something first)")
        self._migrate()
        wrote()  # a standby serves this store's reads once it has replayed its tables

    def _migrate(self) -> None:
        """A new schema, or every step an older store needs, in this one transaction: the stored version
        goes from what it was to the latest at once (`zerolang.storage.schema`). A step's statement
        waits for a table's lock at most `_STEP_LOCK_MS` (a lock waited for longer would hold every
        tenant behind it): then the transaction is tried again after a pause, up to `lock_timeout()`."""
        self._without_queueing(self._migrate_once)

    def _migrate_once(self) -> None:
        db = self.connection
        with db.transaction():
            version = self._stored_version()
            if version is None:  # creators take turns: the next one, let in, sees the tables
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_CREATE_LOCK,))
                version = self._stored_version()
            if version is None:
                db.execute("CREATE TABLE zero_schema_version (version INTEGER NOT NULL)")
                db.execute("INSERT INTO zero_schema_version VALUES (0)")
                version = 0
            elif _work(plan("postgresql", version, location=self._location)):
                # its owner migrates it: every other opener waits at its first read until this commits
                self._lock_version(version)
                version = self._stored_version() or 0
            needs = plan("postgresql", version, location=self._location)
            statements = needs.create or tuple(s for _, step in needs.steps for s in step)
            db.execute(f"SET LOCAL lock_timeout = {_STEP_LOCK_MS}")
            for statement in statements:
                db.execute(statement)
            db.execute("SET LOCAL lock_timeout = 0")
            if version != needs.latest:
                db.execute("UPDATE zero_schema_version SET version = %s", (needs.latest,))

    def _stored_version(self) -> int | None:
        """The schema version the store records; None where the database holds no store."""
        # the catalog read as a table, with this statement's snapshot: `to_regclass` answers from the
        # backend's cache, which a creator that committed while this transaction waited for its lock
        # has not reached yet (it said "no table", and the CREATE then met the one just made)
        row = self.connection.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n"
            " ON n.oid = c.relnamespace WHERE c.relname = 'zero_schema_version'"
            " AND n.nspname = ANY (current_schemas(false)))"
        ).fetchone()
        if row is None or not row[0]:
            return None
        found = self.connection.execute("SELECT version FROM zero_schema_version").fetchone()
        return 0 if found is None else int(found[0])

    def _lock_version(self, version: int) -> None:
        """Hold every other opener off while this one migrates: only the store's owner can."""
        import psycopg

        try:
            self._lock_table("zero_schema_version", "ACCESS EXCLUSIVE", "the readers of the schema version")
        except psycopg.errors.InsufficientPrivilege:
            raise StorageError(
                f"{self._location}: the store is at schema {version}; its owner must open it once to"
                " bring it up to date"
            ) from None

    # ---- the MemoryBackend lifetime ---------------------------------------------------------

    @property
    def schema_version(self) -> int:
        row = self.connection.execute("SELECT version FROM zero_schema_version").fetchone()
        return 0 if row is None else int(row[0])

    def in_space(self, space: str) -> PostgresBackend:
        return PostgresBackend(self.connection, self._location, check_space(space), False, self._replicas)

    def close(self) -> None:
        if self._owner:
            if self._replicas is not None:
                self._replicas.close()
            self.connection.close()

    def serving(self) -> None:
        """Nothing to tune: the server's own background writer checkpoints."""

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A transaction on the primary; once the outermost commits, the process's next reads wait for
        a standby to replay it (`wrote`)."""
        with self.connection.transaction():
            yield
        if self.connection.info.transaction_status == 0:
            wrote()

    def whole(self) -> AbstractContextManager[None]:
        """A write transaction (`Lifetime.whole`); here those opened inside keep their savepoints."""
        return self.transaction()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """A `REPEATABLE READ` transaction: every read inside sees the snapshot of its first one,
        whatever writers commit meanwhile (and no writer waits for it)."""
        if self.connection.info.transaction_status != 0:  # inside a transaction: that one
            yield
            return
        with self.connection.transaction():  # on the primary; it writes nothing of its own
            self.connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield

    def write(self) -> AbstractContextManager[None]:
        """A transaction holding the space's write lock (its row of `zero_spaces`), waited for up to
        `lock_timeout()`."""
        return self._locked(self.transaction())

    @contextmanager
    def _locked(self, transaction: AbstractContextManager[object]) -> Iterator[None]:
        """`transaction`, holding the space's write lock."""
        import psycopg

        seconds = lock_timeout()
        db = self.connection
        with transaction:
            try:
                if db.execute(_LOCK_SPACE + " SKIP LOCKED", (self._space,)).fetchone() is None:
                    db.execute(f"SET LOCAL lock_timeout = {round(seconds * 1000)}")
                    if db.execute(_NEW_SPACE, (self._space,)).fetchone() is None:
                        # another writer has the space: say so, then wait for it
                        waiting(self._location, f"another writer of space {self._space}", seconds)
                        db.execute(_LOCK_SPACE, (self._space,))
                    db.execute("SET LOCAL lock_timeout = 0")
            except psycopg.errors.LockNotAvailable:
                raise lock_timeout_error(self._location, seconds) from None
            yield

    def exclude_writers(self) -> None:
        """Wait for the writers of every space this role may write (up to `lock_timeout()`), and hold
        them off until the transaction ends: the owner locks `zero_spaces` against every writer's row
        lock (readers never wait), a tenant role the rows of its own spaces (it can lock no shared
        table)."""
        import psycopg

        if not self.bound():
            self._lock_table("zero_spaces", "EXCLUSIVE", "the writers of every space")
            return
        seconds = lock_timeout()
        try:
            self.connection.execute(f"SET LOCAL lock_timeout = {round(seconds * 1000)}")
            self.connection.execute("SELECT space FROM zero_spaces ORDER BY space FOR UPDATE")
            self.connection.execute("SET LOCAL lock_timeout = 0")
        except psycopg.errors.LockNotAvailable:
            raise lock_timeout_error(self._location, seconds) from None

    def _lock_table(self, table: str, mode: str, holders: str) -> None:
        """Lock a shared table for a whole-store step (the owner's) without ever queueing for it: a lock
        waited for in PostgreSQL's queue makes every later request behind it wait too, so one tenant
        idle in a transaction would stall every other tenant through the owner. Each try is `NOWAIT`
        (in a savepoint, so a refusal leaves the transaction as it was), retried with a growing pause
        up to `lock_timeout()`, then a clear error; meanwhile other writers pass."""

        def attempt() -> None:
            with self.connection.transaction():
                self.connection.execute(f"LOCK TABLE {table} IN {mode} MODE NOWAIT")

        self._without_queueing(attempt, holders)

    def _without_queueing(self, attempt: Callable[[], object], holders: str | None = None) -> None:
        """`attempt` until it stops raising `LockNotAvailable` (it waits for no lock, or briefly), with a
        growing pause between tries, up to `lock_timeout()`, then a clear error. `holders`: what it
        waits for, said once when the first try fails (`waiting`)."""
        import psycopg

        seconds = lock_timeout()
        deadline = time.monotonic() + seconds
        pause = 0.005
        while True:
            try:
                attempt()
                return
            except psycopg.errors.LockNotAvailable:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise lock_timeout_error(self._location, seconds) from None
                if holders is not None:
                    waiting(self._location, holders, seconds)
                    holders = None
                time.sleep(min(pause, left))
                pause = min(pause * 2, 0.25)

    def ensure_sealed(self) -> None:
        """A whole-store step: its owner's (a tenant role sees only its own spaces)."""
        if not self.bound():
            super().ensure_sealed()

    def ensure_periods(self) -> None:
        """A whole-store step: its owner's (a tenant role sees only its own spaces)."""
        if not self.bound():
            super().ensure_periods()

    def delete_rows(
        self, table: str, column: str | None = None, keys: Sequence[object] = (), space: str | None = None
    ) -> int:
        """A tenant role deletes through `zero_delete`, which checks its grant (it may not `DELETE`)."""
        if not self.bound():
            return super().delete_rows(table, column, keys, space)
        space = self._space if space is None else space
        args: list[object]
        if column is None:
            sql, args = "SELECT zero_delete(%s, %s, NULL, '{}'::text[])", [table, space]
        else:
            values = list(keys)
            if not values:
                return 0
            sql = f"SELECT zero_delete(%s, %s, %s, %b::{_ARRAYS[type(values[0])]})"
            args = [table, space, column, values]
        row = self.connection.execute(sql, args).fetchone()
        self._wrote()
        return 0 if row is None else int(row[0])

    def grant_space(self, role: str, space: str) -> None:
        """Let `role` read and write `space` (and no other, unless granted): row-level security, and
        only what `zero_tenant_privileges` gives (`zerolang.storage.schema.tenants`), and on the
        conversations' and experiences' tables what `zero_<store>_privileges` gives (`experience_tables`)."""
        check_space(space)
        with self.connection.transaction():
            self.connection.execute("SELECT zero_tenant_privileges(%s)", (role,))
            for store in (EXPERIENCES, CONVERSATIONS):  # their tables, where the database holds them
                function = f"zero_{store}_privileges"
                made = self.connection.execute(
                    "SELECT to_regprocedure(%s)", (f"{function}(text)",)
                ).fetchone()
                if made is not None and made[0] is not None:
                    self.connection.execute(f"SELECT {function}(%s)", (role,))
            self.connection.execute(
                "INSERT INTO zero_space_grants (role_name, space) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (role, space),
            )
        self._wrote()

    def erase_freed(self) -> None:
        """Vacuum the tables a forget deletes from, so the server can reuse the dead rows' space."""
        if self.connection.info.transaction_status != 0:  # inside a transaction: VACUUM cannot run
            return
        for table in space_tables("postgresql"):
            self.connection.execute(f"VACUUM {table}")

    # ---- rows -------------------------------------------------------------------------------

    def stream(self, sql: str, args: Sequence[object] = ()) -> Iterator[tuple[Any, ...]]:
        text = self._text(sql)

        def read(connection: psycopg.Connection[Any]) -> psycopg.Cursor[Any]:
            cursor = connection.cursor()
            cursor.execute(text, args)
            return cursor

        with self.reading(read) if sql.lstrip()[:6].upper() == "SELECT" else read(self.connection) as cursor:
            yield from cursor

    def pair_table(self, pairs: Sequence[tuple[bytes, float]]) -> Iterator[tuple[str, list[object]]]:
        yield (
            "WITH f(concept, floor) AS (SELECT * FROM unnest(%b::bytea[], %b::float8[]))",
            [[key for key, _ in pairs], [float(floor) for _, floor in pairs]],
        )

    def edges_above(
        self,
        floors: Sequence[tuple[bytes, float]],
        predicates: frozenset[str] | None = None,
        limit: int | None = None,
    ) -> list[tuple[bytes, bytes, bytes, str, bytes, float]]:
        """A whole frontier in one round trip: each concept's two range scans, joined laterally."""
        if not floors or (predicates is not None and not predicates):
            return []
        sides, args = [], list[object]()
        for side in ("subject_hash", "object_hash"):
            sql, extra = self._above(side, "f.concept", "f.floor", predicates, limit)
            sides.append(
                "SELECT f.concept, x.* FROM unnest(%b::bytea[], %b::float8[]) AS f(concept, floor)"
                f" CROSS JOIN LATERAL ({sql}) AS x"
            )
            args += [[key for key, _ in floors], [float(floor) for _, floor in floors], self._space, *extra]
        rows = self.rows(" UNION ALL ".join(sides), args)
        found = [(bytes(r[0]), bytes(r[1]), bytes(r[2]), r[3], bytes(r[4]), r[5]) for r in rows]
        return most_confident(found, limit)

    def _touching(
        self, columns: str, concepts: Sequence[bytes], extra: str, args: list[object]
    ) -> list[tuple[Any, ...]]:
        """Both fact ends in one query: a BFS frontier is one round trip."""
        if not concepts:
            return []
        keys = list(concepts)
        return self.rows(
            f"SELECT {columns} FROM facts WHERE space = ?{extra}"
            " AND (subject_hash = ANY(%b) OR object_hash = ANY(%b))",
            [*args, keys, keys],
        )

    def touch(self, episodes: Sequence[bytes], stamp: str) -> None:
        """Access counts in one upsert that returns the rows it wrote, folded into the seals, committed
        without waiting for the WAL flush.

        Accesses rank recall; they are not knowledge. A crash may forget the
        last moments of them, never a fact, and recall stops paying a disk
        flush per query. The seals and the counts commit together, so a crash loses
        both or neither. Inside a caller's transaction the upsert joins it and changes
        nothing about how it commits.
        """
        from psycopg.pq import TransactionStatus

        keys = sorted(set(episodes))
        if not keys:
            return
        idle = self.connection.info.transaction_status == TransactionStatus.IDLE
        # not a write a reader waits for (`wrote`): committed without the flush, its WAL may reach a
        # standby only later, and recall would wait for that each time
        with self._locked(self.connection.transaction()):
            if idle:  # a transaction of its own: the local setting lasts until its commit
                self.connection.execute("SET LOCAL synchronous_commit = off")
            rows = self.connection.execute(
                "WITH before AS (SELECT episode_hash, access_count, last_access FROM episode_access"
                " WHERE space = %s AND episode_hash = ANY(%b::bytea[])),"
                " after AS (INSERT INTO episode_access (space, episode_hash, access_count, last_access)"
                " SELECT %s, k, 1, %s FROM unnest(%b::bytea[]) AS k"
                " ON CONFLICT (space, episode_hash) DO UPDATE SET"
                " access_count = episode_access.access_count + 1,"
                " last_access = greatest(episode_access.last_access, excluded.last_access)"
                " RETURNING episode_hash, access_count, last_access)"
                " SELECT false, * FROM before UNION ALL SELECT true, * FROM after",
                (self._space, keys, self._space, stamp, keys),
            ).fetchall()
            before = [row[1:] for row in rows if not row[0]]
            after = [row[1:] for row in rows if row[0]]
            self.seal_apply({"episode_access": change("episode_access", after, before)})

    def degrees(self, concepts: Sequence[bytes]) -> dict[bytes, int]:
        """Both fact ends counted in one query."""
        keys = sorted(set(concepts))
        if not keys:
            return {}
        args = (self._space, keys, self._space, keys)
        return _degrees(self.reading(lambda connection: connection.execute(_DEGREES, args).fetchall()))

    def refresh_statistics(self, added: int | None = None) -> None:
        if added is not None:  # a bulk load: only when the planner's belief is off by a tenth or more
            row = self.connection.execute(
                "SELECT reltuples FROM pg_class WHERE oid = to_regclass('episodes')"
            ).fetchone()
            believed = float(row[0]) if row is not None else -1.0
            if believed >= 0 and added < STALE_SHARE * believed:
                return
        with self.connection.transaction():
            # A light sample (3,000 rows a table, not 30,000): row counts and the distinctness of hash
            # keys are what recall's plans need, at a sixth of the time (0.05 s against 0.3 s at 100K).
            self.connection.execute(f"SET LOCAL default_statistics_target = {STATISTICS_TARGET}")
            for table in ("concepts", "concept_aliases", "facts", "episodes", "contexts", "episode_access"):
                self.connection.execute(f"ANALYZE {table}")

    def recall_inputs(
        self,
        arriving: Sequence[bytes],
        concepts: Sequence[bytes],
        paths: Sequence[bytes],
        labelled: Sequence[bytes] = (),
    ) -> RecallInputs:
        """The reads pipelined: one round trip."""
        keys = sorted(set(concepts))
        queries: list[tuple[str, Sequence[object]]] = [
            (
                self._text(EPISODES_SELECT + " AND e.fact_hash = ANY(%b)"),
                (self._space, sorted(set(arriving))),
            ),
            (_DEGREES, (self._space, keys, self._space, keys)),
            (self._text(ENDS_SELECT + " AND f.hash = ANY(%b)"), (self._space, sorted(set(paths)))),
            (_LABELS, (self._space, sorted(set(labelled)))),
        ]

        def read(connection: psycopg.Connection[Any]) -> list[list[Any]]:
            with connection.pipeline():
                cursors = [connection.execute(sql, args) for sql, args in queries]
                return [cursor.fetchall() for cursor in cursors]

        episodes, degrees, ends, labels = self.reading(read)
        return RecallInputs(
            episodes_in_order(episodes),
            _degrees(degrees),
            ends_of(ends),
            {bytes(key): label for key, label in labels},
        )

    def write_plan(self, plan: merge.Plan, beside: Alongside[Any] | None = None) -> None:
        """The plan in a few statements, parents first: the new concepts, facts and episodes by
        binary COPY, the aliases and contexts as typed arrays (`unnest`), the updates by primary key,
        while `beside` runs: the server works, the client computes the seal changes.

        A role that row-level security binds (`_copies_into_tables`) copies into the transaction's
        staging tables instead, and each is moved by `INSERT ... SELECT`, which the space's policies
        check. The arrays travel in binary (`%b`): no text escaping of millions of values.
        """
        db = self.connection
        if plan.concept_updates or plan.fact_updates:
            db.execute(_UPDATERS)  # several statements: not in a pipeline
        if self._copies_into_tables():
            if plan.concept_inserts:
                self._copy_into("concepts", plan.concept_inserts)
            if beside is not None:
                beside.start_for(len(plan.episodes))
            with ENGINE.busy(), db.pipeline():
                self._insert_aliases_and_contexts(plan)
                self._update(plan)
            if plan.fact_inserts:
                self._copy_into("facts", plan.fact_inserts)
            if plan.episodes:
                self._copy_into("episodes", plan.episodes)
            return
        staged: list[str] = []
        for table, rows in (
            ("concepts", plan.concept_inserts),
            ("facts", plan.fact_inserts),
            ("episodes", plan.episodes),
        ):
            if rows:
                self._stage(table, rows)
                staged.append(table)
        if beside is not None:
            beside.start_for(len(plan.episodes))
        with ENGINE.busy(), db.pipeline():
            if "concepts" in staged:
                self._move("concepts")
            self._insert_aliases_and_contexts(plan)
            self._update(plan)
            for table in staged:
                if table != "concepts":
                    self._move(table)
            if staged:
                db.execute(f"TRUNCATE {', '.join(f'zero_stage_{table}' for table in staged)}")

    def bound(self) -> bool:
        """Whether row-level security binds the role (a tenant; the tables' owner and a superuser are
        not bound). Asked once per backend (its connection's role does not change)."""
        if self._bound is None:
            row = self.connection.execute(
                "SELECT bool_or(row_security_active(t)) FROM unnest(%s::text[]) AS t",
                (list(_STAGED),),
            ).fetchone()
            self._bound = bool(row is not None and row[0])
        return self._bound

    def _copies_into_tables(self) -> bool:
        """Whether new rows may be copied straight into their tables: COPY cannot write a table whose
        row-level security binds the role."""
        return not self.bound()

    def _copy_into(self, table: str, rows: Sequence[Sequence[object]]) -> None:
        """New rows (none stored: the plan was made under the write lock) by binary COPY. The client
        formats the rows while the server inserts them; the `ENGINE` gate opens once the last row is
        written, for the wait until the server has inserted them all (the copy's end)."""
        columns = _STAGED[table]
        names = ", ".join(name for name, _ in columns)
        space = self._space
        with (
            ExitStack() as waiting,
            self.connection.cursor() as cursor,
            cursor.copy(f"COPY {table} (space, {names}) FROM STDIN (FORMAT BINARY)") as copy,
        ):
            copy.set_types(["text", *(kind for _, kind in columns)])
            for row in rows:
                copy.write_row((space, *row))
            waiting.enter_context(ENGINE.busy())

    def _insert_aliases_and_contexts(self, plan: merge.Plan) -> None:
        """The plan's aliases and contexts, as typed arrays; either may be stored already."""
        for sql, rows in ((_INSERT_ALIASES, plan.aliases), (_INSERT_CONTEXTS, plan.contexts)):
            if rows:
                self.connection.execute(sql, (self._space, *_columns(rows, len(rows[0]))))

    def _move(self, table: str) -> None:
        names = ", ".join(name for name, _ in _STAGED[table])
        self.connection.execute(
            f"INSERT INTO {table} (space, {names}) SELECT %s, {names} FROM zero_stage_{table}", (self._space,)
        )

    def _update(self, plan: merge.Plan) -> None:
        """The plan's updates of stored concepts and facts: one primary-key probe per row, server side
        (the session's `_UPDATERS` made first, outside a pipeline).

        A join of the batch's rows (`unnest`) to the table is planned from statistics that lag
        behind an ingest (a fresh table has none, and the planner then guesses that a space holds
        0.5% of its rows): it hashed, or rescanned, the whole space once per batch or even per row.
        Temporary functions loop over the rows instead, each UPDATE a generic plan on the primary
        key, whatever the statistics say (one round trip per table, as before). They are made (again)
        in the transaction that calls them: behind a pooler in transaction mode the next transaction
        may run on a server connection that never made them.
        """
        db = self.connection
        if plan.concept_updates:
            db.execute(
                "SELECT pg_temp.zero_update_concepts(%s, %b::float8[], %b::text[], %b::bytea[])",
                (self._space, *_columns(plan.concept_updates, 3)),
            )
        if plan.fact_updates:
            db.execute(
                "SELECT pg_temp.zero_update_facts(%s, %b::float8[], %b::int4[], %b::text[], %b::bytea[])",
                (self._space, *_columns(plan.fact_updates, 4)),
            )

    def _stage(self, table: str, rows: Sequence[Sequence[object]]) -> None:
        """New rows (none stored: the plan was made under the write lock) by binary COPY into a
        temporary table of the transaction (rows formatted in C; COPY cannot write a table under
        row-level security), for one INSERT ... SELECT, which the space's policies check."""
        columns = _STAGED[table]
        stage = f"zero_stage_{table}"
        db = self.connection
        db.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS {stage}"
            f" ({', '.join(f'{name} {kind}' for name, kind in columns)}) ON COMMIT DROP"
        )
        with db.cursor() as cursor, cursor.copy(f"COPY {stage} FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types([kind for _, kind in columns])
            for row in rows:
                copy.write_row(row)

    def __repr__(self) -> str:
        return f"PostgresBackend({self._location!r}, space={self._space!r})"


# A plan's aliases and contexts (`PostgresBackend._insert_aliases_and_contexts`): the space, then one
# typed array per column, in binary; the aliases keep the plan's order (first seen, first stored).
_INSERT_ALIASES = (
    "INSERT INTO concept_aliases (space, concept_hash, alias, alias_key)"
    " SELECT %s, u.h, u.a, u.k FROM unnest(%b::bytea[], %b::text[], %b::text[])"
    " WITH ORDINALITY AS u (h, a, k, n) ORDER BY u.n ON CONFLICT DO NOTHING"
)
_INSERT_CONTEXTS = (
    "INSERT INTO contexts (space, hash, event_time, source, scope, agent_id, session_id,"
    " metadata, created_at) SELECT %s, * FROM unnest(%b::bytea[], %b::text[], %b::text[],"
    " %b::text[], %b::text[], %b::text[], %b::text[], %b::text[]) ON CONFLICT DO NOTHING"
)

# The update loops of `PostgresBackend._update`, made in each transaction that calls them (temporary:
# no schema change, and nothing a pooled server connection carries over to another client's work).
_UPDATERS = """
CREATE OR REPLACE FUNCTION pg_temp.zero_update_concepts(s text, c float8[], u text[], h bytea[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT * FROM unnest(c, u, h) AS x (confidence, updated_at, hash) LOOP
        UPDATE concepts SET confidence = r.confidence, updated_at = r.updated_at
            WHERE space = s AND hash = r.hash;
    END LOOP;
END $$;
CREATE OR REPLACE FUNCTION pg_temp.zero_update_facts(s text, c float8[], n int4[], u text[], h bytea[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT * FROM unnest(c, n, u, h) AS x (confidence, observations, updated_at, hash) LOOP
        UPDATE facts SET confidence = r.confidence, observations = r.observations, updated_at = r.updated_at
            WHERE space = s AND hash = r.hash;
    END LOOP;
END $$;
"""

# The space's write lock (`PostgresBackend.write`): its row, locked; made by its first writer.
_LOCK_SPACE = "SELECT 1 FROM zero_spaces WHERE space = %s FOR UPDATE"
_NEW_SPACE = "INSERT INTO zero_spaces (space) VALUES (%s) ON CONFLICT DO NOTHING RETURNING 1"

_LABELS = "SELECT hash, label FROM concepts WHERE space = %s AND hash = ANY(%b)"
_DEGREES = (
    "SELECT k, count(*) FROM (SELECT subject_hash AS k FROM facts WHERE space = %s"
    " AND subject_hash = ANY(%b) UNION ALL SELECT object_hash FROM facts WHERE space = %s"
    " AND object_hash = ANY(%b)) AS ends GROUP BY k"
)


# The columns of the rows a plan inserts (`merge.Plan`), in its order, with their types.
_STAGED = {
    "concepts": (
        ("hash", "bytea"),
        ("label", "text"),
        ("confidence", "float8"),
        ("created_at", "text"),
        ("updated_at", "text"),
    ),
    "facts": (
        ("hash", "bytea"),
        ("subject_hash", "bytea"),
        ("predicate", "text"),
        ("object_hash", "bytea"),
        ("confidence", "float8"),
        ("observations", "int4"),
        ("created_at", "text"),
        ("updated_at", "text"),
    ),
    "episodes": (
        ("hash", "bytea"),
        ("fact_hash", "bytea"),
        ("context_hash", "bytea"),
        ("confidence", "float8"),
        ("created_at", "text"),
    ),
}


def _work(needs: Plan) -> bool:
    """Whether a store needs anything done to its schema."""
    return bool(needs.create or needs.steps)


def _degrees(rows: Sequence[Sequence[Any]]) -> dict[bytes, int]:
    return {bytes(key): int(count) for key, count in rows}


def _columns(rows: Sequence[Sequence[object]], width: int) -> list[list[object]]:
    """Rows as `width` column lists (what `unnest` takes back apart)."""
    columns: list[list[object]] = [[] for _ in range(width)]
    for row in rows:
        for column, value in zip(columns, row, strict=True):
            column.append(value)
    return columns
