"""The experience database's tables, once, for every engine: SQLAlchemy Core, rendered per dialect.

The experience database holds what `zero capture` and `zero recall` keep (turns,
experiences, concepts, the edges between them, the terms a forget blocked: `exp_*`) and
what `zero convo` keeps (`convo_entry`); its two stores (`zerolang.storage.sql.experiences`,
`zerolang.storage.sql.conversations`) create their tables with the statements rendered
from here. What differs between engines is chosen here by name, each with its reason:

- **full text**: the experiences' is the store's own, alike on every engine (`exp_term`,
  `exp_length`: `_terms`). The conversation entries' is the engine's: SQLite's FTS5 table
  `convo_fts` (by `convo_entry.seq`, tokenized `porter unicode61` without diacritics),
  PostgreSQL's `convo_entry.doc`, a `tsvector` of the `english` configuration with a GIN
  index, which the store writes;
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

from zerolang.storage.schema import (
    CONVERSATIONS,
    EDGE_ENDS,
    EDGE_KINDS,
    EDGE_SPACED,
    EXPERIENCES,
    SPACE,
    TERMS_SPACED,
)
from zerolang.storage.schema.history import ddl
from zerolang.storage.schema.tables import DIALECTS, GRANTS, POSTGRESQL, SQLITE, policy, serials
from zerolang.util.spaces import DEFAULT_SPACE

EXPERIENCE_VERSION = 3
"""The experience schema a SQLite store records in `exp_meta` (a newer one is refused). Version 2
keys every row by its space (`space`, the last column of every table and the first of every key):
a store at 1 is upgraded on opening (`upgrade`), its rows landing in the default space. Version 3
numbers sessions, turns and concepts as experiences are (`seq`, unique across spaces): a turn
names its session, an experience its turn, and an edge its two ends, by that number (its kind
too: `EDGE_KINDS`), the hashes stored once, in their rows, and keeps no engine's full text of
experiences (FTS5's `exp_fts` and `exp_turn_fts`, PostgreSQL's `exp_experience.doc` and
`exp_turn_doc`), which recall no longer read: its own postings (`exp_term`, `exp_length`) by the
experiences' numbers are made on opening; a store at 1 or 2 is rebuilt on opening (`COMPACTED`,
`compact`)."""

COMPACTED = ("exp_session", "exp_turn", "exp_concept", "exp_experience", "exp_edge")
"""The tables version 3 changed, in the order `compact` fills them: a store at 1 or 2 sets them aside
(renamed `NAME_old`, their indexes dropped or renamed), then they are made again and filled from them."""

_TOKENS = "tokenize='porter unicode61 remove_diacritics 2'"


def _text(name: str, *, nullable: bool = False) -> Column[str]:
    return Column(name, Text(), nullable=nullable)


def _key(name: str) -> Column[str]:
    """A text primary key as every release declared it: not `NOT NULL` (see the module's notes)."""
    return Column(name, Text(), primary_key=True, nullable=True)


def _rowid() -> Column[int]:
    """SQLite's rowid as the column `seq` (`INTEGER PRIMARY KEY`): what its FTS5 rows point at."""
    return Column("seq", Integer(), primary_key=True, nullable=True, autoincrement=True)


def _serial(dialect: str) -> Column[int]:
    """A row's number, unique across spaces, by which other rows name it: SQLite's rowid (`_rowid`),
    PostgreSQL's `BIGSERIAL` (the order of capture)."""
    if dialect == SQLITE:
        return _rowid()
    return Column("seq", BigInteger(), primary_key=True, autoincrement=True)


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


def _table(
    dialect: str,
    schema: MetaData,
    name: str,
    *items: SchemaItem,
    rowid: bool = True,
    spaced: bool = True,
) -> Table:
    """A table of spaces' rows (`_spaced`; not `spaced`: its rows name no space); one whose key is the
    row's point (not `rowid`) is `WITHOUT ROWID` on SQLite."""
    columns = _spaced(dialect, items) if spaced else items
    if dialect == SQLITE and not rowid:
        return Table(name, schema, *columns, sqlite_with_rowid=False)
    return Table(name, schema, *columns)


def experiences(dialect: str) -> MetaData:
    """Every table of the experience store, as `dialect` keeps it (SQLite's FTS5 tables: `full_text`)."""
    if dialect not in DIALECTS:
        raise ValueError(f"no such dialect: {dialect}")
    sqlite = dialect == SQLITE
    schema = MetaData()
    if sqlite:
        Table("exp_meta", schema, _key("key"), _text("value"))
    _table(dialect, schema, "exp_session", _serial(dialect), _text("id"), UniqueConstraint(SPACE, "id"))
    turns = _table(
        dialect,
        schema,
        "exp_turn",
        _serial(dialect),
        _text("id"),
        Column("session", BigInteger(), nullable=False),  # its session's `seq`
        Column("position", Integer(), nullable=False),
        _text("key"),
        _text("at", nullable=True),
        UniqueConstraint(SPACE, "id"),
    )
    Index("exp_turn_session", turns.c.session, turns.c.position)  # a `seq`: unique across spaces
    rows = _table(
        dialect,
        schema,
        "exp_experience",
        _serial(dialect),
        _text("id"),
        _text("layer"),
        _text("who"),
        _text("what"),
        _text("at", nullable=True),
        Column("turn", BigInteger(), nullable=False),  # its turn's `seq`
        Column("ordinal", Integer(), nullable=False),
        _text("affect"),
        _text("sources"),
        UniqueConstraint(SPACE, "id"),
    )
    Index("exp_experience_turn", rows.c.turn)  # a `seq`: unique across spaces
    _table(
        dialect,
        schema,
        "exp_concept",
        _serial(dialect),
        _text("id"),
        _text("label"),
        UniqueConstraint(SPACE, "id"),
    )
    _terms(dialect, schema)
    # An edge's ends are `seq`s (unique across spaces: the key needs no space) of the tables its kind
    # joins (`EDGE_KINDS`), of its space. PostgreSQL keeps the space on the row too, for its row-level
    # security (`EDGE_SPACED`); SQLite, which has none, does not.
    edges = _table(
        dialect,
        schema,
        "exp_edge",
        Column("src", BigInteger(), nullable=False),
        Column("kind", Integer(), nullable=False),
        Column("dst", BigInteger(), nullable=False),
        Column("weight", _number(dialect), nullable=False),
        PrimaryKeyConstraint("src", "kind", "dst"),
        rowid=False,
        spaced=EDGE_SPACED[dialect],
    )
    Index("exp_edge_dst", edges.c.dst, edges.c.kind)
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
    with how often in its `what` and its `who`, keyed by term for a query's look-up (a posting's space
    is its experience's: the row names it only where row-level security needs it, `TERMS_SPACED`);
    `exp_length` each experience's number of words in each, by space (a space's totals read by its
    key). Schema 3's only full text of experiences: a store rebuilt from 1 or 2 gains its postings
    when a store of each space opens (`SqlExperienceStore.index_missing`)."""
    seq = Integer() if dialect == SQLITE else BigInteger()
    _table(
        dialect,
        schema,
        "exp_term",
        _text("term"),
        Column("seq", seq, nullable=False),
        Column("what", Integer(), nullable=False),
        Column("who", Integer(), nullable=False),
        PrimaryKeyConstraint("term", "seq"),
        rowid=False,
        spaced=TERMS_SPACED[dialect],
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
        return {}  # the store's own postings (`_terms`), alike on every engine
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
        if name in COMPACTED:  # made again from the older rows (`compact`), given a space if they lack one
            continue
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


def _moved_edges() -> str:
    """The older edges (hashes at their ends, kinds named), numbered as the tables made again number
    their ends."""
    parts = [
        f"SELECT s.seq AS src, {EDGE_KINDS[kind]} AS kind, d.seq AS dst, o.weight AS weight, o.space AS space"
        f" FROM exp_edge_old o JOIN {ends[0]} s ON s.space = o.space AND s.id = o.src"
        f" JOIN {ends[1]} d ON d.space = o.space AND d.id = o.dst WHERE o.kind = '{kind}'"
        for kind, ends in EDGE_ENDS.items()
    ]
    return " UNION ALL ".join(parts)


_ENGINES_TEXT = {SQLITE: ("exp_turn_fts", "exp_fts"), POSTGRESQL: ("exp_turn_doc",)}
"""The engines' full text of experiences a store before 3 kept (PostgreSQL's `exp_experience.doc`
goes with the older table): version 3 keeps only its own postings (`_terms`)."""


def compact(dialect: str) -> list[str]:
    """What fills the tables of version 3 (`COMPACTED`, just made) from those of a store at 1 or 2, set
    aside as `NAME_old` with a `space` column (the rows of a store at 1: the default space), then
    drops them and the engines' full text of experiences (`_ENGINES_TEXT`): turns and concepts are
    numbered anew, experiences keep theirs and name their turn by its number, edges name their ends
    by theirs (recall's postings, by the experiences' numbers, are made when a store of each space
    opens: `SqlExperienceStore.index_missing`); PostgreSQL's sequence goes on after the largest
    number, and where the memory's grants are, the tables made again get the row-level security and
    privileges the others have (`secure`)."""
    edges = "src, kind, dst, weight" + (f", {SPACE}" if EDGE_SPACED[dialect] else "")
    out = [
        "INSERT INTO exp_session (id, space)"
        " SELECT DISTINCT session, space FROM exp_turn_old ORDER BY space, session",
        "INSERT INTO exp_turn (id, session, position, key, at, space)"
        " SELECT o.id, s.seq, o.position, o.key, o.at, o.space FROM exp_turn_old o"
        " JOIN exp_session s ON s.space = o.space AND s.id = o.session"
        " ORDER BY o.space, o.session, o.position",
        "INSERT INTO exp_concept (id, label, space)"
        " SELECT id, label, space FROM exp_concept_old ORDER BY space, id",
        "INSERT INTO exp_experience (seq, id, layer, who, what, at, turn, ordinal, affect, sources, space)"
        " SELECT o.seq, o.id, o.layer, o.who, o.what, o.at, t.seq, o.ordinal, o.affect, o.sources, o.space"
        " FROM exp_experience_old o JOIN exp_turn t ON t.space = o.space AND t.id = o.turn ORDER BY o.seq",
        f"INSERT INTO exp_edge ({edges}) SELECT {edges} FROM ({_moved_edges()}) AS moved"
        " ORDER BY src, kind, dst",
        *(f"DROP TABLE IF EXISTS {name}_old" for name in reversed(COMPACTED)),
        *(f"DROP TABLE IF EXISTS {name}" for name in _ENGINES_TEXT[dialect]),
    ]
    if dialect == SQLITE:
        return out
    steps = " ".join(f"{statement};" for name in COMPACTED for statement in policy(name))
    return [
        *out,
        "SELECT setval(pg_get_serial_sequence('exp_experience', 'seq'), coalesce(max(seq), 0) + 1, false)"
        " FROM exp_experience",
        f"DO $$ BEGIN IF to_regclass('{GRANTS}') IS NOT NULL"
        f" AND to_regprocedure('zero_{EXPERIENCES}_privileges(text)') IS NOT NULL THEN {steps}"
        f" PERFORM zero_{EXPERIENCES}_privileges(g.role_name) FROM"
        f" (SELECT DISTINCT role_name FROM {GRANTS}) AS g JOIN pg_roles r ON r.rolname = g.role_name;"
        " END IF; END $$",
    ]


def set_aside(dialect: str, name: str) -> list[str]:
    """PostgreSQL: what renames table `name` of a store at 1 or 2 to `NAME_old` with its indexes
    (constraints with them) and sequences, so its own can be made again, and gives it a `space` (the
    default) where it has none. SQLite drops an older table's indexes (`zerolang.storage.sqlite.database`),
    and with the turns the FTS5 tables of experiences (`_ENGINES_TEXT`), which version 3 keeps none of."""
    if dialect == SQLITE:
        return [f"DROP TABLE IF EXISTS {text}" for text in _ENGINES_TEXT[SQLITE] if name == "exp_turn"]
    old = f"{name}_old"
    return [
        f"ALTER TABLE IF EXISTS {name} RENAME TO {old}",
        f"ALTER TABLE IF EXISTS {old}"
        f" ADD COLUMN IF NOT EXISTS {SPACE} TEXT NOT NULL DEFAULT '{DEFAULT_SPACE}'",
        "DO $$ DECLARE i record; BEGIN FOR i IN SELECT indexname FROM pg_indexes"
        f" WHERE schemaname = current_schema() AND tablename = '{old}' LOOP"
        " EXECUTE format('ALTER INDEX %I RENAME TO %I', i.indexname, i.indexname || '_old'); END LOOP;"
        " IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()"
        f" AND table_name = '{old}' AND column_name = 'seq') THEN"
        f" IF pg_get_serial_sequence('{old}', 'seq') IS NOT NULL THEN"
        f" EXECUTE format('ALTER SEQUENCE %s RENAME TO {name}_seq_old',"
        f" pg_get_serial_sequence('{old}', 'seq'));"
        " END IF; END IF; END $$",
    ]


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
