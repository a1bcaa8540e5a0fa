"""JSON and JSON Lines with every value's line, and errors that say file:line:col."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zerolang.util.errors import ZeroError
from zerolang.util.lines import split_lines
from zerolang.util.span import Span


@dataclass(slots=True, unsafe_hash=True)  # not frozen: made per line, whose `__init__` sets through
class Line:  # `object.__setattr__`; nothing changes one, and it hashes (or not) as a frozen one did
    """One JSON value of a transcript and where it starts."""

    value: Any
    line: int

    @property
    def span(self) -> Span:
        return Span(self.line, 1, self.line, 1)


def read_text(path: str) -> str:
    return decoded(read_bytes(path), path)


def read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise ZeroError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ZeroError(f"{path}: is a directory, not a transcript") from None
    except OSError as error:
        raise ZeroError(f"{path}: cannot read ({error.strerror})") from None


def decoded(data: bytes, path: str, encoding: str = "utf-8-sig") -> str:
    """The file's text (by default a UTF-8 BOM dropped: the file's start). A character cut short at
    the very end is left out: a file still being written may end inside one (its last line is then
    cut short too, `read_lines`)."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        if error.end == len(data) and error.reason == "unexpected end of data":
            return data[: error.start].decode(encoding)
        line = data[: error.start].count(b"\n") + 1
        raise ZeroError("not UTF-8 text", path=path, span=Span(line, 1, line, 1)) from None


# the scanner `json.loads` runs, with its default settings: an attribute of CPython's decoder that
# typeshed does not declare; where a Python has none, every line goes through `json.loads`
_SCAN: Callable[[str, int], tuple[Any, int]] | None = getattr(json.JSONDecoder(), "scan_once", None)


def _loads(raw: str) -> Any:
    """`json.loads(raw)`: the scanner called directly on a line that is one value and nothing else
    (without the decoder's two whitespace matches and calls around it); any other line, valid or
    not, goes to `json.loads`, which gives its value or its error."""
    if _SCAN is None:
        return json.loads(raw)
    try:
        value, end = _SCAN(raw, 0)
    except StopIteration:
        return json.loads(raw)
    return value if end == len(raw) else json.loads(raw)


_FIRST = re.compile(r"\s*(\S?)")  # the text's first character that is no space (what lstrip() leaves)


@dataclass(frozen=True, slots=True)
class JsonLines:
    """A transcript's JSON values, and the number of its last line if that line was left out: cut
    short (no line end, not JSON), as a file still being written ends; the next reading has it."""

    values: list[Line]
    unfinished: int | None = None

    @property
    def waiting(self) -> bool:
        """Nothing to read yet: its one line is still being written."""
        return not self.values and self.unfinished is not None


class BadLine(ValueError):
    """A line that is not JSON (and not a last line cut short), with how many values came before."""

    def __init__(self, number: int, error: json.JSONDecodeError, before: int) -> None:
        super().__init__(error.msg)
        self.number, self.error, self.before = number, error, before


class Kept(dict[str, Any]):
    """A line's object with only the fields a reader looks at on every line (a tree's ids and
    parents): `whole()` parses the line again for the rest, so a long transcript's lines are not all
    held parsed at once."""

    __slots__ = ("_end", "_start", "_text")

    def __init__(self, fields: dict[str, Any], text: str, start: int, end: int) -> None:
        super().__init__(fields)
        self._text, self._start, self._end = text, start, end

    def whole(self) -> Any:
        return json.loads(self._text[self._start : self._end])


def whole(value: Any) -> Any:
    """A line's value with all its fields (a `Kept` one parsed again)."""
    return value.whole() if isinstance(value, Kept) else value


Fields = Callable[[dict[str, Any]], tuple[str, ...] | None]
"""The fields of a line's object to keep (`Kept`), or None: keep it whole."""
Slim = Callable[[Any], Fields | None]
"""Given a transcript's first value, what to keep of each later object line (None: all)."""


def line_values(text: str, first: int = 1, slim: Slim | None = None) -> JsonLines:
    """One value per non-blank line of `text`, numbered from `first`, less a last line cut short
    (`cut_short`); `BadLine` for any other line that is not JSON. With `slim`, an object after the
    first value keeps only the fields it names (`Kept`)."""
    values: list[Line] = []
    lines = split_lines(text)
    keep: Fields | None = None
    start = 0
    for index, raw in enumerate(lines):
        lines[index] = ""  # each line released once read: the values parsed take its room
        at, start = start, text.find("\n", start) + 1 if slim is not None else 0
        if not raw.strip():
            continue
        try:
            value = _loads(raw)
        except json.JSONDecodeError as error:
            if cut_short(text, index + 1, len(lines)):
                return JsonLines(values, first + index)
            raise BadLine(first + index, error, len(values)) from None
        if keep is not None and isinstance(value, dict):
            fields = keep(value)
            if fields is not None:
                end = start - 1 if start else len(text)
                value = Kept({name: value[name] for name in fields if name in value}, text, at, end)
        elif slim is not None and not values:
            keep = slim(value)
        values.append(Line(value, first + index))
    return JsonLines(values)


def read_lines(text: str, path: str, slim: Slim | None = None) -> JsonLines:
    """A whole-file JSON document (when the file starts with `[` or is one object over many lines)
    as one line-1 value, else one value per non-blank line (`slim`: see `line_values`), less a last
    line cut short."""
    first = _FIRST.match(text).group(1)  # type: ignore[union-attr]  # `\s*` always matches
    if first == "[":
        return JsonLines([Line(_whole(text, path), 1)])
    try:
        return line_values(text, slim=slim)
    except BadLine as bad:
        if not bad.before and first == "{":  # the first line that is not blank
            # maybe one pretty-printed JSON object (an OpenAI `{"messages": [...]}` file)
            try:
                return JsonLines([Line(json.loads(text), 1)])
            except json.JSONDecodeError:
                pass
        number, column = bad.number, bad.error.colno
        raise ZeroError(
            f"malformed JSON line: {bad.error.msg}",
            path=path,
            span=Span(number, column, number, column + 1),
            source=text,
        ) from None


def cut_short(text: str, number: int, count: int) -> bool:
    """Line `number` of `count` (`split_lines`) is the last and has no end: a writer may be at it."""
    return number == count and not text.endswith("\n")


def _whole(text: str, path: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ZeroError(
            f"malformed JSON: {error.msg}",
            path=path,
            span=Span(error.lineno, error.colno, error.lineno, error.colno + 1),
            source=text,
        ) from None


def shape_error(message: str, path: str, line: int) -> ZeroError:
    """A value that is JSON but not what its format needs, at its line."""
    return ZeroError(message, path=path, span=Span(line, 1, line, 1))


def text_of(content: Any, path: str, line: int, *, kinds: tuple[str, ...] = ("text",)) -> str:
    """The text of a message `content`: a string, or the `text` of its text blocks, joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                if block.get("type") in kinds and isinstance(block.get("text"), str):
                    parts.append(block["text"])
            else:
                raise shape_error("a content block must be an object or a string", path, line)
        return "\n".join(part for part in parts if part)
    raise shape_error("message content must be a string or a list of blocks", path, line)


def arguments_text(arguments: Any) -> str:
    """Tool-call arguments, compact: a JSON string left as it is, anything else as compact JSON."""
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


TOOL_TEXT_LIMIT = 2000
"""Tool results are kept up to this many characters: they are what the agent saw, not what it said."""


def clip(text: str, limit: int = TOOL_TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + " …"
