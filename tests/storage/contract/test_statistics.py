"""A bulk load refreshes the planner's statistics where the engine keeps them (PostgreSQL's ANALYZE),
so recall right after a first big ingest is planned for the tables as they are, not as empty."""

from __future__ import annotations

import os
from typing import Any

import pytest

from zerolang import storage
from zerolang.knowledge.compiler import compile_records
from zerolang.knowledge.store import STATISTICS_FROM
from zerolang.memory import CompilerInput, ContextMeta, MemoryStore, SemanticTuple


def records(count: int, tag: str) -> list[Any]:
    inputs = [
        CompilerInput(
            (SemanticTuple(f"{tag} {n}", "needs", f"{tag} {n + 1}", 0.8),),
            ContextMeta("2026-02-18T00:00:00Z", "bench", f"{tag}{n}"),
        )
        for n in range(count)
    ]
    return compile_records(inputs)


def test_only_a_bulk_load_refreshes_the_statistics(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int | None] = []
    kind = type(store.backend)
    original = kind.refresh_statistics

    def refresh(self: Any, added: int | None = None) -> None:
        calls.append(added)
        original(self, added)

    monkeypatch.setattr(kind, "refresh_statistics", refresh)
    store.insert_records(records(10, "small"), verify=False)
    assert calls == []
    store.insert_records(records(STATISTICS_FROM, "bulk"), batch_size=400, verify=False)
    assert calls == [STATISTICS_FROM]
    assert store.check().ok


def test_postgres_analyses_only_when_the_planner_is_a_tenth_off(postgres_url: str) -> None:
    """On a fresh database: the first bulk load analyses (the planner had never seen the tables);
    a later load of under a tenth of the episodes does not; `refresh_statistics()` always does."""
    import psycopg

    name = f"zt_statistics_{os.getpid()}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    url = postgres_url.rpartition("/")[0] + f"/{name}"

    def believed(store: MemoryStore) -> float:
        row = store.backend.connection.execute(  # type: ignore[attr-defined]
            "SELECT reltuples FROM pg_class WHERE oid = to_regclass('episodes')"
        ).fetchone()
        return float(row[0])

    try:
        with storage.open_store(url) as store:
            assert believed(store) < 0  # never analysed
            store.insert_records(records(STATISTICS_FROM * 2, "first"), verify=False)
            assert believed(store) == STATISTICS_FROM * 2
            store.insert_records(records(STATISTICS_FROM, "second")[: STATISTICS_FROM // 10], verify=False)
            assert believed(store) == STATISTICS_FROM * 2  # too few to matter: not analysed again
            store.backend.refresh_statistics()
            assert believed(store) == STATISTICS_FROM * 2 + STATISTICS_FROM // 10
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
