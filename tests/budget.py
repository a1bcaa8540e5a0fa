"""Example budgets relative to the hypothesis profile (tests/conftest.py).

A property test that needs more examples than the profile's default asks for
`scaled(n)`: `n` examples per 100 of the profile's `max_examples`, so the `ci`
and `dev` profiles (50) run half of `n` and `long` (5,000) fifty times `n`.
"""

from __future__ import annotations

from hypothesis import settings


def scaled(examples: int) -> int:
    return max(10, examples * settings.default.max_examples // 100)
