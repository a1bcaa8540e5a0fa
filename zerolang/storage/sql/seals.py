"""Table seals in SQL (`zerolang.knowledge.integrity`): kept in `table_seals` by every write.

One row per (space, table): its row count and digest sum, updated inside the
write transaction that changes the table (writers to a space are serialised,
so the read-modify-write is exact). A store made before a generation of the
seals existed has that generation's tables sealed once, from their rows, when
first opened after the migration that brought it; a marker row says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zerolang.knowledge import integrity
from zerolang.knowledge.integrity import GENERATIONS, MARKER_SPACE, SEALED, Seal, change, pending
from zerolang.storage.errors import translating
from zerolang.storage.sql.core import Row, SqlCore
from zerolang.storage.sql.memo import clean

_UPSERT = (
    "INSERT INTO table_seals (space, tbl, row_count, digest) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (space, tbl) DO UPDATE SET row_count = excluded.row_count, digest = excluded.digest"
)


@translating
class Seals(SqlCore):
    __slots__ = ()

    def seal_apply(self, changes: Mapping[str, Seal], space: str | None = None) -> None:
        """Fold what a write did to each table into this space's seals (inside the write); `space`:
        another space's (a whole-store write, which holds every space's writers off)."""
        space = self.space if space is None else space
        changes = {table: seal for table, seal in changes.items() if seal.rows or seal.total}
        if not changes:
            return
        memo = self.write_memo()
        rows = memo.seals.get(space) if memo is not None else None
        if rows is None:
            read = self.rows("SELECT tbl, row_count, digest FROM table_seals WHERE space = ?", [space])
            rows = clean(read)  # None: a damaged row, folded as before but not kept
            if rows is None:
                memo, rows = None, tuple(read)
        stored = {table: (count, digest) for table, count, digest in rows}  # parsed where it changes
        folded = [
            (space, table, new.rows, new.hex)
            for table, change in sorted(changes.items())
            for new in [_parsed(stored.get(table)).add(change)]
        ]
        self.run_many(_UPSERT, folded)
        if memo is not None:  # the seals as stored now, by table (as a read returns them)
            now = {row[0]: row for row in rows}
            now.update((table, (table, count, digest)) for _, table, count, digest in folded)
            memo.seals[space] = tuple(now[table] for table in sorted(now))

    def reseal(self) -> None:
        """Count this space's sealed tables again from their rows, inside a write: O(space).

        No write calls it: every write folds the rows it changes into the seals (`seal_apply`).
        It is the whole recount those per-row seals must equal (the tests compare the two), and
        a way to accept a space's current rows as they are, which also hides any edit made
        outside the store; `check` never calls it.
        """
        self.delete_rows("table_seals")
        seals = {
            table: integrity.seal_of(
                table,
                self.stream(f"SELECT {integrity.columns(table)} FROM {table} WHERE space = ?", [self.space]),
            )
            for table in SEALED
        }
        self.run_many(
            _UPSERT,
            [(self.space, table, seal.rows, seal.hex) for table, seal in sorted(seals.items())],
        )

    def sealed_rows(self, table: str, keys: Sequence[bytes], column: str = "hash") -> list[Row]:
        """The sealed columns of the rows of `table` whose `column` is one of `keys` (before a write)."""
        return self.select_in(
            f"SELECT {integrity.columns(table)} FROM {table} WHERE space = ?", column, keys, [self.space]
        )

    def ensure_sealed(self) -> None:
        """Seal, from their rows, the tables of each generation of the seals a migration just brought.

        A migration that brings a generation (`integrity.GENERATIONS`) writes its pending row; the
        tables of that generation in every space are sealed once, here, and the pending row
        becomes the generation's marker. A marker deleted by hand is not silently made again:
        `check` reports it.
        """
        if not self._pending_generations():
            return
        with self.transaction():
            self.exclude_writers()  # a writer's seal fold must not land between the recount and its write
            for generation in self._pending_generations():
                marker, tables = GENERATIONS[generation - 1]
                seals: dict[tuple[str, str], Seal] = {}
                for table in tables:
                    for space, *row in self.stream(f"SELECT space, {integrity.columns(table)} FROM {table}"):
                        key = (space, table)
                        seals[key] = seals.get(key, Seal()).add(Seal(1, integrity.row_digest(table, row)))
                for condition, values in self.in_list("tbl", list(tables)):
                    self.run(
                        f"DELETE FROM table_seals WHERE space <> ? AND {condition}", [MARKER_SPACE, *values]
                    )
                self.run(
                    "DELETE FROM table_seals WHERE space = ? AND tbl = ?", [MARKER_SPACE, pending(generation)]
                )
                rows = [(space, table, seal.rows, seal.hex) for (space, table), seal in sorted(seals.items())]
                self.run_many(_UPSERT, [*rows, (MARKER_SPACE, marker, 0, Seal().hex)])

    def _pending_generations(self) -> list[int]:
        found = {row[0] for row in self.rows("SELECT tbl FROM table_seals WHERE space = ?", [MARKER_SPACE])}
        return [number for number in range(1, len(GENERATIONS) + 1) if pending(number) in found]


def _parsed(row: tuple[object, object] | None) -> Seal:
    """A stored seal's (count, digest), or none stored, as a `Seal` (a tampered one counts as empty)."""
    return Seal() if row is None else Seal.parse(*row) or Seal()


def fold(
    changes: dict[str, Seal],
    table: str,
    added: Sequence[Sequence[object]],
    removed: Sequence[Sequence[object]] = (),
) -> None:
    """Add what writing `added` and deleting `removed` does to `table`'s seal into `changes`."""
    changes[table] = changes.get(table, Seal()).add(change(table, added, removed))
