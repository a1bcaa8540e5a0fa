"""The memory store's one migration history, numbered, for every engine.

A store records the number of the last step it took (`PRAGMA user_version` on SQLite,
`zero_schema_version` on PostgreSQL); opening it takes the steps after that one, in
order. A new store takes none: it is created at the latest schema from the tables
(`zerolang.storage.schema.tables`) and starts at `LATEST`.

Each step is written once. A step made of tables renders them from their definition
in `tables` for each engine; the few statements only one engine has say so. Steps 1
to 4 are SQLite's first schemas (PostgreSQL stores began at 4); step 12 is
PostgreSQL's alone. A released step never changes (`tests/storage/test_schema.py` pins
what each renders): a change of schema is a new step, and a new line in `tables`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import MetaData
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.schema import CreateIndex, CreateTable, DropIndex

from zerolang.storage.schema import tenants, words
from zerolang.storage.schema.tables import (
    DIALECTS,
    GRANTS,
    NO_DIGEST,
    POSTGRESQL,
    SPACES,
    SQLITE,
    STATISTICS,
    TOKENS,
    policy,
    tokens,
)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the history: the schema `version` it makes, what it is, and its statements
    for a dialect given the latest tables (an engine it does not apply to takes none)."""

    version: int
    title: str
    statements: Callable[[str, MetaData, Dialect], list[str]]
    dialects: tuple[str, ...] = DIALECTS


