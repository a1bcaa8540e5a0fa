"""The embedded backend: one SQLite file (WAL, foreign keys on) or `:memory:`."""

from zerolang.memory.backends.sqlite.backend import SqliteBackend

__all__ = ["SqliteBackend"]
