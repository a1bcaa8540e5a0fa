"""Conversation memory for agent runtimes (seed 003): restore, store each turn, prune, expire, search.

Entries live under the seed's keys, `agent:{name}:conversation` (the pruned
history) and `agent:{name}:turn:{n}` (each turn's metadata and messages), in
an `EntryStore`, which `zerolang.storage.open_conversations(location)` opens on any
engine (SQLite, PostgreSQL).
"""