def _tables(*names: str) -> Callable[[str, MetaData, Dialect], list[str]]:
    """Create the named tables (as `tables` defines them) with their indexes, and on PostgreSQL
    the row-level security of each."""

    def statements(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
        out: list[str] = []
        for name in names:
            table = schema.tables[name]
            out.append(ddl(CreateTable(table), compiler))
            out.extend(ddl(CreateIndex(index), compiler) for index in sorted(table.indexes, key=_name))
            if dialect == POSTGRESQL:
                out.extend(policy(name))
        return out

    return statements


def _name(index: object) -> str:
    return str(getattr(index, "name", ""))


def ddl(element: CreateTable | CreateIndex | DropIndex, compiler: Dialect) -> str:
    """One DDL statement as the engine runs it (SQLAlchemy's layout folded to single spaces)."""
    return " ".join(str(element.compile(dialect=compiler)).split())


def statistics(*tables: str, replace: bool = True) -> list[str]:
    """SQLite: the planner statistics of `tables`' indexes (`tables.STATISTICS`), replacing any."""
    rows = [(table, index, stat) for (table, index), stat in STATISTICS.items() if table in tables]
    deletes = [
        f"DELETE FROM sqlite_stat1 WHERE tbl = '{table}' AND idx = '{index}'" for table, index, _ in rows
    ]
    inserts = [f"INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('{t}', '{i}', '{s}')" for t, i, s in rows]
    return [*deletes, *inserts] if replace else inserts


def seal_marker(generation: int) -> str:
    """The row that has a store seal its tables' current rows once, when it next opens."""
    return (
        f"INSERT INTO table_seals (space, tbl, row_count, digest) VALUES ('', '*pending:{generation}*', 0,"
        f" '{NO_DIGEST}') ON CONFLICT DO NOTHING"
    )


def _raw(script: str) -> Callable[[str, MetaData, Dialect], list[str]]:
    return lambda dialect, schema, compiler: [s.strip() for s in script.split(";") if s.strip()]


# ---- SQLite's first schemas (1 to 4), as they were written -----------------------------------

_V1 = """
CREATE TABLE concepts (
    hash        BLOB PRIMARY KEY CHECK (length(hash) = 32),
    label       TEXT NOT NULL,
    confidence  REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE concept_aliases (
    id           INTEGER PRIMARY KEY,
    concept_hash BLOB NOT NULL REFERENCES concepts (hash),
    alias        TEXT NOT NULL,
    alias_key    TEXT NOT NULL,
    UNIQUE (concept_hash, alias)
);
CREATE INDEX concept_aliases_by_key ON concept_aliases (alias_key);
CREATE TABLE contexts (
    hash        BLOB PRIMARY KEY CHECK (length(hash) = 32),
    event_time  TEXT NOT NULL,
    source      TEXT NOT NULL,
    scope       TEXT NOT NULL,
    agent_id    TEXT,
    session_id  TEXT,
    metadata    TEXT NOT NULL DEFAULT '{}',
    created_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE facts (
    hash          BLOB PRIMARY KEY CHECK (length(hash) = 32),
    subject_hash  BLOB NOT NULL REFERENCES concepts (hash),
    predicate     TEXT NOT NULL,
    object_hash   BLOB NOT NULL REFERENCES concepts (hash),
    confidence    REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    observations  INTEGER NOT NULL CHECK (observations > 0),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX facts_by_subject ON facts (subject_hash);
CREATE INDEX facts_by_object ON facts (object_hash);
CREATE TABLE episodes (
    hash          BLOB PRIMARY KEY CHECK (length(hash) = 32),
    fact_hash     BLOB NOT NULL REFERENCES facts (hash),
    context_hash  BLOB NOT NULL REFERENCES contexts (hash),
    confidence    REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    created_at    TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX episodes_by_fact ON episodes (fact_hash);
"""

_V2 = """
CREATE TABLE IF NOT EXISTS working_items (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    session       TEXT NOT NULL,
    episode_hash  BLOB NOT NULL CHECK (length(episode_hash) = 32),
    added_at      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS working_items_by_session ON working_items (session, id);
CREATE TABLE IF NOT EXISTS episode_access (
    episode_hash  BLOB PRIMARY KEY CHECK (length(episode_hash) = 32),
    access_count  INTEGER NOT NULL CHECK (access_count >= 0),
    last_access   TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS semantic_facts (
    fact_hash        BLOB PRIMARY KEY REFERENCES facts (hash),
    confidence       REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    observations     INTEGER NOT NULL CHECK (observations > 0),
    first_seen       TEXT NOT NULL,
    last_reinforced  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS semantic_sources (
    episode_hash  BLOB PRIMARY KEY,
    fact_hash     BLOB NOT NULL REFERENCES semantic_facts (fact_hash)
) WITHOUT ROWID;
"""

_V3_TABLES = (
    "concepts",
    "concept_aliases",
    "contexts",
    "facts",
    "episodes",
    "working_items",
    "episode_access",
    "semantic_facts",
    "semantic_sources",
)

_V3 = (
    "".join(
        f"DROP INDEX IF EXISTS {index};\n"
        for index in (
            "concept_aliases_by_key",
            "facts_by_subject",
            "facts_by_object",
            "episodes_by_fact",
            "working_items_by_session",
        )
    )
    + "".join(f"ALTER TABLE {table} RENAME TO v2_{table};\n" for table in _V3_TABLES)
    + """
CREATE TABLE concepts (
    space       TEXT NOT NULL,
    hash        BLOB NOT NULL CHECK (length(hash) = 32),
    label       TEXT NOT NULL,
    confidence  REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (space, hash)
) WITHOUT ROWID;
CREATE TABLE concept_aliases (
    id           INTEGER PRIMARY KEY,
    space        TEXT NOT NULL,
    concept_hash BLOB NOT NULL,
    alias        TEXT NOT NULL,
    alias_key    TEXT NOT NULL,
    UNIQUE (space, concept_hash, alias),
    FOREIGN KEY (space, concept_hash) REFERENCES concepts (space, hash)
);
CREATE INDEX concept_aliases_by_key ON concept_aliases (space, alias_key);
CREATE TABLE contexts (
    space       TEXT NOT NULL,
    hash        BLOB NOT NULL CHECK (length(hash) = 32),
    event_time  TEXT NOT NULL,
    source      TEXT NOT NULL,
    scope       TEXT NOT NULL,
    agent_id    TEXT,
    session_id  TEXT,
    metadata    TEXT NOT NULL DEFAULT '{}',
    created_at  TEXT NOT NULL,
    PRIMARY KEY (space, hash)
) WITHOUT ROWID;
CREATE TABLE facts (
    space         TEXT NOT NULL,
    hash          BLOB NOT NULL CHECK (length(hash) = 32),
    subject_hash  BLOB NOT NULL,
    predicate     TEXT NOT NULL,
    object_hash   BLOB NOT NULL,
    confidence    REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    observations  INTEGER NOT NULL CHECK (observations > 0),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (space, hash),
    FOREIGN KEY (space, subject_hash) REFERENCES concepts (space, hash),
    FOREIGN KEY (space, object_hash) REFERENCES concepts (space, hash)
) WITHOUT ROWID;
CREATE INDEX facts_by_subject ON facts (space, subject_hash);
CREATE INDEX facts_by_object ON facts (space, object_hash);
CREATE TABLE episodes (
    space         TEXT NOT NULL,
    hash          BLOB NOT NULL CHECK (length(hash) = 32),
    fact_hash     BLOB NOT NULL,
    context_hash  BLOB NOT NULL,
    confidence    REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    created_at    TEXT NOT NULL,
    PRIMARY KEY (space, hash),
    FOREIGN KEY (space, fact_hash) REFERENCES facts (space, hash),
    FOREIGN KEY (space, context_hash) REFERENCES contexts (space, hash)
) WITHOUT ROWID;
CREATE INDEX episodes_by_fact ON episodes (space, fact_hash);
CREATE TABLE working_items (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    space         TEXT NOT NULL,
    session       TEXT NOT NULL,
    episode_hash  BLOB NOT NULL CHECK (length(episode_hash) = 32),
    added_at      TEXT NOT NULL
);
CREATE INDEX working_items_by_session ON working_items (space, session, id);
CREATE TABLE episode_access (
    space         TEXT NOT NULL,
    episode_hash  BLOB NOT NULL CHECK (length(episode_hash) = 32),
    access_count  INTEGER NOT NULL CHECK (access_count >= 0),
    last_access   TEXT NOT NULL,
    PRIMARY KEY (space, episode_hash)
) WITHOUT ROWID;
CREATE TABLE semantic_facts (
    space            TEXT NOT NULL,
    fact_hash        BLOB NOT NULL,
    confidence       REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    observations     INTEGER NOT NULL CHECK (observations > 0),
    first_seen       TEXT NOT NULL,
    last_reinforced  TEXT NOT NULL,
    PRIMARY KEY (space, fact_hash),
    FOREIGN KEY (space, fact_hash) REFERENCES facts (space, hash)
) WITHOUT ROWID;
CREATE TABLE semantic_sources (
    space         TEXT NOT NULL,
    episode_hash  BLOB NOT NULL,
    fact_hash     BLOB NOT NULL,
    PRIMARY KEY (space, episode_hash),
    FOREIGN KEY (space, fact_hash) REFERENCES semantic_facts (space, fact_hash)
) WITHOUT ROWID;
CREATE TABLE pruned_episodes (
    space         TEXT NOT NULL,
    hash          BLOB NOT NULL CHECK (length(hash) = 32),
    fact_hash     BLOB NOT NULL,
    context_hash  BLOB NOT NULL,
    confidence    REAL NOT NULL CHECK (confidence BETWEEN 0.0 AND 1.0),
    created_at    TEXT NOT NULL,
    pruned_at     TEXT NOT NULL,
    reason        TEXT NOT NULL,
    PRIMARY KEY (space, hash),
    FOREIGN KEY (space, fact_hash) REFERENCES facts (space, hash),
    FOREIGN KEY (space, context_hash) REFERENCES contexts (space, hash)
) WITHOUT ROWID;
INSERT INTO concepts SELECT 'default', * FROM v2_concepts;
INSERT INTO concept_aliases SELECT id, 'default', concept_hash, alias, alias_key FROM v2_concept_aliases;
INSERT INTO contexts SELECT 'default', * FROM v2_contexts;
INSERT INTO facts SELECT 'default', * FROM v2_facts;
INSERT INTO episodes SELECT 'default', * FROM v2_episodes;
INSERT INTO working_items SELECT id, 'default', session, episode_hash, added_at FROM v2_working_items;
INSERT INTO episode_access SELECT 'default', * FROM v2_episode_access;
INSERT INTO semantic_facts SELECT 'default', * FROM v2_semantic_facts;
INSERT INTO semantic_sources SELECT 'default', * FROM v2_semantic_sources;
"""
    + "".join(f"DROP TABLE v2_{table};\n" for table in reversed(_V3_TABLES))
)

# Version 4: planner statistics. Without them SQLite's planner takes the leading `space` of
# a primary key over an index on (space, column), i.e. scans a whole space. These describe
# the shape every store has (few spaces, selective hashes); `ANALYZE` may refine them later.
_V4_STATS = {
    ("concepts", "concepts"): "1000000 1000000 1",
    ("concept_aliases", "sqlite_autoindex_concept_aliases_1"): "1000000 1000000 2 1",
    ("concept_aliases", "concept_aliases_by_key"): "1000000 1000000 2",
    ("contexts", "contexts"): "1000000 1000000 1",
    ("facts", "facts"): "1000000 1000000 1",
    ("facts", "facts_by_subject"): "1000000 1000000 4",
    ("facts", "facts_by_object"): "1000000 1000000 4",
    ("episodes", "episodes"): "1000000 1000000 1",
    ("episodes", "episodes_by_fact"): "1000000 1000000 2",
    ("working_items", "working_items_by_session"): "1000 1000 20 1",
    ("episode_access", "episode_access"): "1000000 1000000 1",
    ("semantic_facts", "semantic_facts"): "100000 100000 1",
    ("semantic_sources", "semantic_sources"): "100000 100000 1",
    ("pruned_episodes", "pruned_episodes"): "100000 100000 1",
}
_V4 = "ANALYZE sqlite_schema;\nDELETE FROM sqlite_stat1;\n" + "".join(
    f"INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('{table}', '{index}', '{stat}');\n"
    for (table, index), stat in _V4_STATS.items()
)


# ---- both engines -----------------------------------------------------------------------------


_SPACE_POLICY = "space IN (SELECT g.space FROM zero_space_grants g WHERE g.role_name = current_user)"


def _seals(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """Step 8 as released: the seal table, whose marker rows (space '') every role could read and,
    by that one policy, delete (step 16 took that away)."""
    table = schema.tables["table_seals"]
    out = [ddl(CreateTable(table, if_not_exists=True), compiler)]
    if dialect == POSTGRESQL:
        out += [
            "ALTER TABLE table_seals ENABLE ROW LEVEL SECURITY",
            f"CREATE POLICY zero_space ON table_seals USING (space = '' OR {_SPACE_POLICY})"
            f" WITH CHECK ({_SPACE_POLICY})",
        ]
    return [*out, seal_marker(1)]


def _summary_index(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    out = _tables("memory_index")(dialect, schema, compiler)
    return out + (statistics("memory_index") if dialect == SQLITE else [])


def _ranked_ends(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """The fact-end indexes ordered by confidence, covering a traversal's edge: recall reads a hub's
    most confident facts, or those above a floor, as one index range, without a table page per fact."""
    indexes = sorted(schema.tables["facts"].indexes, key=_name)
    out = [f"DROP INDEX {index.name}" for index in indexes]
    out.extend(ddl(CreateIndex(index), compiler) for index in indexes)
    return out + (statistics("facts") if dialect == SQLITE else [])


def _unchecked_references(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """PostgreSQL checks a foreign key with a trigger per inserted row (a query and a row lock on the
    parent), which made inserting a batch's facts and episodes three to four times slower than the
    rows themselves. The writer inserts a batch's concepts and contexts before the facts, and the
    facts before the episodes, under the space's write lock (`zerolang.knowledge.merge`), and
    `zero memory check` verifies every reference; the keys of the two largest tables go."""
    keys = (
        ("facts", "space_subject_hash"),
        ("facts", "space_object_hash"),
        ("episodes", "space_fact_hash"),
        ("episodes", "space_context_hash"),
    )
    return [
        f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {table}_{columns}_fkey" for table, columns in keys
    ]


_FACT_TIMES = {
    SQLITE: "CREATE TABLE fact_times ( space TEXT NOT NULL, fact_hash BLOB NOT NULL, valid_from TEXT,"
    " valid_to TEXT, retired_at TEXT, retired_by TEXT, PRIMARY KEY (space, fact_hash) ) WITHOUT ROWID",
    POSTGRESQL: "CREATE TABLE fact_times ( space TEXT NOT NULL, fact_hash BYTEA NOT NULL, valid_from TEXT,"
    " valid_to TEXT, retired_at TEXT, retired_by TEXT, PRIMARY KEY (space, fact_hash) )",
}


def _fact_times(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """Step 6 as released: `fact_times` (one validity interval a fact, step 13 replaced it by
    `fact_periods`; written out, as the tables no longer define it) and `fact_events`."""
    out = [_FACT_TIMES[dialect], *(policy("fact_times") if dialect == POSTGRESQL else [])]
    return out + _tables("fact_events")(dialect, schema, compiler)


PERIODS_PENDING = (
    f"INSERT INTO table_seals (space, tbl, row_count, digest) VALUES ('', '*pending:periods*', 0,"
    f" '{NO_DIGEST}') ON CONFLICT DO NOTHING"
)
"""The row that has a store record its facts' periods again from the whole log when it next opens
(`zerolang.knowledge.temporal.rederive`): one interval a fact had lost a re-asserted value's past."""


def _periods(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """A fact may hold over any number of periods, each recorded and closed at a store time; what a
    space declared (single-valued predicates) is stored with it. Each `fact_times` row becomes the
    periods it stood for: its interval as known since the fact was learned, and where it was
    retired, the open interval it replaced, closed at the retirement. A predicate the store
    superseded by was single-valued where the store was written (a `pyproject.toml` then said
    so): the store declares it, from its first fact of it. Opening the store then records every
    such fact's periods again from the log (`PERIODS_PENDING`)."""
    retired_by = "CASE WHEN t.retired_by = 'retracted' THEN 'retract' ELSE 'fact ' || t.retired_by END"
    ended_by = "CASE WHEN t.retired_by = 'retracted' THEN 'retracted' ELSE t.retired_by END"
    start = "COALESCE(t.valid_from, f.created_at)"
    insert = (
        "INSERT INTO fact_periods (space, fact_hash, valid_from, valid_to, ended_by, recorded_at,"
        " recorded_by, closed_at, closed_by)"
    )
    source = " FROM fact_times t JOIN facts f ON f.space = t.space AND f.hash = t.fact_hash"
    return [
        *_tables("fact_periods", "declarations")(dialect, schema, compiler),
        f"{insert} SELECT t.space, t.fact_hash, {start}, NULL, NULL, f.created_at, 'migrated',"
        f" t.retired_at, {retired_by}{source} WHERE t.retired_at IS NOT NULL",
        f"{insert} SELECT t.space, t.fact_hash, {start}, t.valid_to,"
        f" CASE WHEN t.retired_at IS NULL THEN CASE WHEN t.valid_to IS NULL THEN NULL ELSE 'stated' END"
        f" ELSE {ended_by} END, COALESCE(t.retired_at, f.created_at), 'migrated', NULL, NULL{source}",
        # the predicates a store superseded by were single-valued where it was written: declared
        "INSERT INTO declarations (space, at, setting, value, declared) SELECT t.space, MIN(f.created_at),"
        " 'single-valued', f.predicate, 1 FROM fact_times t JOIN facts f ON f.space = t.space AND"
        " f.hash = t.fact_hash WHERE t.retired_by IS NOT NULL AND t.retired_by <> 'retracted'"
        " GROUP BY t.space, f.predicate ORDER BY MIN(f.created_at), f.predicate",
        "DELETE FROM table_seals WHERE tbl = 'fact_times'",
        "DROP TABLE fact_times",
        seal_marker(3),
        PERIODS_PENDING,
    ]


def _pruned_by_fact(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """Pruned episodes by fact: maintenance never takes a fact's provenance away, so the queries
    that read a fact's episodes for it (`where source/scope`, `as of`, `history`) read the pruned
    ones too, by fact, as they read the live ones."""
    (index,) = (i for i in schema.tables["pruned_episodes"].indexes if i.name == "pruned_episodes_by_fact")
    out = [ddl(CreateIndex(index, if_not_exists=True), compiler)]
    return out + (statistics("pruned_episodes") if dialect == SQLITE else [])


def _tenants(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """Tenant roles share no writable state (`tenants`): each space's writers lock the space's own row
    (`zero_spaces`) instead of an advisory lock any role could take; the seal table's marker rows
    are read-only to every role; a role sees only its own grants; and every role granted a space
    keeps only what `zero_tenant_privileges` gives (no table-level write, no numbered column,
    deletes through `zero_delete`)."""
    return [
        *_tables(SPACES)(dialect, schema, compiler),
        "DROP POLICY zero_space ON table_seals",
        *policy("table_seals"),
        *policy(GRANTS),
        *tenants.statements(schema),
        tenants.regrant(),
    ]


def _tokens(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """The HTTP server's access tokens (`tables.tokens`): a table of its own, outside `schema`."""
    table = tokens(dialect).tables[TOKENS]
    out = [ddl(CreateTable(table), compiler)]
    return out + [ddl(CreateIndex(index), compiler) for index in sorted(table.indexes, key=_name)]


HISTORY: tuple[Step, ...] = (
    Step(1, "the first schema: concepts, aliases, contexts, facts, episodes", _raw(_V1), (SQLITE,)),
    Step(2, "the tiers: working memory, accesses, semantic memory", _raw(_V2), (SQLITE,)),
    Step(3, "the space in every key, and the pruned-episode log", _raw(_V3), (SQLITE,)),
    Step(4, "the planner statistics", _raw(_V4), (SQLITE,)),
    Step(5, "forgetting: tombstones and the keys they block", _tables("tombstones", "forgotten_keys")),
    Step(6, "bi-temporal facts: fact times and the fact history", _fact_times),
    Step(7, "each space's event log", _tables("space_log")),
    Step(8, "table seals", _seals),
    Step(9, "the archive's summary index", _summary_index),
    Step(10, "the fact-end indexes ranked by confidence", _ranked_ends),
    Step(11, "the second generation of table seals", lambda dialect, schema, compiler: [seal_marker(2)]),
    Step(12, "references the writer checks itself", _unchecked_references, (POSTGRESQL,)),
    Step(13, "validity periods and declarations", _periods),
    Step(14, "pruned episodes by fact", _pruned_by_fact),
    Step(
        15,
        "the fourth generation of table seals: the archive index and the access counts",
        lambda dialect, schema, compiler: [seal_marker(4)],
    ),
    Step(16, "tenant roles share no writable state", _tenants, (POSTGRESQL,)),
    Step(
        17, "the word index: concept labels by their words", lambda d, schema, compiler: words.statements(d)
    ),
    Step(18, "the HTTP server's access tokens, hashed", _tokens),
)
LATEST = HISTORY[-1].version
FIRST = {SQLITE: 0, POSTGRESQL: 4}
"""The version before an engine's first step: PostgreSQL stores began with step 4's schema."""


def create(dialect: str, schema: MetaData, compiler: Dialect) -> list[str]:
    """A new store at `LATEST`: every table with its indexes (parents first), PostgreSQL's row-level
    security and tenant functions, SQLite's planner statistics, and the marker rows that seal the
    (empty) tables."""
    out: list[str] = []
    # the grants first: every policy reads them
    for table in sorted(schema.sorted_tables, key=lambda table: table.name != GRANTS):
        out.extend(_tables(table.name)(dialect, schema, compiler))
    out += words.statements(dialect)
    out += _tokens(dialect, schema, compiler)
    if dialect == POSTGRESQL:
        out += tenants.statements(schema)
    if dialect == SQLITE:
        out += [
            "ANALYZE sqlite_schema",
            "DELETE FROM sqlite_stat1",
            *statistics(*schema.tables, replace=False),
        ]
    return [*out, seal_marker(1), seal_marker(2), seal_marker(3), seal_marker(4)]
