"""The word index of a memory store: concept labels (so fact values and observations, which are
concepts) by their words, for questions asked in plain words (`zerolang.knowledge.asking`).

Both engines derive it from the `concepts` rows, in the store, so every write path (an ingest,
a bulk load, a copy, a forget's deletes) keeps it as the rows are, and a purged label leaves it:

- **SQLite**: an FTS5 table `concept_fts` (tokenized `porter unicode61` without diacritics, as
  the experience store's tables are) over each concept's label, whose rowid is the concept's
  number in `concept_words` (keyed by space and hash); triggers on `concepts` add, relabel and
  drop them. A purge then merges the index (`optimize`), which rewrites it without the deleted
  entries, before the file is vacuumed (`SqliteBackend.erase_freed`).
- **PostgreSQL**: a generated `tsvector` column `words` on `concepts` (`english`: stemmed,
  stopwords dropped) with a GIN index; a deleted row's entries go when the table is vacuumed.

Schema step 17 makes it and fills it from the concepts already stored; a new store is created
with it (`history.create`).
"""

from __future__ import annotations

from zerolang.storage.schema.tables import POSTGRESQL, SQLITE

_TOKENS = "tokenize='porter unicode61 remove_diacritics 2'"
_NUMBER = "(SELECT id FROM concept_words WHERE space = {0}.space AND hash = {0}.hash)"

_SQLITE = [
    "CREATE TABLE concept_words ( id INTEGER PRIMARY KEY, space TEXT NOT NULL, hash BLOB NOT NULL,"
    " UNIQUE (space, hash) )",
    f"CREATE VIRTUAL TABLE concept_fts USING fts5(label, {_TOKENS})",
    # a concept row is inserted once (its key is new): its number is the one just taken
    "CREATE TRIGGER concept_words_added AFTER INSERT ON concepts BEGIN"
    " INSERT INTO concept_words (space, hash) VALUES (new.space, new.hash);"
    " INSERT INTO concept_fts (rowid, label) VALUES (last_insert_rowid(), new.label); END",
    "CREATE TRIGGER concept_words_relabelled AFTER UPDATE OF label ON concepts BEGIN"
    f" UPDATE concept_fts SET label = new.label WHERE rowid = {_NUMBER.format('new')}; END",
    "CREATE TRIGGER concept_words_dropped AFTER DELETE ON concepts BEGIN"
    f" DELETE FROM concept_fts WHERE rowid = {_NUMBER.format('old')};"
    " DELETE FROM concept_words WHERE space = old.space AND hash = old.hash; END",
    "INSERT INTO concept_words (space, hash) SELECT space, hash FROM concepts ORDER BY space, hash",
    "INSERT INTO concept_fts (rowid, label) SELECT w.id, c.label FROM concept_words w"
    " JOIN concepts c ON c.space = w.space AND c.hash = w.hash ORDER BY w.id",
]

_POSTGRESQL = [
    "ALTER TABLE concepts ADD COLUMN words tsvector GENERATED ALWAYS AS (to_tsvector('english', label))"
    " STORED",
    "CREATE INDEX concepts_by_words ON concepts USING gin (words)",
]


def statements(dialect: str) -> list[str]:
    """What makes (and fills) the word index on `dialect`."""
    return {SQLITE: _SQLITE, POSTGRESQL: _POSTGRESQL}[dialect]
