"""The shared backend: a PostgreSQL server through psycopg 3 (the `postgres` extra: `.[postgres]`)."""

from zerolang.storage.postgres.backend import PostgresBackend

__all__ = ["PostgresBackend"]
