"""A fact's claims come back in one order, whatever table, engine or page holds them, and what is
made of them does not hang on the order they come in.

Two episodes of one fact that open the same period at the same store time tie as "the first claim":
the history named one of them by the order the rows came back in, which PostgreSQL's heap (or a
pruned episode moved to its own table) can change, so a maintained store could tell its history
otherwise (found by `test_time_and_history_answers_are_the_same_after_maintenance`).
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.storage.contract.test_maintenance_keeps_the_past import Observe, build, day
from zerolang import storage
from zerolang.knowledge.history import concept_history
from zerolang.memory import fact_hash

TIED = [
    Observe(
        (("bob", "works_at", "bob", 0.3),), "2000-01-01T00:00:00Z", source, scope, 0, ("1850-01-01", None)
    )
    for source, scope in (("user_prompt", "home"), ("encyclopedia", "history"))
]


def _space() -> str:
    return f"k-{secrets.token_hex(6)}"


def test_claims_come_by_fact_then_store_time_then_episode(location: str) -> None:
    # one fact told at day 5, then (said later) at day 1: its rows stored out of store-time order
    steps = [
        Observe((("bob", "works_at", "acme", 0.8),), said, "user_prompt", "home", learned, None)
        for said, learned in (("2001-01-01T00:00:00Z", 5), ("2001-02-01T00:00:00Z", 1))
    ] + TIED
    with storage.open_store(location, space=_space(), create=True) as store:
        build(store, steps)
        keys = [fact_hash("bob", "works_at", "acme").digest, fact_hash("bob", "works_at", "bob").digest]
        rows = store.backend.claims(keys)
        assert len(rows) == 4
        assert [row.created_at for row in rows if row.fact == keys[0]] == [day(1), day(5)]
        assert rows == sorted(rows, key=lambda row: (row.fact, row.created_at, row.episode))


@pytest.mark.parametrize("order", [list, lambda rows: list(reversed(rows))])
def test_a_history_does_not_hang_on_the_order_claims_come_in(
    location: str, order: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with storage.open_store(location, space=_space(), create=True) as store:
        build(store, TIED)
        expected = [entry.to_json() for entry in concept_history(store, "bob")]
        claims = type(store.backend).claims
        monkeypatch.setattr(type(store.backend), "claims", lambda self, facts: order(claims(self, facts)))
        assert [entry.to_json() for entry in concept_history(store, "bob")] == expected
        (entry,) = expected
        (period,) = entry["periods"]
        lower = min(
            row.episode for row in claims(store.backend, [fact_hash("bob", "works_at", "bob").digest])
        )
        assert f"(episode {lower.hex()[:12]})" in str(period["recorded_by"])
