"""The shared backend: a PostgreSQL server through psycopg 3 (`pip install "zerolang[postgres]"`)."""

from zerolang.memory.backends.postgres.backend import PostgresBackend

__all__ = ["PostgresBackend"]
