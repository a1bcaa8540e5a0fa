"""The memory store's schema, once, for every engine: SQLAlchemy Core tables, rendered per dialect.

This is the one definition of every table, column, key, check and index a memory
store has (`metadata(dialect)`); what differs between engines is a handful of
choices made here by name, each with its reason:

- **types**: hashes are `BLOB` / `BYTEA`, numbers `REAL` / `DOUBLE PRECISION`, and
  PostgreSQL counts in `BIGINT`;
- **SQLite tables are `WITHOUT ROWID`** where the key is the content hash, and its
  append-only logs use `AUTOINCREMENT` (an id is never reused);
- **PostgreSQL keeps no foreign keys on facts and episodes** (schema 12: a trigger per
  inserted row made an ingest three to four times slower; the writer inserts parents
  first under the space's lock and `zero memory check` resolves every reference);
  SQLite declares them (checked by `check` and `PRAGMA foreign_key_check`);
- **the fact-end indexes** cover a traversal's edge: SQLite with the columns in the key,
  PostgreSQL with `INCLUDE`;
- **the summary index's checks** say "64 lower-case hex digits" and "a calendar date"
  in each engine's own functions, and PostgreSQL orders its text columns as code points
  (`COLLATE "C"`), as `zerolang.archive.index.order_key` does;
- **row-level security** (PostgreSQL): every table holding a space's rows admits only the
  roles granted that space in `zero_space_grants` (`RLS_TABLES`);
- **planner statistics** (SQLite): `sqlite_stat1` rows that describe the shape every store
  has, so the planner never takes a key's leading `space` for a scan (`STATISTICS`).

Only the renderer (`zerolang.storage.schema.render`) imports this module, at development
time: the engines run the rendered statements (`rendered.json`), so opening or creating a
store never imports SQLAlchemy. `tests/storage/test_schema.py` renders it again and checks
that the file is what this module says.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    ForeignKeyConstraint,
    Identity,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.schema import SchemaItem
from sqlalchemy.types import DOUBLE_PRECISION, REAL, TypeEngine

from zerolang.knowledge.integrity import MARKER_SPACE
from zerolang.storage.schema import GRANTS as GRANTS  # named here too, where the tables are

SQLITE = "sqlite"
POSTGRESQL = "postgresql"
DIALECTS = (SQLITE, POSTGRESQL)


TOKENS = "access_tokens"
"""The bearer tokens `zero mcp --http` admits (`tokens`): not a space's rows, the store owner's alone."""

SPACES = "zero_spaces"
"""PostgreSQL: one row per space written, which its writers lock (`PostgresBackend.write`)."""

_POLICY = "space IN (SELECT g.space FROM zero_space_grants g WHERE g.role_name = current_user)"

# The planner statistics SQLite starts every store with: (table, index) -> `sqlite_stat1.stat`.
STATISTICS: dict[tuple[str, str], str] = {
    ("concepts", "concepts"): "1000000 1000000 1",
    ("concept_aliases", "sqlite_autoindex_concept_aliases_1"): "1000000 1000000 2 1",
    ("concept_aliases", "concept_aliases_by_key"): "1000000 1000000 2",
    ("contexts", "contexts"): "1000000 1000000 1",
    ("facts", "facts"): "1000000 1000000 1",
    ("facts", "facts_by_subject"): "1000000 1000000 4 1 1 1",
    ("facts", "facts_by_object"): "1000000 1000000 4 1 1 1",
    ("episodes", "episodes"): "1000000 1000000 1",
    ("episodes", "episodes_by_fact"): "1000000 1000000 2",
    ("working_items", "working_items_by_session"): "1000 1000 20 1",
    ("episode_access", "episode_access"): "1000000 1000000 1",
    ("semantic_facts", "semantic_facts"): "100000 100000 1",
    ("semantic_sources", "semantic_sources"): "100000 100000 1",
    ("pruned_episodes", "pruned_episodes"): "100000 100000 1",
    ("pruned_episodes", "pruned_episodes_by_fact"): "100000 100000 2",
    ("memory_index", "memory_index"): "100000 100000 1",
    ("memory_index", "memory_index_by_day"): "100000 100000 10 2",
    ("memory_index", "memory_index_by_channel"): "100000 100000 1000 10",
}

NO_DIGEST = "0" * 64
"""The digest column of a seal table's marker row."""


