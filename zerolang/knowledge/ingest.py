"""Reading compiler inputs from a file or stdin, and ingesting them into a store.

A file holds one `CompilerInput` as a JSON object, a JSON array of them, or
JSON Lines (one object per line, blank lines allowed). Every record is
validated before anything is written, so a typo on line 9,000 costs nothing
but the error message, which names the file, the line and the field:

    inputs.jsonl:9000:1: record 9000: tuples[2].confidence: must be between 0 and 1, not 1.5
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass
from pathlib import Path

from zerolang.knowledge.compiler import compile_record
from zerolang.knowledge.normalize import AliasTable
from zerolang.knowledge.overlap import Ahead
from zerolang.knowledge.store import DEFAULT_BATCH_SIZE, InsertResult, MemoryStore, Progress
from zerolang.knowledge.types import CompilerInput, InputError
from zerolang.syntax.ast import Span
from zerolang.util import strictjson
from zerolang.util.errors import ZeroError
from zerolang.util.limits import MAX_DEPTH, TOO_DEEP, too_deep_at
from zerolang.util.times import utc_now

STDIN = "-"
AHEAD_FROM = 100  # inputs from which an ingest compiles ahead in a helper thread
_DECODER = strictjson.DECODER  # a repeated key or a number past every float is refused
_WHITESPACE = " \t\n\r"


@dataclass(frozen=True, slots=True)
class SourcedInput:
    """A validated input and where it came from (1-based record number and line)."""

    input: CompilerInput
    number: int
    line: int


def read_document(path: str | Path) -> tuple[str, str]:
    """(display name, text) of a file, or of stdin for `-`."""
    from zerolang.util.files import read_stdin_text, read_text

    if str(path) == STDIN:
        return "<stdin>", read_stdin_text()

    return str(path), read_text(path, "input file")


def load_inputs(path: str | Path) -> list[SourcedInput]:
    """Every input in a file (or stdin), validated."""
    name, text = read_document(path)
    return parse_inputs(text, name)


def parse_inputs(text: str, name: str = "<input>") -> list[SourcedInput]:
    """Every input in `text`: a JSON object, a JSON array of objects, or JSON Lines."""
    text = text.removeprefix("\ufeff")
    deep = too_deep_at(text)
    if deep is not None:
        raise ZeroError(TOO_DEEP.format(limit=MAX_DEPTH), path=name, span=_span(text, deep))
    start = _skip(text, 0)
    if start == len(text):
        raise ZeroError(f"{name}: no input: expected a JSON object, a JSON array of objects, or JSON Lines")
    many = True
    if text[start] == "[":
        documents = list(_array_items(text, start, name))
    else:
        value, end = _decode(text, start, name)
        if _skip(text, end) == len(text):
            documents, many = [(value, start, _line(text, start))], False
        else:
            documents = list(_json_lines(text, name))
    return [
        SourcedInput(_validate(value, text, position, name, number if many else None), number, line)
        for number, (value, position, line) in enumerate(documents, start=1)
    ]


def ingest(
    store: MemoryStore,
    inputs: Iterable[SourcedInput | CompilerInput],
    *,
    aliases: AliasTable | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Callable[[Progress], None] | None = None,
    now: str | None = None,
) -> InsertResult:
    """Compile each input and insert it; commits as it goes (see `MemoryStore.insert_records`).

    Every record of one ingest carries the same time (`now`, default: when it
    started), so `created_at`/`updated_at` say which ingest wrote a row, and
    concepts mentioned again within one ingest cost no further writes. A large ingest compiles
    ahead in a helper thread while the engine writes (`zerolang.knowledge.overlap`).
    """
    table = aliases if aliases is not None else AliasTable.default()
    stamp = now if now is not None else utc_now()
    records = (
        compile_record(item.input if isinstance(item, SourcedInput) else item, table, now=stamp)
        for item in inputs
    )
    if isinstance(inputs, Sized) and len(inputs) < AHEAD_FROM:
        return store.insert_records(records, batch_size=batch_size, progress=progress, verify=False)
    ahead = Ahead(records, batch_size)  # the next batch compiles while the engine writes this one
    try:
        return store.insert_records(ahead, batch_size=batch_size, progress=progress, verify=False)
    finally:
        ahead.close()


def ingest_one(store: MemoryStore, item: CompilerInput, *, now: str | None = None) -> InsertResult:
    """One input compiled and applied (`MemoryStore.apply`) in the caller's transaction: what
    `ingest` does with it, without its batching (a batch of one that failed would be replayed as
    itself) or its helper thread."""
    record = compile_record(item, AliasTable.default(), now=now if now is not None else utc_now())
    return store.apply([record])


# ---- JSON with positions --------------------------------------------------------------------


def _skip(text: str, position: int) -> int:
    while position < len(text) and text[position] in _WHITESPACE:
        position += 1
    return position


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _span(text: str, position: int) -> Span:
    line = _line(text, position)
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return Span(line, column, line, column + 1, position, position + 1)


def _refused(text: str, position: int, name: str) -> ZeroError:
    """The error of a repeated key or a non-finite number in the JSON value at `position`."""
    problem = strictjson.locate(text, position)
    if problem is None:  # pragma: no cover - the decoder and the scanner agree
        return ZeroError("invalid JSON: a repeated key or a number out of range", path=name)
    return ZeroError(strictjson.message(text, problem), path=name, span=_span(text, problem.offset))


def _decode(text: str, position: int, name: str) -> tuple[object, int]:
    try:
        return _DECODER.raw_decode(text, position)
    except json.JSONDecodeError as error:
        raise ZeroError(f"invalid JSON: {error.msg}", path=name, span=_span(text, error.pos)) from None
    except strictjson.Refused:
        raise _refused(text, position, name) from None
    except ValueError as error:  # a number of more than 4300 digits
        raise ZeroError(f"invalid JSON: {error}", path=name, span=_span(text, position)) from None


def _array_items(text: str, start: int, name: str) -> Iterator[tuple[object, int, int]]:
    """(item, offset, line) for each item; lines counted incrementally (files can be large)."""
    position = _skip(text, start + 1)
    counted, line = start, _line(text, start)
    if position < len(text) and text[position] == "]":
        position += 1
    else:
        while True:
            value, end = _decode(text, position, name)
            line += text.count("\n", counted, position)
            counted = position
            yield value, position, line
            position = _skip(text, end)
            if position < len(text) and text[position] == ",":
                position = _skip(text, position + 1)
                continue
            if position < len(text) and text[position] == "]":
                position += 1
                break
            raise ZeroError("invalid JSON: expected `,` or `]`", path=name, span=_span(text, position))
    position = _skip(text, position)
    if position != len(text):
        raise ZeroError("invalid JSON: extra data after the array", path=name, span=_span(text, position))


def _json_lines(text: str, name: str) -> Iterator[tuple[object, int, int]]:
    """One document per line. Split on `\\n` only: JSON strings may hold U+2028 and friends."""
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        start = _skip(line, 0)
        if start < len(line):
            try:
                value, end = _DECODER.raw_decode(line, start)
            except json.JSONDecodeError as error:
                span = _span(text, offset + error.pos)
                raise ZeroError(f"invalid JSON: {error.msg}", path=name, span=span) from None
            except strictjson.Refused:
                raise _refused(text, offset + start, name) from None
            except ValueError as error:  # a number of more than 4300 digits
                span = _span(text, offset + start)
                raise ZeroError(f"invalid JSON: {error}", path=name, span=span) from None
            if _skip(line, end) != len(line):
                span = _span(text, offset + end)
                raise ZeroError("invalid JSON Lines: one JSON document per line", path=name, span=span)
            yield value, offset + start, number
        offset += len(line) + 1


def _validate(value: object, text: str, position: int, name: str, number: int | None) -> CompilerInput:
    try:
        return CompilerInput.from_json(value)
    except InputError as error:
        message = f"record {number}: {error.message}" if number is not None else error.message
        raise ZeroError(message, path=name, span=_span(text, position)) from None
