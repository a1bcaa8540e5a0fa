"""`.0c` documents: a relation's concept numbers lead to their concepts (hover, definition, references)."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from zerolang.lsp import adapter
from zerolang.lsp.positions import LineIndex


@dataclass(frozen=True, slots=True)
class Mention:
    """A concept number under the cursor, or a concept's own line, and the concept it means."""

    number: int
    start: int
    end: int
    concept: adapter.CompactEntry | None


def mention_at(source: str, lines: LineIndex, offset: int) -> tuple[Mention | None, adapter.CompactOutline]:
    outline = adapter.compact_outline(source)
    by_number = {entry.number: entry for entry in outline.concepts}
    for reference in outline.references:
        start = lines.line_column(reference.line, reference.column)
        if start <= offset <= start + reference.length:
            return Mention(
                reference.number, start, start + reference.length, by_number.get(reference.number)
            ), outline
    line = lines.position(offset).line + 1
    for entry in outline.concepts:
        if entry.line == line:
            start = lines.line_column(line, 1)
            return Mention(entry.number, start, start + len(lines.line_text(line - 1)), entry), outline
    return None, outline


def _line_range(lines: LineIndex, line: int) -> types.Range:
    start = lines.line_column(line, 1)
    return lines.range(start, start + len(lines.line_text(line - 1)))


def hover(source: str, offset: int, encoding: str = "utf-16") -> types.Hover | None:
    lines = LineIndex(source, encoding)
    mention, outline = mention_at(source, lines, offset)
    if mention is None:
        return None
    if mention.concept is None:
        text = f"concept {mention.number}: the document defines {len(outline.concepts)} concepts"
    else:
        uses = sum(1 for reference in outline.references if reference.number == mention.number)
        text = (
            f"**{mention.concept.label}**: concept {mention.number} (line {mention.concept.line}), "
            f"in {uses} relation{'s' if uses != 1 else ''}"
        )
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
        range=lines.range(mention.start, mention.end),
    )


def definition(source: str, uri: str, offset: int, encoding: str = "utf-16") -> types.Location | None:
    lines = LineIndex(source, encoding)
    mention, _ = mention_at(source, lines, offset)
    if mention is None or mention.concept is None:
        return None
    return types.Location(uri=uri, range=_line_range(lines, mention.concept.line))


def references(
    source: str, uri: str, offset: int, include_declaration: bool, encoding: str = "utf-16"
) -> list[types.Location]:
    lines = LineIndex(source, encoding)
    mention, outline = mention_at(source, lines, offset)
    if mention is None:
        return []
    found = []
    if include_declaration and mention.concept is not None:
        found.append(types.Location(uri=uri, range=_line_range(lines, mention.concept.line)))
    for reference in outline.references:
        if reference.number == mention.number:
            start = lines.line_column(reference.line, reference.column)
            found.append(types.Location(uri=uri, range=lines.range(start, start + reference.length)))
    return found
