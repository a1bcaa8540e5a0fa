"""Table seals: a digest of every row a store wrote, kept on write, recomputed by `check`.

Hashes cover what content addressing can (a concept's label, a fact's
labels and predicate, a context's three fields); the merge rules give back
what is derivable (a fact's confidence, observations and times). What is
left -- a context's agent, session and metadata, a concept's aliases, the
exact times, and (the second generation, `GENERATIONS`) a fact's validity and
history, the space log, semantic memory (and the episodes merged into it), the
tombstones and the keys they block -- is covered by a
*seal* per space and table: the number of rows and the sum (mod 2^256) of the
SHA-256 of each row's canonical encoding.

A sum is a multiset hash: order-free, and updated in O(1) per written row
(add the new row's digest, subtract the old one's), so a writer never rereads
a table. `check` streams each table once and compares. A hand edit, an added
or deleted row, a value of another type (text in a number column) all change
the sum; only someone who recomputes the seal on purpose hides an edit, and
the seal then still tells the store from its earlier exports by checkpoint.

Pure functions: the backends keep the seals (`zerolang.storage.sql.seals`),
`zerolang.knowledge.check` compares them.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

MODULUS = 1 << 256
MARKER_SPACE = ""  # not a space name: the row saying every table of every space is sealed
MARKER_TABLE = "*sealed*"
# The sealed columns of each table, in order (`space` is the seal's own key; ids are not content).
# Per column: `b` bytes, `t` text, `T` text or NULL, `r` real, `R` real or NULL, `i` integer.
SEALED: Mapping[str, tuple[tuple[str, str], ...]] = {
    "concepts": (
        ("hash", "b"),
        ("label", "t"),
        ("confidence", "r"),
        ("created_at", "t"),
        ("updated_at", "t"),
    ),
    "concept_aliases": (("concept_hash", "b"), ("alias", "t"), ("alias_key", "t")),
    "contexts": (
        ("hash", "b"),
        ("event_time", "t"),
        ("source", "t"),
        ("scope", "t"),
        ("agent_id", "T"),
        ("session_id", "T"),
        ("metadata", "t"),
        ("created_at", "t"),
    ),
    "facts": (
        ("hash", "b"),
        ("subject_hash", "b"),
        ("predicate", "t"),
        ("object_hash", "b"),
        ("confidence", "r"),
        ("observations", "i"),
        ("created_at", "t"),
        ("updated_at", "t"),
    ),
    "episodes": (
        ("hash", "b"),
        ("fact_hash", "b"),
        ("context_hash", "b"),
        ("confidence", "r"),
        ("created_at", "t"),
    ),
    "pruned_episodes": (
        ("hash", "b"),
        ("fact_hash", "b"),
        ("context_hash", "b"),
        ("confidence", "r"),
        ("created_at", "t"),
        ("pruned_at", "t"),
        ("reason", "t"),
    ),
    # generation 2 (LATER_SEALED): the history, the log, semantic memory and the tombstones
    "fact_events": (
        ("fact_hash", "b"),
        ("kind", "t"),
        ("at", "t"),
        ("valid_from", "T"),
        ("valid_to", "T"),
        ("confidence", "R"),
        ("detail", "t"),
    ),
    "space_log": (("at", "t"), ("kind", "t"), ("subject", "b"), ("detail", "t")),
    "semantic_facts": (
        ("fact_hash", "b"),
        ("confidence", "r"),
        ("observations", "i"),
        ("first_seen", "t"),
        ("last_reinforced", "t"),
    ),
    "semantic_sources": (("episode_hash", "b"), ("fact_hash", "b")),
    "tombstones": (
        ("hash", "b"),
        ("kind", "t"),
        ("target", "T"),
        ("created_at", "t"),
        ("payload", "T"),
        ("purged_at", "T"),
        ("restored_at", "T"),
    ),
    "forgotten_keys": (("key", "b"), ("tombstone", "b"), ("kind", "t")),
    # generation 3: validity periods and declarations
    "fact_periods": (
        ("fact_hash", "b"),
        ("valid_from", "t"),
        ("valid_to", "T"),
        ("ended_by", "T"),
        ("recorded_at", "t"),
        ("recorded_by", "t"),
        ("closed_at", "T"),
        ("closed_by", "T"),
    ),
    "declarations": (("at", "t"), ("setting", "t"), ("value", "t"), ("declared", "i")),
    # generation 4: the archive's summary index and the access counts
    "memory_index": (
        ("hash", "t"),
        ("summary", "t"),
        ("day", "t"),
        ("y_privacy", "i"),
        ("z_abstraction", "i"),
        ("cluster_id", "T"),
        ("decay_score", "r"),
        ("reinforcement_count", "i"),
        ("last_accessed_at", "T"),
        ("consent_scope", "t"),
        ("consent_flags", "t"),
        ("source_session", "T"),
        ("source_channel", "t"),
        ("created_at", "t"),
    ),
    "episode_access": (("episode_hash", "b"), ("access_count", "i"), ("last_access", "t")),
}

# The tables sealed by each generation of the seals, with the marker row (space MARKER_SPACE)
# saying that a store's tables of that generation are sealed. A migration that brings a
# generation writes its `pending` row instead; opening the store then seals that generation's
# tables from their rows, once, and replaces the row by the marker. A marker missing later was
# deleted by hand: `check` says so (nothing reseals a store silently).
GENERATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (MARKER_TABLE, ("concepts", "concept_aliases", "contexts", "facts", "episodes", "pruned_episodes")),
    (
        "*sealed:2*",
        (
            "fact_events",
            "space_log",
            "semantic_facts",
            "semantic_sources",
            "tombstones",
            "forgotten_keys",
        ),
    ),
    ("*sealed:3*", ("fact_periods", "declarations")),
    ("*sealed:4*", ("memory_index", "episode_access")),
)


def pending(generation: int) -> str:
    """The marker row a migration writes for generation `generation` (1-based) of the seals."""
    return f"*pending:{generation}*"


def columns(table: str) -> str:
    """The sealed columns of `table`, for a SELECT."""
    return ", ".join(name for name, _ in SEALED[table])


_REAL = {
    table: tuple(i for i, (_, kind) in enumerate(cols) if kind in ("r", "R"))
    for table, cols in SEALED.items()
}
_INTEGER = {
    table: tuple(i for i, (_, kind) in enumerate(cols) if kind == "i") for table, cols in SEALED.items()
}
_BUFFERS = (memoryview, bytearray)
_WIDTH = {table: len(cols) for table, cols in SEALED.items()}


# Per table: the text a row's digest hashes, for `%` (one `%r` a column), and the types of the rows it
# takes as they are (`row_digest`'s fast path; any other row goes through `exact_digest`).
_TEXT = {table: f"{table}\0[" + ", ".join(["%r"] * len(cols)) + "]" for table, cols in SEALED.items()}
_KINDS: Mapping[str, tuple[type, ...]] = {
    "b": (bytes,),
    "t": (str,),
    "T": (str, type(None)),
    "r": (float,),
    "R": (float, type(None)),
    "i": (int,),
}
_AS_THEY_ARE = {
    table: frozenset(itertools.product(*(_KINDS[kind] for _, kind in cols))) for table, cols in SEALED.items()
}


def row_digest(table: str, row: Sequence[object]) -> int:
    """The SHA-256 of one row's sealed columns, as an integer.

    The encoding is the `repr` of the values as stored, which tells every type
    apart (`b'..'`, `'..'`, `1`, `1.0`, `None`) and escapes what is not
    printable; a REAL column's integral value counts as a float and an INTEGER
    column's integral float as an int, as the engines store them.

    A row whose every value already has its column's type (what writers make) is formatted in one
    step; any other goes through `exact_digest`, which gives the same digest for such a row.
    """
    if tuple(map(type, row)) in _AS_THEY_ARE[table]:
        text = _TEXT[table] % tuple(row)
        return int.from_bytes(hashlib.sha256(text.encode("utf-8", "backslashreplace")).digest(), "big")
    return exact_digest(table, row)


def exact_digest(table: str, row: Sequence[object]) -> int:
    """`row_digest` for any row: driver buffers read as bytes, the numbers as their columns store them."""
    values = list(row)
    for value in values:  # a driver's buffers read as bytes (rare: one pass to find out)
        if type(value) in _BUFFERS:
            values = [bytes(v) if isinstance(v, memoryview | bytearray) else v for v in values]
            break
    if len(values) != _WIDTH[table]:
        raise ValueError(f"a {table} row has {_WIDTH[table]} sealed columns, not {len(values)}")
    for index in _REAL[table]:
        value = values[index]
        if type(value) is int:
            values[index] = float(value)
    for index in _INTEGER[table]:
        value = values[index]
        if type(value) is float and value.is_integer():
            values[index] = int(value)
    text = f"{table}\0{values!r}"
    return int.from_bytes(hashlib.sha256(text.encode("utf-8", "backslashreplace")).digest(), "big")


@dataclass(frozen=True, slots=True)
class Seal:
    """How many rows a table holds in a space, and the sum of their digests."""

    rows: int = 0
    total: int = 0

    def add(self, other: Seal) -> Seal:
        return Seal(self.rows + other.rows, (self.total + other.total) % MODULUS)

    @property
    def hex(self) -> str:
        return f"{self.total:064x}"

    @classmethod
    def parse(cls, rows: object, text: object) -> Seal | None:
        """A stored seal, or None when it is not one (a tampered seal row)."""
        if not isinstance(rows, int) or isinstance(rows, bool) or not isinstance(text, str):
            return None
        try:
            total = int(text, 16)
        except ValueError:
            return None
        return cls(rows, total) if len(text) == 64 and total < MODULUS else None


def seal_of(table: str, rows: Iterable[Sequence[object]]) -> Seal:
    """The seal of these rows (all of a table's rows in a space, or the rows a write adds)."""
    count = total = 0
    for row in rows:
        count += 1
        total += row_digest(table, row)
    return Seal(count, total % MODULUS)


def change(table: str, added: Iterable[Sequence[object]], removed: Iterable[Sequence[object]] = ()) -> Seal:
    """What writing `added` and deleting `removed` does to a table's seal."""
    minus = _written(table, removed)  # first: the rows replaced are the ones remembered
    plus = _written(table, added)
    return Seal(plus.rows - minus.rows, (plus.total - minus.total) % MODULUS)


# A concept is rewritten whenever a new record mentions it again (its `updated_at` moves): the row a
# batch replaces is usually the one an earlier batch of the same process wrote. A digest is a pure
# function of the row, so writers keep each concept's latest row and digest and skip hashing the
# old row again when it is unchanged (`check` never uses this).
_REWRITTEN = "concepts"
_LATEST: dict[object, tuple[tuple[object, ...], int]] = {}
_LATEST_LIMIT = 65_536


def _written(table: str, rows: Iterable[Sequence[object]]) -> Seal:
    if table != _REWRITTEN:
        return seal_of(table, rows)
    latest = _LATEST
    count = total = 0
    for row in rows:
        values = tuple(row)
        known = latest.get(values[0]) if type(values[0]) is bytes else None
        if known is not None and known[0] == values:
            digest = known[1]
        else:
            digest = row_digest(table, values)
            if type(values[0]) is bytes:
                if len(latest) >= _LATEST_LIMIT:
                    latest.clear()
                latest[values[0]] = (values, digest)
        count += 1
        total += digest
    return Seal(count, total % MODULUS)
