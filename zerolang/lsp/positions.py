"""Text offsets and LSP positions: lines from 0, columns in the code units the client chose.

The parser counts in code points (offsets into the Python string, columns from
1); a client counts UTF-16 units (the protocol's default), or UTF-8 or UTF-32
when it says so at initialization (Neovim prefers UTF-8). `LineIndex` converts
both ways for one text, so a `😀` before a node id does not shift every range after it.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from lsprotocol import types

from zerolang.syntax.ast import Span


def _units(char: str, encoding: str) -> int:
    """How many code units `char` takes in the encoding (`utf-8`, `utf-16` or `utf-32`)."""
    code = ord(char)
    if encoding == "utf-8":
        return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    if encoding == "utf-32":
        return 1
    return 2 if code > 0xFFFF else 1


def _length(text: str, encoding: str) -> int:
    if text.isascii():
        return len(text)
    return sum(_units(char, encoding) for char in text)


@dataclass(slots=True)
class LineIndex:
    """Where each line of `text` starts, to turn offsets into positions and back."""

    text: str
    encoding: str = "utf-16"
    starts: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.starts = [0]
        position = self.text.find("\n")
        while position >= 0:
            self.starts.append(position + 1)
            position = self.text.find("\n", position + 1)

    def position(self, offset: int) -> types.Position:
        """The LSP position of a code-point offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        return types.Position(
            line=line, character=_length(self.text[self.starts[line] : offset], self.encoding)
        )

    def offset(self, position: types.Position) -> int:
        """The code-point offset of an LSP position (clamped to its line and to the text)."""
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[max(position.line, 0)]
        end = self.starts[position.line + 1] - 1 if position.line + 1 < len(self.starts) else len(self.text)
        units = 0
        index = start
        while index < end and units < position.character:
            units += _units(self.text[index], self.encoding)
            index += 1
        return index

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def span_range(self, span: Span | None) -> types.Range:
        """The range of a parser span; a span without offsets (a `.0c` finding) by its line and column."""
        if span is None or span.line == 0:
            return self.range(0, 0)
        if span.end > span.start or span.start > 0:
            return self.range(span.start, max(span.end, span.start))
        start = self.line_column(span.line, span.column)
        end = self.line_column(span.end_line or span.line, span.end_column or span.column + 1)
        return self.range(start, max(start, end))

    def line_column(self, line: int, column: int) -> int:
        """The offset of a 1-based line and code-point column."""
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return min(start + max(column - 1, 0), end)

    def line_text(self, line: int) -> str:
        """The text of a 0-based line, without its line break."""
        if line >= len(self.starts):
            return ""
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line] : end].removesuffix("\r")
