"""The experience database's tables, once, for every engine: SQLAlchemy Core, rendered per dialect.

The experience database holds what `zero capture` and `zero recall` keep (turns,
experiences, concepts, the edges between them, the terms a forget blocked: `exp_*`) and
what `zero convo` keeps (`convo_entry`); its two stores (`zerolang.storage.sql.experiences`,
`zerolang.storage.sql.conversations`) create their tables with the statements rendered
from here. What differs between engines is chosen here by name, each with its reason:

- **full text**: SQLite indexes with FTS5 tables beside the rows (`exp_fts`, external
  content over `exp_experience` by its rowid `seq`; `exp_turn_fts`, a turn's layers as one
  document; `convo_fts`, by `convo_entry.seq`), all tokenized `porter unicode61` without
  diacritics. PostgreSQL keeps `tsvector`s with the `english` configuration in columns
  with GIN indexes: `exp_experience.doc` generated from `who` (weight B) and `what` (A),
  `exp_turn_doc`, and `convo_entry.doc`, which the store writes;
- **row ids**: SQLite's rowid (`seq`, `INTEGER PRIMARY KEY`) is what its full-text rows
  point at; PostgreSQL numbers experiences with a `BIGSERIAL` (the order of capture) and
  keys a conversation entry by its key alone;
- **SQLite tables are `WITHOUT ROWID`** where the key is the whole row's point (edges,
  blocked terms), and a text primary key is not declared `NOT NULL` there, as SQLite
  always had it (a rowid table admits a NULL key; PostgreSQL's keys are never NULL);
- **numbers** are `REAL` / `DOUBLE PRECISION`;
- **the schema version** is recorded in SQLite's `exp_meta` (`EXPERIENCE_VERSION`);
  PostgreSQL's tables record none.

Every statement is `IF NOT EXISTS`: a store runs them on a database that may already hold
the other store's tables (both live in one file or schema), and an older SQLite store at
version 1 may lack `exp_forgotten` or `exp_cursor`, which came later without a new number. These are the
tables every release wrote: `tests/storage/test_experience_schema.py` compares a store
made from them with one an older release made. Only the renderer imports this module.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Computed,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.schema import AddConstraint, CreateIndex, CreateTable, SchemaItem
from sqlalchemy.types import DOUBLE_PRECISION, REAL, TypeEngine

from zerolang.storage.schema import CONVERSATIONS, EXPERIENCES, SPACE
from zerolang.storage.schema.history import ddl
from zerolang.storage.schema.tables import DIALECTS, GRANTS, POSTGRESQL, SQLITE, policy, serials
from zerolang.util.spaces import DEFAULT_SPACE

EXPERIENCE_VERSION = 2
"""The experience schema a SQLite store records in `exp_meta` (a newer one is refused). Version 2
keys every row by its space (`space`, the last column of every table and the first of every key):
a store at 1 is upgraded on opening (`upgrade`), its rows landing in the default space."""

_TOKENS = "tokenize='porter unicode61 remove_diacritics 2'"
_EXPERIENCE_DOC = (
    "setweight(to_tsvector('english', who), 'B') || setweight(to_tsvector('english', what), 'A')"
)


def _text(name: str, *, nullable: bool = False) -> Column[str]:
    return Column(name, Text(), nullable=nullable)


def _key(name: str) -> Column[str]:
    """A text primary key as every release declared it: not `NOT NULL` (see the module's notes)."""
    return Column(name, Text(), primary_key=True, nullable=True)


def _rowid() -> Column[int]:
    """SQLite's rowid as the column `seq` (`INTEGER PRIMARY KEY`): what its FTS5 rows point at."""
    return Column("seq", Integer(), primary_key=True, nullable=True, autoincrement=True)


def _spaced(dialect: str, items: tuple[SchemaItem, ...]) -> tuple[SchemaItem, ...]:
    """A table's items with the row's space among its columns: first on SQLite (its tables are made
    again by an upgrade, and SQLite 3.40's `integrity_check` misreads a `WITHOUT ROWID` table whose
    key does not lead its columns), last on PostgreSQL (where an upgrade adds it to the table)."""
    space = Column(SPACE, Text(), nullable=False)
    if dialect == SQLITE:
        return (space, *items)
    columns = [item for item in items if isinstance(item, Column)]
    return (*columns, space, *(item for item in items if not isinstance(item, Column)))


def _number(dialect: str) -> TypeEngine[float]:
    return REAL() if dialect == SQLITE else DOUBLE_PRECISION()


def _table(dialect: str, schema: MetaData, name: str, *items: SchemaItem, rowid: bool = True) -> Table:
    """A table of spaces' rows (`_spaced`); one whose key is the row's point (not `rowid`) is
    `WITHOUT ROWID` on SQLite."""
    if dialect == SQLITE and not rowid:
        return Table(name, schema, *_spaced(dialect, items), sqlite_with_rowid=False)
    return Table(name, schema, *_spaced(dialect, items))


def experiences(dialect: str) -> MetaData:
    """Every table of the experience store, as `dialect` keeps it (SQLite's FTS5 tables: `full_text`)."""
    if dialect not in DIALECTS:
        raise ValueError(f"no such dialect: {dialect}")
    sqlite = dialect == SQLITE
    schema = MetaData()
    if sqlite:
        Table("exp_meta", schema, _key("key"), _text("value"))
    turns = _table(
        dialect,
        schema,
        "exp_turn",
        _text("id"),
        _text("session"),
        Column("position", Integer(), nullable=False),
        _text("key"),
        _text("at", nullable=True),
        PrimaryKeyConstraint(SPACE, "id"),
    )
    Index("exp_turn_session", turns.c.space, turns.c.session, turns.c.position)
    doc: tuple[SchemaItem, ...] = ()
    if sqlite:
        seq = _rowid()
    else:
        seq = Column("seq", BigInteger(), primary_key=True, autoincrement=True)
        doc = (Column("doc", TSVECTOR(), Computed(_EXPERIENCE_DOC, persisted=True)),)
    rows = _table(
        dialect,
        schema,
        "exp_experience",
        seq,
        _text("id"),
        _text("layer"),
        _text("who"),
        _text("what"),
        _text("at", nullable=True),
        _text("session"),
        _text("turn"),
        Column("position", Integer(), nullable=False),
        Column("ordinal", Integer(), nullable=False),
        _text("affect"),
        _text("sources"),
        *doc,
        UniqueConstraint(SPACE, "id"),
    )
    Index("exp_experience_turn", rows.c.space, rows.c.turn)
    if not sqlite:
        Index("exp_experience_doc", rows.c.doc, postgresql_using="gin")
        turn_docs = _table(
            dialect,
            schema,
            "exp_turn_doc",
            _text("turn"),
            Column("doc", TSVECTOR(), nullable=False),
            PrimaryKeyConstraint(SPACE, "turn"),
        )
        Index("exp_turn_doc_doc", turn_docs.c.doc, postgresql_using="gin")
    _table(dialect, schema, "exp_concept", _text("id"), _text("label"), PrimaryKeyConstraint(SPACE, "id"))
    _terms(dialect, schema)
    edges = _table(
        dialect,
        schema,
        "exp_edge",
        _text("src"),
        _text("kind"),
        _text("dst"),
        Column("weight", _number(dialect), nullable=False),
        PrimaryKeyConstraint(SPACE, "src", "kind", "dst"),
        rowid=False,
    )
    Index("exp_edge_dst", edges.c.space, edges.c.dst, edges.c.kind)
    # Terms a memory forget blocked (hashes only, see zerolang.experience.forgotten); also read by convo.
    _table(
        dialect,
        schema,
        "exp_forgotten",
        _text("tombstone"),
        _text("term"),
        Column("words", Integer(), nullable=False),
        PrimaryKeyConstraint(SPACE, "tombstone", "term"),
        rowid=False,
    )
    # Where incremental capture stopped in each transcript (zerolang.experience.transcripts.cursor):
    # added later without a new number, as `exp_forgotten` was; an older store gains it on opening.
    _table(
        dialect,
        schema,
        "exp_cursor",
        _text("transcript"),
        _text("state"),
        PrimaryKeyConstraint(SPACE, "transcript"),
    )
    return schema


def _terms(dialect: str, schema: MetaData) -> None:
    """Recall's own full text, the same on every engine (`zerolang.experience.ranking`): `exp_term`
    holds each term (`zerolang.experience.words.index_terms`) an experience (by its `seq`) says,
    with how often in its `what` and its `who`, keyed by term for a query's look-up; `exp_length`
    each experience's number of words in each. Added beside the engines' own indexes, without a new
    number: a store without them gains them on opening, its experiences indexed then."""
    seq = Integer() if dialect == SQLITE else BigInteger()
    _table(
        dialect,
        schema,
        "exp_term",
        _text("term"),
        Column("seq", seq, nullable=False),
        Column("what", Integer(), nullable=False),
        Column("who", Integer(), nullable=False),
        PrimaryKeyConstraint(SPACE, "term", "seq"),
        rowid=False,
    )
    _table(
        dialect,
        schema,
        "exp_length",
        Column("seq", seq, nullable=False),
        Column("what", Integer(), nullable=False),
        Column("who", Integer(), nullable=False),
        PrimaryKeyConstraint(SPACE, "seq"),
        rowid=False,
    )


def conversations(dialect: str) -> MetaData:
    """The conversation store's table, as `dialect` keeps it (SQLite's FTS5 table: `full_text`)."""
    if dialect not in DIALECTS:
        raise ValueError(f"no such dialect: {dialect}")
    schema = MetaData()
    sqlite = dialect == SQLITE
    key = UniqueConstraint(SPACE, "key") if sqlite else PrimaryKeyConstraint(SPACE, "key")
    seq: tuple[SchemaItem, ...] = (_rowid(),) if sqlite else ()
    doc: tuple[SchemaItem, ...] = () if sqlite else (Column("doc", TSVECTOR(), nullable=False),)
    expires = Column("expires_at", _number(dialect), nullable=True)
    entries = _table(dialect, schema, "convo_entry", *seq, _text("key"), _text("value"), expires, *doc, key)
    if not sqlite:
        Index("convo_entry_doc", entries.c.doc, postgresql_using="gin")
    return schema


def _fts5(name: str, *arguments: str) -> tuple[str, str]:
    """An FTS5 table of `arguments` (columns, options), tokenized as every full-text table is."""
    return name, f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5({', '.join([*arguments, _TOKENS])})"


def full_text(store: str, dialect: str) -> dict[str, str]:
    """SQLite's FTS5 tables of `store`, by name (SQLAlchemy has no words for them); PostgreSQL's
    full text lives in the tables' `tsvector` columns."""
    if dialect != SQLITE:
        return {}
    if store == EXPERIENCES:
        return dict(
            [
                _fts5("exp_turn_fts", "turn UNINDEXED", "what", "space UNINDEXED"),
                _fts5(
                    "exp_fts",
                    "who",
                    "what",
                    "space UNINDEXED",
                    "content='exp_experience'",
                    "content_rowid='seq'",
                ),
            ]
        )
    return dict([_fts5("convo_fts", "text", "space UNINDEXED")])


def _metadata(store: str, dialect: str) -> MetaData:
    return experiences(dialect) if store == EXPERIENCES else conversations(dialect)


def names(store: str, dialect: str) -> list[str]:
    """Every table of `store`, full-text tables included."""
    return [*_metadata(store, dialect).tables, *full_text(store, dialect)]


KEYED = {EXPERIENCES: "exp_turn", CONVERSATIONS: "convo_entry"}
"""The table whose lack of a `space` column marks a store an older release made (schema 1)."""


def upgrade(store: str, dialect: str, compiler: Dialect) -> list[str]:
    """PostgreSQL: what brings `store`'s tables from schema 1 (no space) to today's, in place, before
    `create` adds what is missing: every table present gains its `space` (its rows: the default
    space), its keys are made again beginning with the space, and the indexes that now begin with
    it are dropped for `create` to make again. SQLite cannot change a table's key in place: its
    stores are copied into new tables (`zerolang.storage.sqlite.database`), so none here."""
    if dialect == SQLITE:
        return []
    out: list[str] = []
    for name, table in _metadata(store, dialect).tables.items():
        guarded = f"ALTER TABLE IF EXISTS {name}"
        out.append(f"{guarded} ADD COLUMN IF NOT EXISTS {SPACE} TEXT NOT NULL DEFAULT '{DEFAULT_SPACE}'")
        out.append(f"{guarded} ALTER COLUMN {SPACE} DROP DEFAULT")
        out.append(
            "DO $$ DECLARE c record; BEGIN FOR c IN SELECT conname FROM pg_constraint"
            f" WHERE conrelid = to_regclass('{name}') AND contype IN ('p', 'u') ORDER BY conname LOOP"
            f" EXECUTE format('ALTER TABLE {name} DROP CONSTRAINT %I', c.conname); END LOOP; END $$"
        )
        keys = [
            c
            for c in table.constraints
            if isinstance(c, PrimaryKeyConstraint | UniqueConstraint) and c.columns
        ]
        for key in sorted(keys, key=lambda c: isinstance(c, UniqueConstraint)):
            added = " ".join(str(AddConstraint(key).compile(dialect=compiler)).split())
            out.append(added.replace("ALTER TABLE ", "ALTER TABLE IF EXISTS ", 1))
        for index in sorted(table.indexes, key=lambda index: str(index.name)):
            if SPACE in index.columns:
                out.append(f"DROP INDEX IF EXISTS {index.name}")
    return out


def privileges(store: str) -> str:
    """PostgreSQL: the function `zero_<store>_privileges(r)` that gives a tenant role (one granted
    spaces, `zero memory grant`) what it needs of `store`'s tables: to read and write them, deletes
    included (a forget or `zero convo` deletes rows), row-level security keeping it to its spaces'
    rows (`secure`), and the sequence that numbers experiences."""
    tables = ", ".join(_metadata(store, POSTGRESQL).tables)
    body = [
        "EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', current_schema(), r);",
        f"EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON {tables} TO %I', r);",
    ]
    for name, table in _metadata(store, POSTGRESQL).tables.items():
        for column in serials(table):
            sequence = f"pg_get_serial_sequence('{name}', '{column}')"
            body.append(f"EXECUTE format('GRANT USAGE ON SEQUENCE %s TO %I', {sequence}, r);")
    return (
        f"CREATE OR REPLACE FUNCTION zero_{store}_privileges(r text) RETURNS void LANGUAGE plpgsql AS $$"
        f" BEGIN {' '.join(body)} END $$"
    )


def secure(store: str, dialect: str) -> list[str]:
    """PostgreSQL: row-level security on `store`'s tables as the memory's tables have it
    (`tables.policy`: a role sees and writes only the rows of the spaces granted to it), and the
    roles already granted a space given `zero_<store>_privileges`: run where the database holds the
    memory's grants (`zero_space_grants`) and the tables are not secured yet. Only the tables'
    owner does it; row-level security does not bind the owner."""
    if dialect == SQLITE:
        return []
    names = list(_metadata(store, dialect).tables)
    steps: list[str] = []
    for name in names:  # each table not secured yet (a table added later: the others are)
        secured = " ".join(f"{statement};" for statement in policy(name))
        steps.append(f"IF {_unsecured(name)} THEN {secured} END IF;")
    steps.append(
        f"PERFORM zero_{store}_privileges(g.role_name) FROM (SELECT DISTINCT role_name FROM {GRANTS}) AS g"
        " JOIN pg_roles r ON r.rolname = g.role_name;"
    )
    return [
        privileges(store),
        f"REVOKE ALL ON FUNCTION zero_{store}_privileges(text) FROM PUBLIC",
        f"DO $$ BEGIN IF to_regclass('{GRANTS}') IS NOT NULL AND ({' OR '.join(map(_unsecured, names))})"
        f" THEN {' '.join(steps)} END IF; END $$",
    ]


def _unsecured(table: str) -> str:
    """PostgreSQL: whether `table` has no row-level security yet (a table added after the others)."""
    return (
        "NOT EXISTS (SELECT 1 FROM pg_policies WHERE schemaname = current_schema()"
        f" AND tablename = '{table}' AND policyname = 'zero_space')"
    )


def create(store: str, dialect: str, compiler: Dialect) -> list[str]:
    """What makes `store`'s tables in a database that may hold some of them: every table with its
    indexes, the full-text tables, and on SQLite the experience schema's version."""
    out: list[str] = []
    for table in _metadata(store, dialect).tables.values():
        out.append(ddl(CreateTable(table, if_not_exists=True), compiler))
        indexes = sorted(table.indexes, key=lambda index: str(index.name))
        out.extend(ddl(CreateIndex(index, if_not_exists=True), compiler) for index in indexes)
    out.extend(full_text(store, dialect).values())
    if store == EXPERIENCES and dialect == SQLITE:
        out.append(f"INSERT OR REPLACE INTO exp_meta (key, value) VALUES ('schema', '{EXPERIENCE_VERSION}')")
    return out
