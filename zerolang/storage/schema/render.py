"""Render the schema and its history for every engine into `rendered.json` (development time).

    python -m zerolang.storage.schema.render

writes `zerolang/storage/schema/rendered.json` from `tables` and `history` (the memory store)
and `experience_tables` (the experience database's two stores), which are SQLAlchemy Core; the
engines read only that file, so a store opens without SQLAlchemy.
`tests/storage/test_schema.py` checks the file is up to date and every released step unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine.interfaces import Dialect

from zerolang.storage.schema import CONVERSATIONS, EXPERIENCES, experience_tables
from zerolang.storage.schema.experience_tables import EXPERIENCE_VERSION
from zerolang.storage.schema.history import FIRST, HISTORY, LATEST, create
from zerolang.storage.schema.tables import DIALECTS, GRANTS, POSTGRESQL, SQLITE, metadata

RENDERED = Path(__file__).with_name("rendered.json")
_COMPILERS: dict[str, Dialect] = {
    SQLITE: sqlite.dialect(),
    POSTGRESQL: postgresql.dialect(),  # type: ignore[no-untyped-call]
}


def render() -> dict[str, object]:
    """Every engine's statements: for the memory store, `create` (a new store at `latest`) and each
    step's, by version; for the experience database's stores, `experiences` and `conversations`
    (`_store`)."""
    engines: dict[str, object] = {}
    for dialect in DIALECTS:
        schema, compiler = metadata(dialect), _COMPILERS[dialect]
        engines[dialect] = {
            "first": FIRST[dialect],
            "space_tables": sorted(name for name in schema.tables if name != GRANTS),
            "create": create(dialect, schema, compiler),
            "steps": {
                str(step.version): step.statements(dialect, schema, compiler)
                if dialect in step.dialects
                else []
                for step in HISTORY
                if step.version > FIRST[dialect]
            },
            "titles": {str(step.version): step.title for step in HISTORY if dialect in step.dialects},
            **{store: _store(store, dialect, compiler) for store in (EXPERIENCES, CONVERSATIONS)},
        }
    return {"latest": LATEST, "engines": engines}


def _store(store: str, dialect: str, compiler: Dialect) -> dict[str, object]:
    """One of the experience database's stores: its tables' names, the statements that make them,
    the table whose lack of a space marks an older store and what upgrades one in place (PostgreSQL),
    and the schema version where the store records one (SQLite's experiences)."""
    version = {"version": EXPERIENCE_VERSION} if store == EXPERIENCES and dialect == SQLITE else {}
    compacted: dict[str, object] = {}
    if store == EXPERIENCES:
        compacted = {
            "compacted": list(experience_tables.COMPACTED),
            "set_aside": [
                statement
                for name in experience_tables.COMPACTED
                for statement in experience_tables.set_aside(dialect, name)
            ],
            "compact": experience_tables.compact(dialect),
        }
    return {
        **version,
        **compacted,
        "tables": experience_tables.names(store, dialect),
        "keyed": experience_tables.KEYED[store],
        "upgrade": experience_tables.upgrade(store, dialect, compiler),
        "secure": experience_tables.secure(store, dialect),
        "create": experience_tables.create(store, dialect, compiler),
    }


def text() -> str:
    return json.dumps(render(), indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    RENDERED.write_text(text(), encoding="utf-8")
    print(f"wrote {RENDERED}")


if __name__ == "__main__":
    main()