class _Engine:
    """The few column types and expressions that differ between the dialects."""

    def __init__(self, dialect: str) -> None:
        if dialect not in DIALECTS:
            raise ValueError(f"no such dialect: {dialect}")
        self.dialect = dialect
        self.sqlite = dialect == SQLITE
        self.bytes: TypeEngine[bytes] = LargeBinary()
        self.real: TypeEngine[float] = REAL() if self.sqlite else DOUBLE_PRECISION()
        self.count: TypeEngine[int] = Integer() if self.sqlite else BigInteger()
        self.octets = "length" if self.sqlite else "octet_length"

    def table(self, metadata: MetaData, name: str, *items: SchemaItem) -> Table:
        """A content-keyed table: on SQLite `WITHOUT ROWID` (its rows live in the key's B-tree)."""
        if self.sqlite:
            return Table(name, metadata, *items, sqlite_with_rowid=False)
        return Table(name, metadata, *items)

    def digest(self, name: str, *, key: bool = True) -> Column[bytes]:
        """A SHA-256 digest column (32 bytes, checked where it is the row's own key)."""
        checks = (CheckConstraint(f"{self.octets}({name}) = 32"),) if key else ()
        return Column(name, self.bytes, *checks, nullable=False)

    def confidence(self) -> Column[float]:
        return Column(
            "confidence", self.real, CheckConstraint("confidence BETWEEN 0.0 AND 1.0"), nullable=False
        )

    def serial(self, name: str, *, identity: bool = False) -> Column[int]:
        """An append-only id: SQLite's rowid (`INTEGER PRIMARY KEY`, never NULL, so not declared so;
        AUTOINCREMENT is set on the table where an id must never be reused); on PostgreSQL an
        identity column (the first schema's tables) or a BIGSERIAL (the logs, added later)."""
        if self.sqlite:
            return Column(name, Integer(), primary_key=True, nullable=True, autoincrement=True)
        generated = (Identity(always=False),) if identity else ()
        return Column(name, BigInteger(), *generated, primary_key=True, autoincrement=True)


def _text(name: str, *, nullable: bool = False, collate: str | None = None) -> Column[str]:
    return Column(name, Text(collation=collate), nullable=nullable)


