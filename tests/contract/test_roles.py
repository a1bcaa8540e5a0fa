"""The backend's roles stay small and honest: `MemoryBackend` is exactly their union, and no method
is in two of them."""

from __future__ import annotations

from typing import Protocol

import pytest

from zerolang.knowledge.backend import MemoryBackend

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
