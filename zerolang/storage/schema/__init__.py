"""The stores' schemas (the memory store's and its one migration history, the experience
database's tables), as every engine runs them.

The schema is defined once (`tables`, SQLAlchemy Core) and so is its history (`history`):
`python -m zerolang.storage.schema.render` renders both for each engine into
`rendered.json`, which is all this module reads, so opening or creating a store never
imports SQLAlchemy. An engine asks `plan(dialect, stored)` what to run for the version
its store records; the experience and conversation stores ask `store_tables(dialect, store)` for
the statements that make their tables (`experience_tables`).

PostgreSQL stores written before the two engines shared one history count their
versions 1 to 9; their numbers map onto the shared history (`_POSTGRES_BEFORE`), and
such a store is brought up in one transaction, so it never records a shared number
that could be read as an old one.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zerolang.storage.errors import StorageError

RENDERED = Path(__file__).with_name("rendered.json")

# PostgreSQL's own numbers before the shared history -> the shared version that store is at.
# Its 8 (references unchecked) came before 9 (the second seals); here that is step 12, which
# drops the keys only if they are there, so a store at 8 takes steps 11 and 12 and is whole.
_POSTGRES_BEFORE = {1: 4, 2: 5, 3: 6, 4: 7, 5: 8, 6: 9, 7: 10, 8: 10, 9: 12}
_SHARED_ON_POSTGRES = 12  # the first version a PostgreSQL store records in the shared count


@dataclass(frozen=True, slots=True)
class Plan:
    """What a store needs: nothing, a new schema (`create`), or the steps after its version."""

    latest: int
    create: tuple[str, ...]
    steps: tuple[tuple[int, tuple[str, ...]], ...]  # (version each step makes, its statements)


@functools.cache
def _rendered() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RENDERED.read_text(encoding="utf-8"))
    return data


def _engine(dialect: str) -> dict[str, Any]:
    """What `rendered.json` holds for one engine."""
    engine: dict[str, Any] = _rendered()["engines"][dialect]
    return engine


def latest() -> int:
    """The version of the latest schema."""
    return int(_rendered()["latest"])


def step(dialect: str, version: int) -> tuple[str, ...]:
    """The statements of the step that makes schema `version`, as `dialect` runs them."""
    return tuple(_engine(dialect)["steps"][str(version)])


def space_tables(dialect: str) -> tuple[str, ...]:
    """Every table of a store that holds a space's rows (what a role granted a space may use)."""
    return tuple(_engine(dialect)["space_tables"])


def shared_version(dialect: str, stored: int) -> int:
    """The shared history's version of a store that records `stored`."""
    if dialect == "postgresql" and 0 < stored < _SHARED_ON_POSTGRES:
        if stored not in _POSTGRES_BEFORE:
            raise StorageError(f"schema version {stored} was never written by zerolang on PostgreSQL")
        return _POSTGRES_BEFORE[stored]
    return stored


def plan(dialect: str, stored: int, *, location: str) -> Plan:
    """What to run on a `dialect` store that records version `stored` (0: a new store)."""
    engine = _engine(dialect)
    newest = latest()
    version = shared_version(dialect, stored)
    if version > newest:
        raise StorageError(
            f"{location}: made by a newer zerolang (schema {version}, this one reads {newest});"
            " upgrade zerolang to open it"
        )
    if version == 0:
        return Plan(newest, tuple(engine["create"]), ())
    if version < engine["first"]:
        raise StorageError(f"{location}: schema version {stored} was never written by zerolang on {dialect}")
    steps = tuple(
        (number, tuple(statements))
        for number, statements in sorted((int(k), v) for k, v in engine["steps"].items())
        if number > version
    )
    return Plan(newest, (), steps)


EXPERIENCES = "experiences"
CONVERSATIONS = "conversations"
"""The experience database's two stores, by the names `store_tables` knows them."""

GRANTS = "zero_space_grants"
"""PostgreSQL: which role may see which space (the memory's; the experience tables' policies read it)."""

SPACE = "space"
"""The column of the experience database's tables that names a row's space (`zerolang.util.spaces`):
in every table, first in every key and index, and in every full-text row."""


EDGE_KINDS = {"mentions": 0, "sibling": 1, "next": 2}
"""What `exp_edge.kind` holds for each kind of edge (`zerolang.experience.model.EdgeKind`); the
commonest kinds are 0 and 1, which SQLite stores in no byte. `src` and `dst` are then the `seq` of
an experience and a concept (mentions), of two experiences (sibling), of two turns (next)."""

EDGE_ENDS = {
    "mentions": ("exp_experience", "exp_concept"),
    "sibling": ("exp_experience", "exp_experience"),
    "next": ("exp_turn", "exp_turn"),
}
"""The tables whose `seq`s an edge of each kind joins (`EDGE_KINDS`): its source's, its target's."""

EDGE_SPACED = {"sqlite": False, "postgresql": True}
"""Whether `exp_edge` names each row's space, by engine: PostgreSQL's row-level security admits a
role to the rows of its spaces by that column; an edge's space is its ends' (numbers unique across
spaces), which is all SQLite needs."""

TERMS_SPACED = EDGE_SPACED
"""Whether `exp_term` (recall's postings) names each row's space, by engine: for the same reason, a
posting's space being its experience's (`seq`)."""


@dataclass(frozen=True, slots=True)
class StoreTables:
    """What makes the tables of one of the experience database's stores (`experiences`,
    `conversations`): statements safe to run on a database that holds some of them already."""

    tables: tuple[str, ...]  # every table the statements make
    create: tuple[str, ...]
    version: int | None  # the schema version the store records (SQLite's experiences), None if none
    keyed: str  # the table whose lack of a `space` column marks a store of schema 1
    upgrade: tuple[str, ...]  # what brings such a store to today's schema in place (PostgreSQL)
    secure: tuple[str, ...]  # row-level security and tenant grants where the memory's are (PostgreSQL)
    compacted: tuple[str, ...] = ()  # the tables experience schema 3 made anew (numbers for hashes)
    set_aside: tuple[str, ...] = ()  # what renames those of an older store to NAME_old (PostgreSQL)
    compact: tuple[str, ...] = ()  # what fills them from NAME_old, then drops those


def store_tables(dialect: str, store: str) -> StoreTables:
    """The tables of `store` (`EXPERIENCES` or `CONVERSATIONS`) as `dialect` makes them."""
    rendered = _engine(dialect)[store]
    return StoreTables(
        tuple(rendered["tables"]),
        tuple(rendered["create"]),
        rendered.get("version"),
        rendered["keyed"],
        tuple(rendered["upgrade"]),
        tuple(rendered["secure"]),
        tuple(rendered.get("compacted", ())),
        tuple(rendered.get("set_aside", ())),
        tuple(rendered.get("compact", ())),
    )
