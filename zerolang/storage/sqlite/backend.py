"""`SqliteBackend`: the shared SQL on a `sqlite3` connection.

Writers never see "database is locked": a write transaction starts with
`BEGIN IMMEDIATE` (the write lock up front, never an upgrade that could
deadlock), waits for another writer up to `lock_timeout()` (60 s, or
`$ZERO_MEMORY_LOCK_TIMEOUT`), retried with backoff while SQLite reports the
database busy within that time, and then says so in one line (a `StoreBusy`).
Readers (WAL) never wait.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, cast

from zerolang.knowledge import merge
from zerolang.knowledge.overlap import ENGINE
from zerolang.storage.errors import StorageError, translating
from zerolang.storage.locks import NOTICE_AFTER_S, lock_timeout, lock_timeout_error
from zerolang.storage.schema import plan
from zerolang.storage.sql.alongside import MIN_ROWS, Alongside
from zerolang.storage.sql.backend import SqlBackend
from zerolang.storage.sql.memo import WriteMemo, clean
from zerolang.storage.sql.records import INSERTED
from zerolang.storage.sqlite.checkpoints import AT_MOST_EVERY_S, BACKSTOP, Checkpointer
from zerolang.storage.sqlite.statements import SqliteStatements, bound
from zerolang.storage.sqlite.waits import READERS, WRITER, busy, checkpoint, said_if_waiting
from zerolang.storage.sqlite.words import SqliteWords
from zerolang.util.spaces import DEFAULT_SPACE, check_space

APPLICATION_ID = 0x5A4D454D  # "ZMEM": marks the file as a zerolang memory database
AUTOCHECKPOINT = 1000  # SQLite's default WAL size (pages) for a commit to checkpoint itself
# A plan with fewer new rows than this inserts them directly (`_write_small`): staging pays off when
# its long `INSERT ... SELECT` steps hide the seal work beside them, which starts at `MIN_ROWS` too.
STAGE_FROM = MIN_ROWS
IN_CHUNK = 5000  # keys per `IN (...)`: few statements a batch, under the 32,766 variables of SQLite 3.32+
# Page cache, KiB. A batch of hash-keyed rows lands all over its tables, so an ingest keeps every
# page it read (`BULK_CACHE_KIB`). A long-running server committing a little per call keeps a small
# one (`SERVING_CACHE_KIB`): each commit costs SQLite time in proportion to the pages cached (in
# `zero mcp`, a create_entities call's commit grew from 0.19 ms to 0.8 ms of CPU over 30,000 calls
# with the bulk cache; with 4 MiB it stayed at 0.17 ms).
BULK_CACHE_KIB = 262_144
SERVING_CACHE_KIB = 8_192


# The tables a file holds that are neither the memory's nor the experience database's (`exp_*`,
# `convo_*`, their full-text tables included): a new memory store is made only where there are none.
_FOREIGN_TABLES = (
    "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
    " AND name NOT LIKE 'exp\\_%' ESCAPE '\\' AND name NOT LIKE 'convo\\_%' ESCAPE '\\'"
)


@translating
class SqliteBackend(SqliteStatements, SqlBackend, SqliteWords):
    __slots__ = (
        "_bulky",
        "_checkpoints",
        "_location",
        "_memo",
        "_owner",
        "_serving",
        "_space",
        "_timeout",
        "_wal",
        "_whole",
        "connection",
    )

    kind = "sqlite"
    greatest = "max"
    code_points = "BINARY"
    chunk = IN_CHUNK

    def __init__(
        self,
        connection: sqlite3.Connection,
        location: str,
        space: str,
        owner: bool,
        memo: WriteMemo | None = None,
    ) -> None:
        self.connection = connection
        self._memo = WriteMemo() if memo is None else memo  # one per connection: its spaces share it
        self._location = location
        self._space = space
        self._owner = owner
        self._timeout = lock_timeout()
        # A bulk write's checkpoint runs in a helper thread (`checkpoints`), on the file this connection
        # opened (SQLite's own absolute name for it; none for a store in memory); its owner has one.
        self._checkpoints: Checkpointer | None = None
        if owner:
            files = {name: file for _, name, file in connection.execute("PRAGMA database_list")}
            file = files.get("main", "")
            if file:
                self._checkpoints = Checkpointer(file, self._timeout)
        self._bulky = False  # this transaction writes a bulk plan (`write_plan`)
        self._serving = False  # every commit leaves its checkpoint to the helper thread (`serving`)
        self._whole = False  # inside `whole`: a transaction opened inside takes no savepoint
        self._wal = False  # the file is in WAL mode (`_setup`): a commit waits for no other connection

    @classmethod
    def open(cls, path: str | Path, *, space: str = DEFAULT_SPACE, create: bool = True) -> SqliteBackend:
        location = str(path)
        in_memory = location == ":memory:"
        if not in_memory and not create and not Path(location).is_file():
            raise StorageError(f"{location}: no memory database here (ingest something first, or pass --db)")
        try:
            connection = sqlite3.connect(location, isolation_level=None, timeout=lock_timeout())
        except sqlite3.Error as error:
            raise StorageError(f"{location}: cannot open the memory database ({error})") from None
        backend = cls(connection, location, space, True)
        backend._set_up(
            lambda: backend._setup(in_memory), sqlite3.DatabaseError, "not a usable memory database"
        )
        return backend

    def _setup(self, in_memory: bool) -> None:
        db = self.connection
        db.execute(f"PRAGMA busy_timeout = {round(self._timeout * 1000)}")
        if not in_memory:
            mode = self._retry(lambda: db.execute("PRAGMA journal_mode = WAL").fetchone())
            self._wal = mode is not None and str(mode[0]).lower() == "wal"
        db.execute("PRAGMA synchronous = NORMAL")
        # Declared, not enforced (as on PostgreSQL since its schema 8): enforcing costs an index look-up per
        # inserted row (7% of an ingest's CPU), the writer inserts parents first under the write lock, and
        # `check` resolves every reference (and `PRAGMA foreign_key_check` still lists a dangling one).
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("PRAGMA temp_store = MEMORY")
        db.execute("PRAGMA secure_delete = FAST")  # zero deleted content (forget) where it costs no I/O
        db.execute(f"PRAGMA cache_size = -{BULK_CACHE_KIB}")
        version, tables, application = self._retry(self._identity)
        if tables if version == 0 else application != APPLICATION_ID:
            raise StorageError(f"{self._location}: a SQLite database, but not a zerolang memory database")
        needs = plan("sqlite", version, location=self._location)
        if needs.create or needs.steps:
            self._migrate()

    def _identity(self) -> tuple[int, int, int]:
        """The file's schema version, number of tables (not counting the experience database's: one
        file holds a memory and its conversations, whichever came first) and application id, read in
        one snapshot:
        another process may be creating the store meanwhile, and its first migration step makes the
        tables and sets the version in one transaction (read apart, a process once saw version 0 and
        then that step's tables, and called the new store not a zerolang memory database)."""
        db = self.connection
        db.execute("BEGIN")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = db.execute(_FOREIGN_TABLES).fetchone()[0]
            application = db.execute("PRAGMA application_id").fetchone()[0]
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")  # a read: nothing to keep
        return int(version), int(tables), int(application)

    def _migrate(self) -> None:
        """Create the schema of a new file, or take an older file's steps (`zerolang.storage.schema`),
        one transaction each, each checked for broken references. Another process may be doing the
        same: each transaction reads the version again under the write lock."""
        db = self.connection
        while True:
            with self.write():
                version = db.execute("PRAGMA user_version").fetchone()[0]
                needs = plan("sqlite", version, location=self._location)
                if needs.create:
                    statements, reached = needs.create, needs.latest
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                elif needs.steps:
                    reached, statements = needs.steps[0]
                else:
                    break
                for statement in statements:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {reached}")
                problems = db.execute("PRAGMA foreign_key_check").fetchall()
                if problems:
                    raise StorageError(f"{self._location}: cannot migrate: {len(problems)} broken references")
        db.execute("ANALYZE sqlite_schema")  # load the planner statistics the schema wrote

    # ---- the MemoryBackend lifetime ---------------------------------------------------------

    @property
    def schema_version(self) -> int:
        return int(self.connection.execute("PRAGMA user_version").fetchone()[0])

    def in_space(self, space: str) -> SqliteBackend:
        other = SqliteBackend(self.connection, self._location, check_space(space), False, self._memo)
        other._wal = self._wal  # the same connection, the same file
        return other

    def close(self) -> None:
        if not self._owner:
            return
        if self._checkpoints is not None:
            self._checkpoints.close()
        if self.connection.in_transaction:
            self.connection.execute("ROLLBACK")
        self.connection.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        db = self.connection
        if db.in_transaction and self._whole:  # an error undoes the whole block (`whole`)
            try:
                yield
            except BaseException:
                self._memo.forget()
                raise
            return
        if db.in_transaction:
            name = f"sp{random.getrandbits(48)}"
            db.execute(f"SAVEPOINT {name}")
            try:
                yield
            except BaseException:
                self._memo.forget()
                db.execute(f"ROLLBACK TO {name}")
                db.execute(f"RELEASE {name}")
                raise
            db.execute(f"RELEASE {name}")
            return
        self._retry(lambda: db.execute("BEGIN IMMEDIATE"))
        version = int(db.execute("PRAGMA data_version").fetchone()[0])  # read under the write lock
        self._memo.begin((version, db.total_changes))
        try:
            yield
        except BaseException:
            self._bulky = False
            self._memo.end()
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._memo.open = False  # kept for the next transaction once the commit is done (`hold`)
        helper = self._checkpoints if self._bulky else None  # a bulk commit's checkpoint goes to it
        self._bulky = False
        if helper is not None:
            db.execute("PRAGMA wal_autocheckpoint = 0")
        try:
            with ENGINE.busy():  # writing the WAL (and SQLite's own checkpoint): a long step without the GIL
                self._commit()
        except BaseException:
            self._memo.end()
            raise
        finally:
            if helper is not None:
                db.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP if self._serving else AUTOCHECKPOINT}")
        self._memo.hold((version, db.total_changes))
        if helper is not None:
            helper.ask()
        elif self._serving and self._checkpoints is not None:
            self._checkpoints.ask()

    @contextmanager
    def whole(self) -> Iterator[None]:
        """A write transaction (a savepoint inside another) in which the transactions opened inside
        take no savepoint of their own: two statements each (more than their rows cost a small
        write), and nothing to undo apart, since an error inside undoes the whole block. The caller
        promises that nothing inside goes on writing after catching an error of such a block."""
        if self._whole:
            yield
            return
        with self.transaction():
            self._whole = True
            try:
                yield
            finally:
                self._whole = False

    def _commit(self) -> None:
        """COMMIT, retried while busy (`_retry`). In WAL mode the write lock taken by `BEGIN IMMEDIATE`
        is all a commit needs (it appends to the WAL; SQLite's own checkpoint after it is passive),
        so it is tried at once, without setting the quick busy timeout first and back after it (two
        statements); were it ever busy, it is retried as any other step."""
        db = self.connection
        if self._wal:
            try:
                db.execute("COMMIT")
                return
            except sqlite3.OperationalError as error:
                if not busy(error) or not db.in_transaction:
                    raise
        self._retry(lambda: db.execute("COMMIT"))

    def serving(self) -> None:
        """From now on every commit leaves its checkpoint to the helper thread (`checkpoints`), for a
        long-running server whose calls each commit a little: a commit is as durable as before (it is
        in the WAL, synchronous as before); the copy into the file happens beside the calls. Its page
        cache is `SERVING_CACHE_KIB`, so a commit costs the same at the millionth call as at the first.
        A store in memory has no checkpoints: nothing changes."""
        if self._checkpoints is None or self._serving:
            return
        self._serving = True
        self._checkpoints.spaced(AT_MOST_EVERY_S)
        self.connection.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP}")
        self.connection.execute(f"PRAGMA cache_size = -{SERVING_CACHE_KIB}")

    def write(self) -> Any:
        return self.transaction()

    def write_memo(self) -> WriteMemo | None:
        return self._memo if self._memo.open and self.connection.in_transaction else None

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """A read transaction (`BEGIN`, then a first read that fixes its snapshot in the WAL): the
        reads inside see one state, whatever writers commit meanwhile. Reads only."""
        db = self.connection
        if db.in_transaction:
            yield
            return
        db.execute("BEGIN")
        try:
            self._retry(lambda: db.execute("SELECT count(*) FROM sqlite_schema").fetchone())
            yield
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")

    # ---- rows -------------------------------------------------------------------------------

    def rows(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.connection.execute(sql, bound(args)).fetchall()
        except sqlite3.OperationalError as error:
            raise self._damaged(error) from None

    def stream(self, sql: str, args: Sequence[object] = ()) -> Iterator[tuple[Any, ...]]:
        try:
            cursor = self.connection.execute(sql, bound(args))
        except sqlite3.OperationalError as error:
            raise self._damaged(error) from None
        try:
            for row in cursor:  # noqa: UP028 - `yield from` would close the cursor of an abandoned scan
                yield row
        except sqlite3.OperationalError as error:
            raise self._damaged(error) from None

    def _damaged(self, error: sqlite3.OperationalError) -> Exception:
        """Text that is not UTF-8 (a hand edit) is a damaged store, a lock held too long a timeout, said so;
        anything else as it was."""
        if busy(error):
            return lock_timeout_error(self._location, self._timeout)
        if "decode" not in str(error):
            return error
        return StorageError(
            f"{self._location}: a damaged store: a row holds text that is not UTF-8 ({error});"
            " `zero memory check` lists it"
        )

    # ---- writing ----------------------------------------------------------------------------

    def write_plan(self, plan: merge.Plan, beside: Alongside[Any] | None = None) -> None:
        """A small plan's rows inserted directly (`_write_small`); a larger plan's new rows staged (a
        temporary table per table, one short step per row) and each moved by one `INSERT ... SELECT`:
        one long `sqlite3_step` without the GIL; the facts' and episodes' moves while `beside` runs.
        Parents first: concepts, then the updates, aliases and contexts row by row (short steps,
        before `beside` starts), then facts and episodes.

        The rows and their order are those of direct inserts (the columns' affinities apply when
        they reach their tables); the staging tables live in the transaction, so a failed batch
        rolls them back with everything else.
        """
        if len(plan.concept_inserts) + len(plan.fact_inserts) + len(plan.episodes) < STAGE_FROM:
            self._write_small(plan)
            return
        if len(plan.episodes) >= MIN_ROWS and self._checkpoints is not None:
            self._bulky = True  # its commit leaves the checkpoint to the helper thread
        if plan.concept_inserts:
            self._stage("concepts", plan.concept_inserts)
            self._move("concepts")
        self.write_updates(plan)
        staged = [
            (table, rows)
            for table, rows in (("facts", plan.fact_inserts), ("episodes", plan.episodes))
            if rows
        ]
        for table, rows in staged:
            self._stage(table, rows)
        if beside is not None:
            beside.start_for(len(plan.episodes))
        with ENGINE.busy():
            for table, _ in staged:
                self._move(table)

    def _write_small(self, plan: merge.Plan) -> None:
        """A small plan (a call's few rows, under `MIN_ROWS`): each table's new rows inserted directly,
        one `executemany` each, in the order staging would move them; no temporary table to fill,
        move and empty (nine statements saved), and no long step for `beside` to overlap."""
        self._insert("concepts", plan.concept_inserts)
        self.write_updates(plan)
        self._insert("facts", plan.fact_inserts)
        self._insert("episodes", plan.episodes)

    def _insert(self, table: str, rows: Sequence[Sequence[object]]) -> None:
        if rows:
            space = self._space
            self.connection.executemany(_INSERT[table], [[space, *row] for row in _staged(table, rows)])

    def _stage(self, table: str, rows: Sequence[Sequence[object]]) -> None:
        columns = INSERTED[table]
        names = ", ".join(columns)
        db = self.connection
        db.execute(f"CREATE TEMP TABLE IF NOT EXISTS zero_stage_{table} ({names})")
        marks = ", ".join("?" * len(columns))
        staged = _staged(table, rows)
        db.executemany(f"INSERT INTO temp.zero_stage_{table} ({names}) VALUES ({marks})", staged)

    def _move(self, table: str) -> None:
        names = ", ".join(INSERTED[table])
        db = self.connection
        db.execute(
            f"INSERT INTO {table} (space, {names})"
            f" SELECT ?, {names} FROM temp.zero_stage_{table} ORDER BY rowid",
            [self._space],
        )
        db.execute(f"DELETE FROM temp.zero_stage_{table}")

    # ---- check ------------------------------------------------------------------------------

    def integrity_problems(self) -> list[str]:
        problems = [m for (m,) in self.connection.execute("PRAGMA quick_check") if m != "ok"]
        for table, rowid, parent, _ in self.connection.execute("PRAGMA foreign_key_check"):
            problems.append(f"{table} row {rowid} refers to a missing {parent} row")
        return problems

    def erase_freed(self) -> None:
        """Overwrite freed pages, rebuild the file without them and empty the WAL into it."""
        db = self.connection
        if db.in_transaction:
            return
        self.merge_words()  # the word index rewritten without the deleted labels' entries
        if self._location == ":memory:":
            return
        db.execute("PRAGMA secure_delete = ON")
        self._retry(lambda: checkpoint(db), READERS)
        self._retry(lambda: db.execute("VACUUM"), READERS)
        self._retry(lambda: checkpoint(db), READERS)

    def raw_sealed_rows(self, table: str) -> Iterator[tuple[Any, ...]]:
        """As stored, even text that is not UTF-8 (read with surrogate escapes: it then fails its checks)."""
        db = self.connection
        db.text_factory = _lenient_text
        try:
            yield from super().raw_sealed_rows(table)
        finally:
            with suppress(sqlite3.ProgrammingError):  # closed before the scan ended
                db.text_factory = str

    def raw_seals(self) -> Iterator[tuple[Any, Any, Any]]:
        memo = self.write_memo()
        if memo is not None and self._space in memo.seals:
            yield from memo.seals[self._space]
            return
        db = self.connection
        db.text_factory = _lenient_text
        try:
            rows = list(super().raw_seals())  # a handful of rows
        finally:
            with suppress(sqlite3.ProgrammingError):  # closed meanwhile
                db.text_factory = str
        kept = clean(rows) if memo is not None else None
        if memo is not None and kept is not None:
            memo.seals[self._space] = kept
        yield from rows

    def raw_seal_markers(self) -> set[str]:
        db = self.connection
        db.text_factory = _lenient_text
        try:
            return super().raw_seal_markers()
        finally:
            db.text_factory = str

    def _retry(self, step: Any, what: str = WRITER) -> Any:
        """Run `step`, retrying with backoff while SQLite reports the database busy, up to the timeout;
        a wait longer than a moment is said (what it waits for: `waits`)."""
        deadline = time.monotonic() + self._timeout
        if self._timeout > NOTICE_AFTER_S:
            done, result = said_if_waiting(
                self.connection, step, location=self._location, seconds=self._timeout, what=what
            )
            if done:
                return result
        attempt = 0
        while True:
            try:
                return step()
            except sqlite3.OperationalError as error:
                if not busy(error):
                    raise
                pause = min(0.05 * 2**attempt, 1.0) * (0.5 + random.random())
                if time.monotonic() + pause > deadline:
                    raise lock_timeout_error(self._location, self._timeout) from None
                attempt += 1
                time.sleep(pause)

    def __repr__(self) -> str:
        return f"SqliteBackend({self._location!r}, space={self._space!r})"


# Per table of new rows, the statement that inserts one (`_write_small`).
_INSERT = {
    table: f"INSERT INTO {table} (space, {', '.join(names)}) VALUES (?{', ?' * len(names)})"
    for table, names in INSERTED.items()
}
# Per staged table, the columns holding a hash (`bytes`).
_HASHES = {
    table: tuple(index for index, name in enumerate(names) if name == "hash" or name.endswith("_hash"))
    for table, names in INSERTED.items()
}


def _staged(table: str, rows: Sequence[Sequence[object]]) -> list[list[object]]:
    """A plan's rows to stage, their hashes as `bytearray` (see `statements.bound`): converting a row
    costs about 0.8 us and saves about 0.6 us a hash in the binding (three hashes to a fact or an
    episode)."""
    at = _HASHES[table]
    staged = []
    for row in rows:
        values = list(row)
        for index in at:
            values[index] = bytearray(cast(bytes, values[index]))
        staged.append(values)
    return staged


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")
