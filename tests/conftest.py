"""Hypothesis profiles. `ci` (the default) is what CI and a loaded machine need: no per-example
deadline (timing is not what these tests assert), the slow-data health checks off, a reproducible
failure printed with its blob. `HYPOTHESIS_PROFILE=long` runs many more examples locally."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("long", parent=settings.get_profile("ci"), max_examples=5_000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