def metadata(dialect: str) -> MetaData:
    """Every table of a memory store at the latest schema, as `dialect` keeps it."""
    engine = _Engine(dialect)
    schema = MetaData()
    sqlite, digest, table = engine.sqlite, engine.digest, engine.table

    def references(
        columns: list[str], target: str, keys: list[str], *, always: bool = False
    ) -> list[SchemaItem]:
        """A foreign key (space first), declared where the engine keeps them (see the module docs)."""
        if not (sqlite or always):
            return []
        remote = [f"{target}.space", *(f"{target}.{key}" for key in keys)]
        return [ForeignKeyConstraint(["space", *columns], remote)]

    def episode_columns() -> list[SchemaItem]:
        """An episode's columns: the observation of a fact in a context, with its confidence."""
        return [
            _text("space"),
            digest("hash"),
            digest("fact_hash", key=False),
            digest("context_hash", key=False),
            engine.confidence(),
            _text("created_at"),
        ]

    if not sqlite:
        Table(
            GRANTS,
            schema,
            _text("role_name"),
            _text("space"),
            PrimaryKeyConstraint("role_name", "space"),
        )
        Table(SPACES, schema, _text("space"), PrimaryKeyConstraint("space"))
    table(
        schema,
        "concepts",
        _text("space"),
        digest("hash"),
        _text("label"),
        engine.confidence(),
        _text("created_at"),
        _text("updated_at"),
        PrimaryKeyConstraint("space", "hash"),
    )
    aliases = Table(
        "concept_aliases",
        schema,
        engine.serial("id", identity=True),
        _text("space"),
        digest("concept_hash", key=False),
        _text("alias"),
        _text("alias_key"),
        UniqueConstraint("space", "concept_hash", "alias"),
        *references(["concept_hash"], "concepts", ["hash"], always=True),
    )
    Index("concept_aliases_by_key", aliases.c.space, aliases.c.alias_key)
    table(
        schema,
        "contexts",
        _text("space"),
        digest("hash"),
        _text("event_time"),
        _text("source"),
        _text("scope"),
        _text("agent_id", nullable=True),
        _text("session_id", nullable=True),
        Column("metadata", Text(), nullable=False, server_default="{}"),
        _text("created_at"),
        PrimaryKeyConstraint("space", "hash"),
    )
    facts = table(
        schema,
        "facts",
        _text("space"),
        digest("hash"),
        digest("subject_hash", key=False),
        _text("predicate"),
        digest("object_hash", key=False),
        engine.confidence(),
        Column("observations", Integer(), CheckConstraint("observations > 0"), nullable=False),
        _text("created_at"),
        _text("updated_at"),
        PrimaryKeyConstraint("space", "hash"),
        *references(["subject_hash"], "concepts", ["hash"]),
        *references(["object_hash"], "concepts", ["hash"]),
    )
    for end, other in (("subject", "object"), ("object", "subject")):
        columns = (facts.c.space, facts.c[f"{end}_hash"], facts.c.confidence)
        if sqlite:
            Index(f"facts_by_{end}", *columns, facts.c[f"{other}_hash"], facts.c.predicate)
        else:
            Index(f"facts_by_{end}", *columns, postgresql_include=[f"{other}_hash", "predicate", "hash"])
    episodes = table(
        schema,
        "episodes",
        *episode_columns(),
        PrimaryKeyConstraint("space", "hash"),
        *references(["fact_hash"], "facts", ["hash"]),
        *references(["context_hash"], "contexts", ["hash"]),
    )
    Index("episodes_by_fact", episodes.c.space, episodes.c.fact_hash)
    working = Table(
        "working_items",
        schema,
        engine.serial("id", identity=True),
        _text("space"),
        _text("session"),
        digest("episode_hash"),
        _text("added_at"),
        sqlite_autoincrement=sqlite,
    )
    Index("working_items_by_session", working.c.space, working.c.session, working.c.id)
    table(
        schema,
        "episode_access",
        _text("space"),
        digest("episode_hash"),
        Column("access_count", Integer(), CheckConstraint("access_count >= 0"), nullable=False),
        _text("last_access"),
        PrimaryKeyConstraint("space", "episode_hash"),
    )
    table(
        schema,
        "semantic_facts",
        _text("space"),
        digest("fact_hash", key=False),
        engine.confidence(),
        Column("observations", Integer(), CheckConstraint("observations > 0"), nullable=False),
        _text("first_seen"),
        _text("last_reinforced"),
        PrimaryKeyConstraint("space", "fact_hash"),
        *references(["fact_hash"], "facts", ["hash"], always=True),
    )
    table(
        schema,
        "semantic_sources",
        _text("space"),
        digest("episode_hash", key=False),
        digest("fact_hash", key=False),
        PrimaryKeyConstraint("space", "episode_hash"),
        *references(["fact_hash"], "semantic_facts", ["fact_hash"], always=True),
    )
    pruned = table(
        schema,
        "pruned_episodes",
        *episode_columns(),  # an episode, and when and why it was pruned
        _text("pruned_at"),
        _text("reason"),
        PrimaryKeyConstraint("space", "hash"),
        *references(["fact_hash"], "facts", ["hash"], always=True),
        *references(["context_hash"], "contexts", ["hash"], always=True),
    )
    # a pruned episode is still its fact's provenance: `where source/scope`, `as of`, `history` read it
    Index("pruned_episodes_by_fact", pruned.c.space, pruned.c.fact_hash)
    _forgetting(engine, schema)
    _history(engine, schema)
    _seals(engine, schema)
    _summary_index(engine, schema)
    return schema


