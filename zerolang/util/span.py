"""Where something sits in a source text: `Span`, apart from the syntax tree so that an error
(`zerolang.util.errors`) or a query's tree can carry one without importing the `.0` AST's classes."""

from __future__ import annotations

from typing import NamedTuple


class Span(NamedTuple):
    """Where an element sits in its source: 1-based line and column, end exclusive.

    A named tuple rather than a dataclass because the parser makes one per token.
    """

    line: int
    column: int
    end_line: int
    end_column: int
    start: int = 0
    end: int = 0

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


NO_SPAN = Span(0, 0, 0, 0)
