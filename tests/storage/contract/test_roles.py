"""The backend's roles stay small and honest: `MemoryBackend` is exactly their union, no method is in
two of them, and both engines implement every one (nothing falls through to a protocol's stub)."""

from __future__ import annotations

from typing import Protocol

import pytest

from zerolang.knowledge.backend import MemoryBackend
from zerolang.storage.postgres.backend import PostgresBackend
from zerolang.storage.sqlite.backend import SqliteBackend

MOST_METHODS = 15
ROLES = [base for base in MemoryBackend.__bases__ if base is not Protocol]


def members(protocol: type) -> set[str]:
    """What a protocol class declares itself: its methods, properties and annotated attributes."""
    declared = {name for name in vars(protocol) if not name.startswith("_")}
    return declared | set(vars(protocol).get("__annotations__", {}))


def test_memory_backend_is_the_roles_and_nothing_else() -> None:
    assert len(ROLES) >= 5
    assert members(MemoryBackend) == set()
    assert all(getattr(role, "_is_protocol", False) for role in ROLES)


@pytest.mark.parametrize("role", ROLES, ids=lambda role: role.__name__)
def test_a_role_is_small(role: type) -> None:
    assert 1 <= len(members(role)) <= MOST_METHODS, sorted(members(role))


def test_every_method_belongs_to_exactly_one_role() -> None:
    owners: dict[str, list[str]] = {}
    for role in ROLES:
        for name in members(role):
            owners.setdefault(name, []).append(role.__name__)
    assert {name: roles for name, roles in owners.items() if len(roles) > 1} == {}
    assert sum(len(members(role)) for role in ROLES) == len(owners)


@pytest.mark.parametrize("engine", [SqliteBackend, PostgresBackend], ids=lambda engine: engine.__name__)
@pytest.mark.parametrize("role", ROLES, ids=lambda role: role.__name__)
def test_both_engines_implement_every_role(engine: type, role: type) -> None:
    assert role in engine.__mro__  # a storage mixin declares it
    for name in members(role):
        owner = next(cls for cls in engine.__mro__ if name in vars(cls))
        assert not getattr(owner, "_is_protocol", False), (
            f"{engine.__name__}.{name} is {owner.__name__}'s stub"
        )
