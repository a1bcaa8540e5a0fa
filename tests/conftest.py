"""Test-run wide hooks: the storage backends the contract suite runs against, in the header and summary."""

from __future__ import annotations

import pytest

from tests.backends import summary


def pytest_report_header(config: pytest.Config) -> str:
    return summary()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(summary())
