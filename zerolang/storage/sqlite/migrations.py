"""The SQLite schema as numbered migrations; `PRAGMA user_version` is the schema version.

A file is brought up to `LATEST` when opened (each step in one transaction);
a file from a newer zerolang is refused. Version 1 is the first released
schema, 2 the tier tables (created on first use before they were numbered,
hence `IF NOT EXISTS`), 3 the space in every key and the pruned-episode log,
4 the planner statistics, `SEALS` the table seals, `MEMORY_INDEX` the archive's summary index,
`RANKED_ENDS` the confidence in the fact-end indexes.
"""

from __future__ import annotations

V1 = """
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

V2 = """
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

V3 = (
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
_STATS = {
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
V4 = "ANALYZE sqlite_schema;\nDELETE FROM sqlite_stat1;\n" + "".join(
    f"INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('{table}', '{index}', '{stat}');\n"
    for (table, index), stat in _STATS.items()
)


# (key columns first: SQLite 3.40's quick_check misreads a WITHOUT ROWID table otherwise)
# tombstones: what `zero memory forget` recorded; forgotten_keys: the hashes each one blocks
V_FORGET = """
CREATE TABLE tombstones (
    space        TEXT NOT NULL,
    hash         BLOB NOT NULL CHECK (length(hash) = 32),
    kind         TEXT NOT NULL,
    target       TEXT,
    created_at   TEXT NOT NULL,
    payload      TEXT,
    purged_at    TEXT,
    restored_at  TEXT,
    PRIMARY KEY (space, hash)
) WITHOUT ROWID;
CREATE TABLE forgotten_keys (
    space      TEXT NOT NULL,
    key        BLOB NOT NULL CHECK (length(key) = 32),
    tombstone  BLOB NOT NULL,
    kind       TEXT NOT NULL,
    PRIMARY KEY (space, key, tombstone)
) WITHOUT ROWID;
CREATE INDEX forgotten_keys_by_tombstone ON forgotten_keys (space, tombstone);
"""

# fact_times: a fact's validity in the world and its retirement in the store, where not the
# defaults (valid from its first episode's event time, learned when stored, never retired);
# fact_events: the append-only history `zero memory history` shows
V_TEMPORAL = """
CREATE TABLE fact_times (
    space       TEXT NOT NULL,
    fact_hash   BLOB NOT NULL,
    valid_from  TEXT,
    valid_to    TEXT,
    retired_at  TEXT,
    retired_by  TEXT,
    PRIMARY KEY (space, fact_hash)
) WITHOUT ROWID;
CREATE TABLE fact_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    space       TEXT NOT NULL,
    fact_hash   BLOB NOT NULL,
    kind        TEXT NOT NULL,
    at          TEXT NOT NULL,
    valid_from  TEXT,
    valid_to    TEXT,
    confidence  DOUBLE PRECISION,
    detail      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX fact_events_by_fact ON fact_events (space, fact_hash, id);
"""

# space_log: each space's append-only event log (ingests that changed something, forgets,
# restores, purges, retractions, received bundles); hashes and counts only, never labels
V_LOG = """
CREATE TABLE space_log (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    space    TEXT NOT NULL,
    at       TEXT NOT NULL,
    kind     TEXT NOT NULL,
    subject  BLOB NOT NULL,
    detail   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX space_log_by_space ON space_log (space, seq);
"""

_NO_DIGEST = "0" * 64  # the digest column of a marker row

# Table seals (`zerolang.knowledge.integrity`): per space and table, the row count and digest sum
# every write keeps; the backend fills it from the rows once, when it opens a store without it.
SEALS = f"""
CREATE TABLE IF NOT EXISTS table_seals (
    space   TEXT NOT NULL,
    tbl     TEXT NOT NULL,
    row_count  INTEGER NOT NULL,
    digest  TEXT NOT NULL,
    PRIMARY KEY (space, tbl)
) WITHOUT ROWID;
INSERT INTO table_seals (space, tbl, row_count, digest) VALUES ('', '*pending:1*', 0, '{_NO_DIGEST}')
    ON CONFLICT DO NOTHING;
"""

# Version 5: the archive's summary index (`memory_index` of seed 004), keyed by space like every
# table. The time axis is the calendar `day`; t_x is computed from it when read, never stored.
MEMORY_INDEX = """
CREATE TABLE memory_index (
    space               TEXT NOT NULL,
    hash                TEXT NOT NULL CHECK (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'),
    summary             TEXT NOT NULL CHECK (length(trim(summary)) > 0),
    day                 TEXT NOT NULL CHECK (date(day, '+0 days') = day),
    y_privacy           INTEGER NOT NULL
                        CHECK (typeof(y_privacy) = 'integer' AND y_privacy BETWEEN -15 AND 15),
    z_abstraction       INTEGER NOT NULL
                        CHECK (typeof(z_abstraction) = 'integer' AND z_abstraction BETWEEN -15 AND 15),
    cluster_id          TEXT,
    decay_score         REAL NOT NULL CHECK (decay_score BETWEEN 0.0 AND 1.0),
    reinforcement_count INTEGER NOT NULL CHECK (reinforcement_count >= 0),
    last_accessed_at    TEXT,
    consent_scope       TEXT NOT NULL CHECK (length(consent_scope) > 0),
    consent_flags       TEXT NOT NULL,
    source_session      TEXT,
    source_channel      TEXT NOT NULL CHECK (length(source_channel) > 0),
    created_at          TEXT NOT NULL,
    PRIMARY KEY (space, hash)
) WITHOUT ROWID;
CREATE INDEX memory_index_by_day ON memory_index (space, day, created_at);
CREATE INDEX memory_index_by_channel ON memory_index (space, source_channel, day);
""" + "".join(
    f"INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('memory_index', '{index}', '{stat}');\n"
    for index, stat in (
        ("memory_index", "100000 100000 1"),
        ("memory_index_by_day", "100000 100000 10 2"),
        ("memory_index_by_channel", "100000 100000 1000 10"),
    )
)

# Version 10: the fact-end indexes are ordered by confidence and cover a traversal's edge (the
# fact hash comes with the primary key), so that recall reads a hub's most confident facts, or
# those above a floor, as one index range, without a table page per fact.
RANKED_ENDS = """
DROP INDEX facts_by_subject;
DROP INDEX facts_by_object;
CREATE INDEX facts_by_subject ON facts (space, subject_hash, confidence, object_hash, predicate);
CREATE INDEX facts_by_object ON facts (space, object_hash, confidence, subject_hash, predicate);
DELETE FROM sqlite_stat1 WHERE tbl = 'facts' AND idx IN ('facts_by_subject', 'facts_by_object');
INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('facts', 'facts_by_subject', '1000000 1000000 4 1 1 1');
INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('facts', 'facts_by_object', '1000000 1000000 4 1 1 1');
"""

# The second generation of the seals (`integrity.GENERATIONS`): the history (fact_times,
# fact_events), the space log, semantic memory and the tombstones. Opening the store seals them
# from their rows, once, when it finds this row.
SEALS_2 = f"""
INSERT INTO table_seals (space, tbl, row_count, digest) VALUES ('', '*pending:2*', 0, '{_NO_DIGEST}')
    ON CONFLICT DO NOTHING;
"""

MIGRATIONS: tuple[str, ...] = (
    V1,
    V2,
    V3,
    V4,
    V_FORGET,
    V_TEMPORAL,
    V_LOG,
    SEALS,
    MEMORY_INDEX,
    RANKED_ENDS,
    SEALS_2,
)  # MIGRATIONS[n - 1] takes version n - 1 to n
LATEST = len(MIGRATIONS)


def statements(script: str) -> list[str]:
    """A migration's statements (none of them holds a `;` of its own)."""
    return [statement.strip() for statement in script.split(";") if statement.strip()]
