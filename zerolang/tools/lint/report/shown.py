"""What a report shows of each file: its first `MAX_DIAGNOSTICS` findings, and how many it leaves out."""

from __future__ import annotations

from zerolang.tools.lint.model import Finding
from zerolang.tools.lint.runner import FileResult
from zerolang.util.limits import MAX_DIAGNOSTICS


def shown(result: FileResult) -> tuple[list[Finding], int]:
    """The findings of `result` a report shows (the first `MAX_DIAGNOSTICS`), and how many more there are."""
    return result.findings[:MAX_DIAGNOSTICS], max(len(result.findings) - MAX_DIAGNOSTICS, 0)
