"""The first batch into an empty space skips the look-ups a batch makes before it plans
(`Records._filled`): a table with no row in the space holds none of the batch's keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.storage.contract.helpers import make_input
from zerolang.knowledge.formats import checkpoint
from zerolang.memory import MemoryStore, ingest
from zerolang.storage.sql.records import Records


def inputs() -> list[Any]:
    return [
        make_input(("tea", "grows in", "assam", 0.8), ("tea", "is a", "drink", 0.9), scope=f"r{i}")
        for i in range(3)
    ]


def count_lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    tables: list[str] = []
    existing: Callable[..., set[bytes]] = Records._existing
    sealed: Callable[..., list[Any]] = Records.sealed_rows

    def spy_existing(self: Records, table: str, keys: Any) -> set[bytes]:
        if keys:
            tables.append(table)
        return existing(self, table, keys)

    def spy_sealed(self: Records, table: str, keys: Any, column: str = "hash") -> list[Any]:
        tables.append(table)
        return sealed(self, table, keys, column)

    monkeypatch.setattr(Records, "_existing", spy_existing)
    monkeypatch.setattr(Records, "sealed_rows", spy_sealed)
    return tables


def test_a_space_filled_elsewhere_is_still_empty_and_stores_the_same(
    open_store: Callable[..., MemoryStore], space: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = open_store(f"{space}-other")
    ingest(other, inputs())
    looked_up = count_lookups(monkeypatch)
    store = open_store()
    first = ingest(store, inputs())
    assert looked_up == []  # the space was empty: nothing to look up, whatever the other space holds
    assert (first.new_concepts, first.new_facts, first.new_episodes) == (3, 2, 6)
    assert checkpoint.of_store(store) == checkpoint.of_store(other)  # hashes do not depend on the space
    again = ingest(store, [*inputs(), make_input(("tea", "grows in", "assam", 0.4), scope="r9")])
    assert set(looked_up) >= {"episodes", "concepts", "facts", "contexts"}
    assert (again.duplicates, again.new_episodes, again.new_facts) == (6, 1, 0)
    assert store.check().ok and other.check().ok
