"""The one error type users see, and how it prints.

Every failure a user can cause (bad syntax, an invalid graph, a failing run,
a missing file) is a `ZeroError` with a location, so the CLI can print one
clear line (`file:line:col: message`) plus the source line and a caret,
instead of a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from threading import Lock

from zerolang.util.escapes import escaped
from zerolang.util.limits import EXCERPT_CONTEXT, EXCERPT_WIDTH, MAX_DIAGNOSTICS, more_line
from zerolang.util.lines import BOM, split_lines
from zerolang.util.span import Span


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(slots=True)
class Diagnostic:
    """One problem at one place: what the validator and the linter report."""

    code: str
    message: str
    span: Span | None = None
    severity: Severity = Severity.ERROR
    path: str | None = None
    notes: list[str] = field(default_factory=list)

    def location(self) -> str:
        where = self.path or "<input>"
        if self.span is not None and self.span.line:
            return f"{where}:{self.span.line}:{self.span.column}"
        return where

    def headline(self) -> str:
        return f"{self.location()}: {self.code} {self.message}"


class ZeroError(Exception):
    """Base of every error zerolang raises on purpose; a command that stops on one exits `exit_code`."""

    exit_code = 1

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        span: Span | None = None,
        source: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.span = span
        self.source = source

    def location(self) -> str | None:
        if self.path is None and self.span is None:
            return None
        where = self.path or "<input>"
        if self.span is not None and self.span.line:
            return f"{where}:{self.span.line}:{self.span.column}"
        return where

    def headline(self) -> str:
        """The one-line form: `file:line:col: message`."""
        where = self.location()
        return f"{where}: {self.message}" if where else self.message

    def render(self) -> str:
        """The headline, then the offending source line with a caret under the column.

        For a human: the message, file name and source line are shown `escaped`, so data in them
        (an id holding ESC, a file named with a bidi override) prints as data, never as a control.
        """
        from zerolang.util.width import fitted

        lines = [escaped(fitted(self.headline()), exact=False)]
        if self.source is not None and self.span is not None and self.span.line:
            lines.extend(source_excerpt(self.source, self.span))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.headline()


class ZeroSyntaxError(ZeroError):
    """The text is not a `.0` document."""


class ValidationError(ZeroError):
    """The graph parses but cannot run; carries every problem found, not just the first."""

    def __init__(self, diagnostics: list[Diagnostic], *, source: str | None = None) -> None:
        first = diagnostics[0]
        super().__init__(first.message, path=first.path, span=first.span, source=source)
        self.diagnostics = diagnostics

    def render(self) -> str:
        """Each problem with its source line and caret: the first `MAX_DIAGNOSTICS`, then how many more."""
        from zerolang.util.width import fitted

        parts: list[str] = []
        for diagnostic in self.diagnostics[:MAX_DIAGNOSTICS]:
            headline = f"{diagnostic.location()}: {fitted(diagnostic.message)} [{diagnostic.code}]"
            parts.append(escaped(headline, exact=False))
            if self.source is not None and diagnostic.span is not None and diagnostic.span.line:
                parts.extend(source_excerpt(self.source, diagnostic.span))
        if len(self.diagnostics) > MAX_DIAGNOSTICS:
            parts.append(more_line(len(self.diagnostics) - MAX_DIAGNOSTICS))
        return "\n".join(parts)


class RunError(ZeroError):
    """A node failed while the graph ran (division by zero, step limit, bad signature key...)."""


class ConfigError(ZeroError):
    """A setting in `[tool.zero]` that cannot be used: the CLI exits 2 (as ruff does), the language server
    reports it on the config and goes on with the defaults.

    `key` is where it is written, as TOML keys from `tool.zero` (`("lint", "ignore")`), and `value`
    the text of the bad value when there is one (`Z999`): what an editor points at.
    """

    exit_code = 2

    def __init__(self, message: str, *, key: tuple[str, ...] = (), value: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.value = value


def source_excerpt(source: str, span: Span) -> list[str]:
    """The source line of `span`, numbered, with a caret run under the spanned columns.

    The line is shown `escaped` (a control character in it prints as `\\x1b`), a tab as spaces;
    carets count display columns (`util.width`: East Asian wide characters take two, combining
    marks none), so they sit under the characters they mean. A line wider than `EXCERPT_WIDTH`
    is cut around the span, each cut end marked `…`: an error in a 5 MB line prints about one
    terminal line, and only that part of the line is ever measured. The source is split into
    lines once and kept for the next call with the same text.
    """
    lines = source_lines(source)
    if not 1 <= span.line <= len(lines):
        return []
    text = lines[span.line - 1]
    start = min(max(span.column - 1, 0), len(text))
    end = start + 1
    if span.end_line == span.line and span.end_column > span.column:
        end = start + (span.end_column - span.column)
    low, high = _window(text, start)
    shown_line, under_at, under_width = _draw(text, low, high, start, end)
    gutter = f"{span.line} | "
    pad = " " * (len(gutter) - 2) + "| "
    return [f"{gutter}{shown_line}", f"{pad}{' ' * under_at}{'^' * max(1, under_width)}"]


ELLIPSIS = "…"


def _window(text: str, start: int) -> tuple[int, int]:
    """The characters [low, high) of the line to show: all of it when it fits `EXCERPT_WIDTH`,
    else about `EXCERPT_CONTEXT` columns before the span and the rest of the width after it."""
    from zerolang.util.width import shown

    limit = EXCERPT_WIDTH
    columns = 0
    for character in text:
        columns += shown(character)[1]
        if columns > limit:
            break
    else:
        return 0, len(text)
    low, before = start, 0
    while low > 0 and before + shown(text[low - 1])[1] <= EXCERPT_CONTEXT:
        low -= 1
        before += shown(text[low])[1]
    room = limit - 2 - before  # two columns for the `…` at each end
    high, after = start, 0
    while high < len(text) and after + shown(text[high])[1] <= room:
        after += shown(text[high])[1]
        high += 1
    return low, max(high, min(start + 1, len(text)))


def _draw(text: str, low: int, high: int, start: int, end: int) -> tuple[str, int, int]:
    """The shown line for characters [low, high), the column where the span starts in it, and its width."""
    from zerolang.util.width import shown

    parts: list[str] = [ELLIPSIS] if low > 0 else []
    column = 1 if low > 0 else 0
    under_at, under_width = column, 0
    for index in range(low, high):
        piece, size = ("", 0) if index == 0 and text[0] == BOM else shown(text[index])
        if index == start:
            under_at = column
        if start <= index < end:
            under_width += size
        parts.append(piece)
        column += size
    if start >= high:  # the span starts at the end of the line (a missing `}`): the caret just after it
        under_at = column + max(0, start - len(text))
        under_width = max(1, end - start)
    if high < len(text):
        parts.append(ELLIPSIS)
    return "".join(parts), under_at, under_width


_last: tuple[str, list[str]] = ("", [])
_last_lock = Lock()


def source_lines(source: str) -> list[str]:
    """`source`'s lines (`util.lines.split_lines`: numbered as the parsers number them), remembered
    for the last source asked about (do not change the list)."""
    global _last
    with _last_lock:
        text, lines = _last
        if text is source or (len(text) == len(source) and text == source):
            return lines
        lines = split_lines(source)
        _last = (source, lines)
        return lines