def _forgetting(engine: _Engine, schema: MetaData) -> None:
    """What `zero memory forget` recorded (tombstones), and the hashes each one blocks."""
    digest = engine.digest
    engine.table(
        schema,
        "tombstones",
        _text("space"),
        digest("hash"),
        _text("kind"),
        _text("target", nullable=True),
        _text("created_at"),
        _text("payload", nullable=True),
        _text("purged_at", nullable=True),
        _text("restored_at", nullable=True),
        PrimaryKeyConstraint("space", "hash"),
    )
    keys = engine.table(
        schema,
        "forgotten_keys",
        _text("space"),
        digest("key"),
        digest("tombstone", key=False),
        _text("kind"),
        PrimaryKeyConstraint("space", "key", "tombstone"),
    )
    Index("forgotten_keys_by_tombstone", keys.c.space, keys.c.tombstone)


def _history(engine: _Engine, schema: MetaData) -> None:
    """Each fact's validity periods where not the default (one open period from its first episode's
    event time, recorded when the fact was), each recorded and closed at a store time
    (`zerolang.knowledge.temporal`); the append-only fact history; the settings a space declared
    (single-valued predicates); and each space's event log (hashes and counts only, never labels)."""
    periods = Table(
        "fact_periods",
        schema,
        engine.serial("id"),
        _text("space"),
        engine.digest("fact_hash", key=False),
        _text("valid_from"),
        _text("valid_to", nullable=True),
        _text("ended_by", nullable=True),
        _text("recorded_at"),
        _text("recorded_by"),
        _text("closed_at", nullable=True),
        _text("closed_by", nullable=True),
        sqlite_autoincrement=engine.sqlite,
    )
    Index("fact_periods_by_fact", periods.c.space, periods.c.fact_hash, periods.c.id)
    Table(
        "declarations",
        schema,
        engine.serial("seq"),
        _text("space"),
        _text("at"),
        _text("setting"),
        _text("value"),
        Column("declared", Integer(), CheckConstraint("declared IN (0, 1)"), nullable=False),
        sqlite_autoincrement=engine.sqlite,
    )
    events = Table(
        "fact_events",
        schema,
        engine.serial("id"),
        _text("space"),
        engine.digest("fact_hash", key=False),
        _text("kind"),
        _text("at"),
        _text("valid_from", nullable=True),
        _text("valid_to", nullable=True),
        Column("confidence", DOUBLE_PRECISION(), nullable=True),
        Column("detail", Text(), nullable=False, server_default=""),
        sqlite_autoincrement=engine.sqlite,
    )
    Index("fact_events_by_fact", events.c.space, events.c.fact_hash, events.c.id)
    log = Table(
        "space_log",
        schema,
        engine.serial("seq"),
        _text("space"),
        _text("at"),
        _text("kind"),
        engine.digest("subject", key=False),
        Column("detail", Text(), nullable=False, server_default=""),
        sqlite_autoincrement=engine.sqlite,
    )
    Index("space_log_by_space", log.c.space, log.c.seq)


def _seals(engine: _Engine, schema: MetaData) -> None:
    """Per space and table, the row count and digest sum every write keeps (`knowledge.integrity`)."""
    engine.table(
        schema,
        "table_seals",
        _text("space"),
        _text("tbl"),
        Column("row_count", engine.count, nullable=False),
        _text("digest"),
        PrimaryKeyConstraint("space", "tbl"),
    )


