"""Inputs shared by the contract tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple, ingest, load_inputs

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "memory_input.json"
NOW = "2026-03-01T12:00:00.000Z"


def make_input(
    *tuples: tuple[str, str, str, float],
    event_time: str = "2026-02-18T00:00:00Z",
    scope: str = "design",
    source: str = "user_prompt",
    agent_id: str | None = None,
) -> CompilerInput:
    meta = ContextMeta(event_time, source, scope, agent_id)
    return CompilerInput(tuple(SemanticTuple(s, p, o, c) for s, p, o, c in tuples), meta)


def example(store: MemoryStore, now: str = NOW) -> None:
    ingest(store, load_inputs(EXAMPLE), now=now)


def as_role(url: str, role: str) -> str:
    """`url` logging in as `role` (the test server trusts every local role)."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{role}@{host}"))


def before_words(connection: sqlite3.Connection) -> None:
    """A SQLite store as it was before step 17 (the word index over concept labels), and so without
    what later steps made (step 18's access tokens)."""
    for trigger in ("concept_words_added", "concept_words_relabelled", "concept_words_dropped"):
        connection.execute(f"DROP TRIGGER {trigger}")
    connection.execute("DROP TABLE concept_fts")
    connection.execute("DROP TABLE concept_words")
    connection.execute("DROP TABLE access_tokens")
