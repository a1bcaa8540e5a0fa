"""The hypothesis profiles of tests/conftest.py: reproducible and bounded on CI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


def test_ci_profile_is_derandomised_and_bounded() -> None:
    ci = settings.get_profile("ci")
    assert ci.derandomize and ci.database is None and ci.deadline is None
    assert ci.max_examples <= 100
    assert settings.get_profile("dev").max_examples <= 100


def test_the_ci_variable_selects_the_ci_profile() -> None:
    script = "import tests.conftest; from hypothesis import settings; print(settings.default.derandomize)"
    environment = {key: value for key, value in os.environ.items() if key not in ("HYPOTHESIS_PROFILE", "CI")}
    for ci, expected in (({"CI": "1"}, "True"), ({}, "False")):
        completed = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**environment, **ci},
            capture_output=True,
            text=True,
            check=True,
        )
        assert completed.stdout.strip() == expected


def test_this_process_runs_the_profile_its_environment_selects() -> None:
    """Under pytest-xdist this runs in a worker: the workers keep the controller's choice (`CI=1` -> `ci`)."""
    chosen = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
    profile = settings.get_profile(chosen)
    assert settings.default.derandomize == profile.derandomize
    assert settings.default.max_examples == profile.max_examples
    assert settings.default.database == profile.database