def _summary_index(engine: _Engine, schema: MetaData) -> None:
    """The archive's summary index (`memory_index` of seed 004). The time axis is the calendar
    `day`; t_x is computed from it when read, never stored."""
    code_points = None if engine.sqlite else "C"
    if engine.sqlite:
        hex_digest = "length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'"
        a_date = "date(day, '+0 days') = day"
        whole = "typeof({0}) = 'integer' AND {0} BETWEEN -15 AND 15"
        trimmed = "length(trim(summary)) > 0"
    else:
        hex_digest = "hash ~ '^[0-9a-f]{64}$'"
        a_date = "day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' AND to_char(day::date, 'YYYY-MM-DD') = day"
        whole = "{0} BETWEEN -15 AND 15"
        trimmed = "length(btrim(summary)) > 0"
    index = engine.table(
        schema,
        "memory_index",
        _text("space"),
        Column("hash", Text(collation=code_points), CheckConstraint(hex_digest), nullable=False),
        Column("summary", Text(), CheckConstraint(trimmed), nullable=False),
        Column("day", Text(collation=code_points), CheckConstraint(a_date), nullable=False),
        Column("y_privacy", Integer(), CheckConstraint(whole.format("y_privacy")), nullable=False),
        Column("z_abstraction", Integer(), CheckConstraint(whole.format("z_abstraction")), nullable=False),
        _text("cluster_id", nullable=True),
        Column(
            "decay_score", engine.real, CheckConstraint("decay_score BETWEEN 0.0 AND 1.0"), nullable=False
        ),
        Column("reinforcement_count", Integer(), CheckConstraint("reinforcement_count >= 0"), nullable=False),
        _text("last_accessed_at", nullable=True),
        Column("consent_scope", Text(), CheckConstraint("length(consent_scope) > 0"), nullable=False),
        _text("consent_flags"),
        _text("source_session", nullable=True),
        Column("source_channel", Text(), CheckConstraint("length(source_channel) > 0"), nullable=False),
        _text("created_at", collate=code_points),
        PrimaryKeyConstraint("space", "hash"),
    )
    Index("memory_index_by_day", index.c.space, index.c.day, index.c.created_at)
    Index("memory_index_by_channel", index.c.space, index.c.source_channel, index.c.day)


def tokens(dialect: str) -> MetaData:
    """The access tokens of the memory's HTTP server (`zero mcp token`), as `dialect` keeps them: each
    the SHA-256 `digest` of a bearer token (never the token), a short public `id` (the digest's first
    hex digits), a `name`, the one `space` it reaches, whether it is `read_only`, and when it was
    made, expires and was revoked. Kept apart from `metadata`: the table holds no space's facts, so
    it is in no space's tables, has no row-level security and no tenant role may read or write it
    (only the store's owner, who manages the tokens)."""
    engine = _Engine(dialect)
    schema = MetaData()
    engine.table(
        schema,
        TOKENS,
        engine.digest("digest"),
        _text("id"),
        _text("name"),
        _text("space"),
        Column("read_only", Integer(), CheckConstraint("read_only IN (0, 1)"), nullable=False),
        _text("created_at"),
        _text("expires_at", nullable=True),
        _text("revoked_at", nullable=True),
        PrimaryKeyConstraint("digest"),
        UniqueConstraint("id"),
    )
    return schema


def serials(table: Table) -> list[str]:
    """The columns of `table` a sequence numbers (`_Engine.serial`): no tenant role writes them, so
    none can take a number ahead of the sequence and make another space's insert collide."""
    return [column.name for column in table.columns if column.primary_key and column.autoincrement is True]


def policy(table: str) -> list[str]:
    """PostgreSQL: the statements that admit to `table` only the rows of the spaces granted to the
    role, for every command; the seal table's marker rows (space '') are readable by every role and
    written by none (only the tables' owner, whom row-level security does not bind); a role sees
    only its own grants."""
    if table == GRANTS:
        return [
            f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
            f"CREATE POLICY zero_own ON {table} USING (role_name = current_user)"
            " WITH CHECK (role_name = current_user)",
        ]
    statements = [
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY zero_space ON {table} USING ({_POLICY}) WITH CHECK ({_POLICY})",
    ]
    if table == "table_seals":
        statements.append(
            f"CREATE POLICY zero_markers ON {table} FOR SELECT USING (space = '{MARKER_SPACE}')"
        )
    return statements
