"""Test-run wide settings.

Hypothesis profiles: `ci` (chosen when the `CI` environment variable is set, as
`.ci/run` does) is derandomised, so a run is reproducible, bounds every property
test's examples and never lets a slow example fail a test on a loaded machine.
`dev` (the default) draws fresh examples each run. Pick one explicitly with
`HYPOTHESIS_PROFILE=ci python -m pytest`; `long` runs many more examples.

The storage backends the contract suite runs against are printed in the header
and the summary. The suite runs on every core (pytest-xdist, `-n auto` in
pyproject's addopts); the tests marked `slow` go first so that the workers end
together.

The hooks' warm server (`zerolang.cli.hook_server`) is off for every `zero hook` the tests run
(`$ZERO_HOOK_SERVER`): a hook would otherwise leave a server behind for each test's memory; the
tests of the server turn it on for themselves.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.backends import summary

os.environ["ZERO_HOOK_SERVER"] = "off"

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=50,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
settings.register_profile(
    "dev",
    derandomize=False,
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Many more examples, for a long local hunt (the fuzz tests in tests/hardening too).
settings.register_profile("long", parent=settings.get_profile("dev"), max_examples=5_000)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long tests (marked `slow`) first, spread over the workers so that none of them starts last
    while the other workers idle.

    pytest-xdist's worksteal scheduler hands each worker one contiguous share of this list at the
    start and lets idle workers steal from the end of the others' shares: with the slow tests
    simply first, one worker would get them all and run them one after another. So each share
    starts with its own part of the slow tests, dealt in turn.
    """
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    rest = [item for item in items if item.get_closest_marker("slow") is None]
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    ordered: list[pytest.Item] = []
    remaining = len(items)
    for share in range(workers):
        size = remaining // (workers - share)  # the scheduler's split: what is left, evenly
        dealt = slow[share::workers]
        taken = max(0, size - len(dealt))
        ordered += dealt + rest[:taken]
        del rest[:taken]
        remaining -= size
    items[:] = ordered + rest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores. Many tests wait on a child process, a lock or the
    PostgreSQL server; the extra worker runs while they wait (on this 2-core machine, 3 workers
    finish the suite about a sixth sooner than 2)."""
    return (os.cpu_count() or 1) + 1


def pytest_report_header(config: pytest.Config) -> str:
    return summary()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(summary())
