"""`.0c`: 0-memory in the fewest tokens that still say everything (docs/0c-format.md).

    0M:1.0
    agent|Agent
    long-term-memory|LTM|long_term_memory
    0-memory|0-Memory
    X:2026-02-18T00:00:00Z user_prompt 0-memory_design s=design-review-1
    @2026-11-23T03:20:59.527Z
    1 needs2 95
    3 provides2 90; stores1

A store's declarations come first, one a line: `!single-valued works_at @TIME` (declared
at store time TIME), `!-single-valued works_at @TIME` (undeclared); then its tombstones,
`!forgotten HASH=KIND:KEY,... @TIME` (`zerolang.knowledge.formats.tombstones`). No hash is written:
every one is derived from labels, predicates and context fields (spec §7), so the parser
recomputes them. A line that is not a header,
`#` comment, `@time`, `!` declaration, `X:` context or relations is a concept, numbered from 1
in order; a relation line is `subject predicateOBJECT [confidence]`, more
relations of the same subject after `; `. Concept times are those of their
first and last relation unless written. Confidences are
percent when that is exact (`95` = 0.95), else a fraction (`.955`); 1 is left
out, and so is a concept's confidence when it is the highest of its relations.
`@time` lines set the time of what follows. Measured choices: docs/0c-format.md.

Parsing is `grammars/zeroc.lark` through lark's LALR parser, with an inline
transformer (`_Builder`) filling a per-parse `_Reader`; `_build` then
resolves numbers and recomputes every hash.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from zerolang.knowledge.backend import Declaration
from zerolang.knowledge.formats.model import Context, Snapshot
from zerolang.knowledge.formats.tombstones import SETTING as FORGOTTEN
from zerolang.knowledge.formats.tombstones import Tombstone
from zerolang.knowledge.formats.tombstones import from_line as tombstone_line
from zerolang.knowledge.hashing import concept_hash, context_hash, episode_hash, fact_hash
from zerolang.knowledge.normalize import normalize_predicate
from zerolang.knowledge.temporal import SINGLE_VALUED, utc
from zerolang.knowledge.types import (
    ConceptHash,
    ConceptNode,
    ContextHash,
    ContextMeta,
    ContextNode,
    InputError,
    MemoryRecord,
    RelationNode,
)
from zerolang.syntax.ast import Span
from zerolang.util import strictjson
from zerolang.util.errors import ZeroError
from zerolang.util.escapes import (
    LONE_SURROGATE,
    first_lone_surrogate,
    has_lone_surrogate,
    lone_surrogate_escape,
)
from zerolang.util.gcpause import paused_gc
from zerolang.util.limits import MAX_DEPTH, TOO_DEEP, too_deep_at

VERSION = "1.0"
HEADER = f"0M:{VERSION}"

# ---- text fields ----------------------------------------------------------------------------

_WORD = re.compile(r'[^\s"]\S*')  # a bare word: no whitespace, not opening a quote
_PREDICATE = re.compile(r'[^\s;"\d](?:[^\s;"]*[^\s;"\d])?')


_LINE_KINDS = re.compile(r"\d+ |X:|0M:")  # a bare label must not look like another line


def _is_label(text: str) -> bool:
    """Whether a concept's label can open its line bare (else it is JSON-quoted)."""
    return _is_item(text) and text[0] not in "#!" and not _LINE_KINDS.match(text)


def _is_item(text: str) -> bool:
    """Whether a label or alias can be written bare between `|`s (else it is JSON-quoted)."""
    return (
        bool(text)
        and text[0] not in '"^@='
        and "|" not in text
        and text == text.strip()
        and not any(ch.isspace() and ch != " " for ch in text)
        and "\n" not in text
    )


def quote(text: str) -> str:
    """A JSON string literal on one line (non-ASCII kept as is: fewer tokens)."""
    return json.dumps(text, ensure_ascii=False)


def item(text: str) -> str:
    return text if _is_item(text) else quote(text)


def label(text: str) -> str:
    return text if _is_label(text) else quote(text)


def word(text: str) -> str:
    return text if _WORD.fullmatch(text) else quote(text)


def predicate(text: str) -> str:
    return text if _PREDICATE.fullmatch(text) else quote(text)


def confidence(value: float) -> str:
    """`95` for 0.95 when exact, else `.955`-style; `100` and `0` are the ends."""
    percent = round(value * 100)
    if percent / 100 == value:
        return str(percent)
    text = repr(value)
    return text[1:] if text.startswith("0.") else text


_CONFIDENCE = re.compile(r"\d{1,3}|(?:\d*\.\d+|\d+)(?:[eE][-+]?\d+)?")


def shown(text: str, limit: int = 40) -> str:
    """`text` for a message: a long one cut, with its length (a 4,000-digit number is not shown whole)."""
    return text if len(text) <= limit else f"{text[:24]}... ({len(text)} characters)"


def read_confidence(text: str) -> float:
    """The inverse of `confidence`; ValueError for anything that is not in [0, 1].

    Total: a percent of any number of digits and a fraction of any length or exponent give a
    number or this ValueError (never an OverflowError), in time linear in the text.
    """
    if not _CONFIDENCE.fullmatch(text):
        raise ValueError(
            f"not a confidence: {shown(text)!r} (write a percent like 95 or a fraction like .955)"
        )
    if text.isdigit():
        digits = text.lstrip("0") or "0"
        number = int(digits) / 100 if len(digits) <= 3 else 2.0  # more than 3 digits: past 100
    else:
        number = float(text)  # 1e999 is inf, refused below; float() reads long text in linear time
    if not 0.0 <= number <= 1.0:
        raise ValueError(f"a confidence is between 0 and 1 (0 to 100 as a percent), not {shown(text)}")
    return number


def read_index(text: str) -> int:
    """A concept number as written (`12`); one too long to be any document's is past every concept."""
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else 10**18


# ---- serializer -----------------------------------------------------------------------------


def serialize(document: Snapshot | MemoryRecord, *, header: str = HEADER) -> str:
    """The `.0c` text of a record or snapshot; `parse` gives back an equal one."""
    snapshot = document if isinstance(document, Snapshot) else Snapshot.of_record(document)
    return "\n".join(_lines(snapshot, header)) + "\n"


def derived_confidences(relations: Iterable[RelationNode]) -> dict[ConceptHash, float]:
    """Each concept's highest relation confidence: what a concept's confidence usually is."""
    best: dict[ConceptHash, float] = {}
    for relation in relations:
        for key in (relation.subject_hash, relation.object_hash):
            best[key] = max(best.get(key, 0.0), relation.confidence)
    return best


def time_spans(relations: Iterable[RelationNode]) -> dict[ConceptHash, tuple[str, str]]:
    """Each concept's first and last relation time: when a store created and last updated it."""
    span: dict[ConceptHash, tuple[str, str]] = {}
    for relation in relations:
        at = relation.created_at
        for key in (relation.subject_hash, relation.object_hash):
            first, last = span.get(key, (at, at))
            span[key] = (min(first, at), max(last, at))
    return span


def _lines(snapshot: Snapshot, header: str) -> Iterator[str]:
    yield header
    yield from map(declaration_line, snapshot.declarations)
    yield from (tombstone.line() for tombstone in snapshot.tombstones)
    clock = _Clock()
    derived = derived_confidences(snapshot.relations)
    times = time_spans(snapshot.relations)
    ids: dict[ConceptHash, int] = {}
    for concept in snapshot.concepts:
        ids[concept.hash] = len(ids) + 1
        yield _concept_line(concept, derived.get(concept.hash, 1.0), times.get(concept.hash))
    by_context: dict[ContextHash, list[RelationNode]] = {c.node.hash: [] for c in snapshot.contexts}
    for relation in snapshot.relations:
        by_context[relation.context_hash].append(relation)
    for context in snapshot.contexts:
        relations = by_context[context.node.hash]
        yield _context_line(context, relations)
        yield from _relation_lines(relations, ids, clock)


_SETTING = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def declaration_line(row: Declaration) -> str:
    """`!SETTING VALUE @TIME`, or `!-SETTING VALUE @TIME` for a setting undeclared at TIME."""
    if not _SETTING.fullmatch(row.setting):
        raise ValueError(f"not a setting name: {row.setting!r}")
    sign = "" if row.declared else "-"
    return f"!{sign}{row.setting} {word(row.value)} @{word(row.at)}"


def _concept_line(concept: ConceptNode, derived: float, times: tuple[str, str] | None) -> str:
    """`label|alias...[|=confidence][|@created][|^updated]`, each bracket only when not derived."""
    parts = [label(concept.label), *(item(alias) for alias in concept.aliases)]
    if concept.confidence != derived:
        parts.append("=" + confidence(concept.confidence))
    first, last = times if times is not None else (None, None)
    if concept.created_at != first:
        parts.append("@" + item(concept.created_at))
    if concept.updated_at != last:
        parts.append("^" + item(concept.updated_at))
    return "|".join(parts)


def _context_line(context: Context, relations: list[RelationNode]) -> str:
    meta = context.node.meta
    parts = [f"X:{word(meta.event_time)}", word(meta.source), word(meta.scope)]
    if meta.agent_id is not None:
        parts.append("a=" + word(meta.agent_id))
    if meta.session_id is not None:
        parts.append("s=" + word(meta.session_id))
    if meta.metadata:
        parts.append("m=" + json.dumps(dict(meta.metadata), ensure_ascii=False, separators=(",", ":")))
    default = relations[0].created_at if relations else None
    if context.created_at != default:
        parts.append("c=" + ("-" if context.created_at is None else word(context.created_at)))
    return " ".join(parts)


def _relation_lines(
    relations: list[RelationNode], ids: dict[ConceptHash, int], clock: _Clock
) -> Iterator[str]:
    """Consecutive relations of one subject (and one time) share a line: `s po c; po`."""
    line: list[str] = []
    subject: ConceptHash | None = None
    for relation in relations:
        moved = list(clock.at(relation.created_at))
        if line and (moved or relation.subject_hash != subject):
            yield "; ".join(line)
            line = []
        yield from moved
        text = f"{predicate(relation.predicate)}{ids[relation.object_hash]}"
        if relation.confidence != 1.0:
            text += " " + confidence(relation.confidence)
        if not line:
            subject = relation.subject_hash
            text = f"{ids[subject]} {text}"
        line.append(text)
    if line:
        yield "; ".join(line)


@dataclass(slots=True)
class _Clock:
    """The current `@` time: a line is written only when it changes."""

    now: str | None = None

    def at(self, time: str) -> Iterator[str]:
        if time != self.now:
            self.now = time
            yield "@" + word(time)


# ---- parser ---------------------------------------------------------------------------------


class CompactError(ZeroError):
    """A `.0c` document that does not parse or does not add up: `render()` adds the line and a caret."""

    def __init__(self, name: str, line: int, column: int, message: str, source: str) -> None:
        super().__init__(message, path=name, span=Span(line, column, line, column + 1), source=source)


class _Fault(Exception):
    """A problem at a column of the current line (turned into a CompactError with the line)."""

    def __init__(self, column: int, message: str, line: int = 0, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.column = column
        self.message = message
        self.line = line
        self.syntax = syntax


@dataclass(slots=True)
class _Reader:
    """The state of a parse: what has been defined so far."""

    concepts: list[tuple[str, tuple[str, ...], float | None, str | None, str | None]] = field(
        default_factory=list
    )
    contexts: list[tuple[ContextNode, str | None, bool]] = field(default_factory=list)
    relations: list[tuple[int, str, int, float, int, str, tuple[int, int]]] = field(default_factory=list)
    declarations: list[Declaration] = field(default_factory=list)
    tombstones: list[Tombstone] = field(default_factory=list)
    now: str | None = None
    places: dict[str, list[int]] = field(default_factory=lambda: {"concept": [], "context": []})
    header: str | None = None


class _ParseState(threading.local):
    """Per-parse scratch space shared by the cached parser's callbacks."""

    def __init__(self) -> None:
        self.reader = _Reader()
        self.faults: list[_Fault] = []


_state = _ParseState()


def _text(token: Any) -> str:
    """The text of a WORD, LABEL, ITEM or (JSON-decoded) STRING token."""
    value: str = token.value
    return _decode(value, token.column) if token.type == "STRING" else value


def _decode(value: str, column: int) -> str:
    """A JSON string literal's text (`column`: where it starts, for a bad escape)."""
    if "\\" not in value:
        return value[1:-1]
    try:
        decoded: str = json.loads(value)
    except json.JSONDecodeError as error:
        raise _Fault(column + error.pos, f"bad quoted string: {error.msg}") from None
    if has_lone_surrogate(decoded):
        offset, escape = lone_surrogate_escape(value) or (0, value)
        raise _Fault(column + offset, LONE_SURROGATE.format(escape=escape))
    return decoded


def _number(text: str, column: int) -> float:
    try:
        return read_confidence(text)
    except ValueError as error:
        raise _Fault(column, str(error)) from None


_SPLIT_RELATION = re.compile(r'([^\s;"\d](?:[^\s;"]*[^\s;"\d])?|"(?:[^"\\]|\\.)*")(\d+)(?: (.+))?')


class _Builder:
    """Inline transformer: each method reads one line of the grammar into the parse's `_Reader`.

    A problem of meaning (a bad number, a relation before its context) is a
    fault of that line; the parse goes on, so that `scan` reports them all.
    """

    def header(self, children: list[Any]) -> None:
        version = children[0]
        major = version.value.partition(".")[0]
        rest = children[1].value.removesuffix("\r") if len(children) > 1 else ""
        if _state.reader.header is not None:
            return  # a re-parse after a syntax error (see `scan`): the header was read
        _state.reader.header = rest
        if major != VERSION.split(".")[0]:
            message = f"this reader knows .0c {VERSION}, not {shown(version.value)}"
            _state.faults.append(_Fault(version.column, message, version.line))

    def time(self, children: list[Any]) -> None:
        token = children[0]
        try:
            _state.reader.now = _store_time(_text(token), token.column, "a store time")
        except _Fault as fault:
            _state.faults.append(_Fault(fault.column, fault.message, token.line))

    def declaration(self, children: list[Any]) -> None:
        token = children[0]
        try:
            _declaration(_state.reader, token)
        except _Fault as fault:
            _state.faults.append(_Fault(fault.column, fault.message, token.line))

    def agent(self, children: list[Any]) -> tuple[str, Any]:
        return "a", children[0]

    def session(self, children: list[Any]) -> tuple[str, Any]:
        return "s", children[0]

    def metadata(self, children: list[Any]) -> tuple[str, Any]:
        return "m", children[0]

    def created(self, children: list[Any]) -> tuple[str, Any]:
        return "c", children[0]

    def context(self, children: list[Any]) -> None:
        line = children[0].line
        try:
            _context(_state.reader, children, line)
        except _Fault as fault:
            _state.faults.append(_Fault(fault.column, fault.message, line))

    def relations(self, children: list[Any]) -> None:
        line = children[0].line
        try:
            _relations(_state.reader, children, line)
        except _Fault as fault:
            _state.faults.append(_Fault(fault.column, fault.message, line))

    def stated_confidence(self, children: list[Any]) -> tuple[str, Any]:
        return "=", children[0]

    def stated_created(self, children: list[Any]) -> tuple[str, Any]:
        return "@", children[0]

    def stated_updated(self, children: list[Any]) -> tuple[str, Any]:
        return "^", children[0]

    def concept(self, children: list[Any]) -> None:
        line = children[0].line
        try:
            _concept(_state.reader, children, line)
        except _Fault as fault:
            _state.faults.append(_Fault(fault.column, fault.message, line))


_QUOTED = r'"(?:[^"\\\n]|\\.)*"'
_SPLIT_DECLARATION = re.compile(rf'!(-?)([^ ]+) ([^\s"]\S*|{_QUOTED}) @([^\s"]\S*|{_QUOTED})')


def _declaration(reader: _Reader, token: Any) -> None:
    """`!SETTING VALUE @TIME` (`!-SETTING`: undeclared)."""
    found = _SPLIT_DECLARATION.fullmatch(token.value)
    assert found is not None, token  # the grammar's DECLARATION
    sign, setting, value, at = found.groups()
    column = token.column
    if setting == FORGOTTEN and not sign and value[0] != '"' and at[0] != '"':
        try:
            reader.tombstones.append(tombstone_line(value, at))
        except ValueError as error:
            raise _Fault(column + 1 + len(setting) + 1, f"bad tombstone: {error}") from None
        return
    if setting != SINGLE_VALUED:
        message = f"unknown setting `{setting}` (this reader knows `{SINGLE_VALUED}`)"
        raise _Fault(column + 1 + len(sign), message)
    value_column, time_column = column + found.start(3), column + found.start(4)
    if value[0] == '"':
        value = _decode(value, value_column)
    if at[0] == '"':
        at = _decode(at, time_column)
    name = normalize_predicate(value)
    if not name:
        raise _Fault(value_column, f"not a predicate: {value!r}")
    try:
        stamp = utc(at, "a declaration's time")
    except ZeroError as error:
        raise _Fault(time_column, error.message) from None
    reader.declarations.append(Declaration(stamp, setting, name, not sign))


def _context(reader: _Reader, children: list[Any], line: int) -> None:
    event_time, source, scope = (_text(token) for token in children[:3])
    extra: dict[str, Any] = dict(children[3:])
    metadata: dict[str, str] = {}
    if "m" in extra:
        token = extra.pop("m")
        deep = too_deep_at(token.value)
        if deep is not None:
            raise _Fault(token.column + deep, TOO_DEEP.format(limit=MAX_DEPTH))
        try:
            value = strictjson.DECODER.decode(token.value)
        except json.JSONDecodeError as error:
            raise _Fault(token.column + error.pos, f"bad metadata: {error.msg}") from None
        except strictjson.Refused:
            problem = strictjson.locate(token.value)
            if problem is None:  # pragma: no cover - the decoder and the scanner agree
                raise _Fault(token.column, "bad metadata: a repeated key") from None
            said, at = problem.message, token.column + problem.offset
            if problem.first is not None:
                said += f": first at column {token.column + problem.first}, again at column {at}"
            raise _Fault(at, f"bad metadata: {said}") from None
        except ValueError as error:  # a number of more than 4300 digits
            raise _Fault(token.column, f"bad metadata: {error}") from None
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise _Fault(token.column, "metadata is a JSON object of strings")
        escape = first_lone_surrogate(value)
        if escape is not None:
            offset, escape = lone_surrogate_escape(token.value) or (0, escape)
            raise _Fault(token.column + offset, LONE_SURROGATE.format(escape=escape))
        metadata = value
    fields = {key: _text(token) for key, token in extra.items()}
    try:
        meta = ContextMeta(event_time, source, scope, fields.get("a"), fields.get("s"), metadata)
    except InputError as error:
        raise _Fault(3, f"bad context: {error}") from None
    created = fields.get("c")
    if created is not None:
        created = _store_time(created, extra["c"].column, "a context's creation time")
    reader.places["context"].append(line)
    reader.contexts.append(
        (ContextNode(context_hash(meta), meta), None if created == "-" else created, created is not None)
    )


def _store_time(text: str, column: int, what: str) -> str:
    """A store time, kept as written once it reads as every other time does (`temporal.utc`); else a
    fault at its column. `-` (a time the document leaves out, as its lower levels do) stays."""
    if text != "-":
        try:
            utc(text, what)
        except ZeroError as error:
            raise _Fault(column, error.message) from None
    return text


def _relations(reader: _Reader, children: list[Any], line: int) -> None:
    """`subject predicateOBJECT[ confidence][; predicateOBJECT[ confidence]]...`."""
    if not reader.contexts:
        raise _Fault(1, "a relation comes after the `X:` line of its context")
    if reader.now is None:
        raise _Fault(1, "no time yet: write an `@time` line before the first concept or relation")
    subject, created, context = read_index(children[0].value[:-1]), reader.now, len(reader.contexts) - 1
    add = reader.relations.append
    for token in children[1:]:
        skip = 2 if token.type == "NEXT_RELATION" else 0  # `; predicateOBJECT`
        found = _SPLIT_RELATION.fullmatch(token.value, skip)
        assert found is not None, token  # the grammar's RELATION
        verb, obj, stated = found.groups()
        column = token.column + skip
        if verb[0] == '"':
            verb = _decode(verb, column)
        value = 1.0 if stated is None else _number(stated, token.column + found.start(3))
        add((subject, verb, read_index(obj), value, context, created, (line, column)))


def _concept(reader: _Reader, children: list[Any], line: int) -> None:
    """`label|alias...[|=confidence][|@created][|^updated]`."""
    names: list[str] = []
    marks: dict[str, str] = {}
    stated: float | None = None
    for child in children:
        if type(child) is tuple:
            mark, token = child
            if mark == "=":
                stated = _number(token.value, token.column)
            else:
                what = "a concept's creation time" if mark == "@" else "a concept's update time"
                marks[mark] = _store_time(_text(token), token.column, what)
        else:
            names.append(_text(child))
    reader.concepts.append((names[0], tuple(names[1:]), stated, marks.get("@"), marks.get("^")))
    reader.places["concept"].append(line)


_parsers: dict[bool, Any] = {}


def _parser(fast: bool = True) -> Any:
    """The LALR parser of `grammars/zeroc.lark`, built once per process, its tables cached on disk.

    `fast` lexes with `StateRegexLexer`; otherwise lark's contextual lexer
    runs, whose errors know what each parser state expected.
    """
    if fast not in _parsers:
        from zerolang.syntax.grammar import build_parser

        if fast:
            _parsers[fast] = _build_fast_parser()
        else:
            _parsers[fast] = build_parser("zeroc", _Builder(), fast=False)
    return _parsers[fast]


def _build_fast_parser() -> Any:
    from zerolang.syntax.grammar import build_parser
    from zerolang.syntax.statelex import StateRegexLexer

    return build_parser("zeroc", _Builder(), lexer=StateRegexLexer)


def _header_line(lines: list[str]) -> int:
    """The number of the header line: the first that is neither blank nor a comment (0: none)."""
    for number, line in enumerate(lines, start=1):
        if line.strip() and not line.startswith("#"):
            return number
    return 0


# Syntax errors a scan reports before it stops: each resumption parses the rest of the text
# again, so a bound keeps a document of many broken lines linear to read (and the list readable).
MAX_SYNTAX_FAULTS = 50


def scan(text: str, most: int = MAX_SYNTAX_FAULTS) -> tuple[_Reader, list[_Fault]]:
    """Read every line, collecting each line's first problem (the linter reports them all).

    After `most` syntax errors it stops (`parse` asks for one: the first problem
    is then known, as every line before a syntax error has been read).

    A document that lexes is read in one pass of the fast parser. Otherwise
    lark's contextual parser reads it again, for its errors; after a syntax
    error it resumes on the next line: the text parsed again is the header
    followed by the lines after the error, blank lines standing in for the
    others so that lines and columns stay the same.
    """
    from lark.exceptions import LarkError, UnexpectedInput

    try:
        reader = _state.reader = _Reader()
        faults = _state.faults = []
        try:
            with paused_gc():  # the parse makes no reference cycles (zerolang.util.gcpause)
                _parser().parse(text)
            return reader, _sorted(reader, faults)
        except LarkError:
            pass
        reader = _state.reader = _Reader()
        faults = _state.faults = []
        lines = text.split("\n")
        header = _header_line(lines)
        remaining, last = text, 0
        while True:
            try:
                _parser(fast=False).parse(remaining)
                break
            except UnexpectedInput as error:
                fault = _syntax_fault(error, lines, header)
                fault.syntax = True
                faults.append(fault)
                resume = max(fault.line, header)
                stop = sum(1 for fault in faults if fault.syntax) >= most
                if stop or not header or resume >= len(lines) or resume <= last:
                    break
                last = resume
                blank = "\n" * (resume - header + 1)
                remaining = "\n" * (header - 1) + HEADER + blank + "\n".join(lines[resume:])
                if reader.header is None:
                    reader.header = ""
    finally:
        _state.reader, _state.faults = _Reader(), []
    return reader, _sorted(reader, faults)


def _sorted(reader: _Reader, faults: list[_Fault]) -> list[_Fault]:
    reader.header = reader.header or ""
    return sorted(faults, key=lambda fault: fault.line)


# what each terminal of the grammar is, in words ("expected X, found Y")
_EXPECTED = {
    "VERSION": "the version (`1.0`)",
    "WORD": "a value",
    "STRING": "a quoted string",
    "JSON_OBJECT": "a JSON object",
    "RELATION": "a predicate and the object's number (`uses12`)",
    "NEXT_RELATION": "`; ` and another relation",
    "CONFIDENCE": "a confidence",
    "DECLARATION": "a declaration (`!single-valued PREDICATE @TIME`)",
    "ITEM": "a label",
    "LABEL": "a label",
    "SPACE": "a space",
    "_NL": "the end of the line",
    "$END": "the end of the line",
    "__ANON_0": "`0M:1.0`",
}


def _expected_words(names: Iterable[str]) -> str:
    names = set(names)
    if names & {"WORD", "ITEM", "LABEL"}:
        names.discard("STRING")  # a bare value or label, else a quoted one: said once
    words: list[str] = []
    for name in sorted(names, key=lambda name: (name in ("_NL", "$END"), name)):
        word = _EXPECTED.get(name) or _literal(name)
        if word not in words:
            words.append(word)
    if len(words) <= 1:
        return words[0] if words else "something else"
    return ", ".join(words[:-1]) + " or " + words[-1]


def _literal(name: str) -> str:
    """A literal terminal in words: the optional fields are shown with what follows them."""
    pattern = next((t.pattern.value for t in _parser().terminals if t.name == name), name)
    shown = {" a=": "a=AGENT", " s=": "s=SESSION", " m=": "m={metadata}", " c=": "c=CREATED"}
    shown |= {"|=": "`|=CONFIDENCE`", "|@": "`|@CREATED`", "|^": "`|^UPDATED`"}
    return shown.get(pattern, f"`{pattern}`")


def _syntax_fault(error: Any, lines: list[str], header: int) -> _Fault:
    """A lark syntax error as a `_Fault` worded "expected X, found Y", at the column it concerns."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(error, UnexpectedToken) and error.token.type in ("$END", "_NL"):
        expected = set(error.expected)
        if error.token.type == "$END":
            number = len(lines)
            column = len(lines[-1].removesuffix("\r")) + 1
        else:
            number, column = error.token.line, error.token.column
    elif isinstance(error, (UnexpectedCharacters, UnexpectedToken)):
        expected = set(error.allowed if isinstance(error, UnexpectedCharacters) else error.expected)
        number, column = error.line, error.column
    else:  # pragma: no cover - UnexpectedEOF does not happen with lark's LALR parser
        return _Fault(1, str(error).splitlines()[0], 1)
    if not header or (number <= header and not lines[header - 1].startswith("0M:")):
        return _Fault(1, f"a .0c document starts with `{HEADER}`", header or 1)
    line = lines[number - 1].removesuffix("\r") if number <= len(lines) else ""
    at = column - 1
    if number != header and line.startswith("0M:") and at == 0:
        return _Fault(1, "a second header (quote a label that starts with `0M:`)", number)
    confidence = _bad_confidence(line, at, expected)
    if confidence is not None:
        return _Fault(confidence.column, confidence.message, number)
    if at < len(line) and line[at] == '"':
        message = 'bad quoted string: it does not close with `"` on this line'
        return _Fault(column, message, number)
    context = line.startswith("X:")
    if context and line[at : at + 1] == " " and at + 1 < len(line) and "SPACE" not in expected:
        at, column = at + 1, column + 1  # ` q=1`: the space is right, what follows is not
    message = f"expected {_expected_words(expected)}, found {_found(line, at)}"
    if context and expected & {"SPACE", "WORD", "STRING"}:
        message += " (a context is `X:EVENT_TIME SOURCE SCOPE`)"
    elif expected & {"ITEM", "VBAR"} and line[at : at + 1].isspace():
        message += " (a label or alias with a tab or spaces around it is written quoted)"
    return _Fault(column, message, number)


def _found(line: str, at: int) -> str:
    """What the line has at `at`, in words."""
    if at >= len(line):
        return "the end of the line"
    char = line[at]
    if char == " ":
        return "a space"
    if char.isspace() or not char.isprintable():
        return f"`{json.dumps(char)[1:-1]}`"
    return f"`{line[at:].split(maxsplit=1)[0]}`"


def _bad_confidence(line: str, at: int, expected: set[str]) -> _Fault | None:
    """A confidence the lexer stopped in (`uses1 abc`, `|=2x`): say what is wrong with the number."""
    start = -1
    if line[:1].isdigit() and " " in line:  # a relations line: `... uses1 CONF`
        entry = max(line.rfind("; ", 0, at) + 2, line.index(" ") + 1, line.rfind('"', 0, at) + 1)
        space = line.rfind(" ", entry, at)
        if space > entry:  # in the confidence
            start = space + 1
        elif at < len(line) and line[at] == " " and at > entry:  # where the confidence starts
            start = at + 1
    else:  # a concept line: `...|=CONF|...`
        mark = line.rfind("|=", 0, at)
        if mark >= 0 and "|" not in line[mark + 2 : at]:
            start = mark + 2
    if start < 0:
        return None
    found = re.compile(r"[^\s;|]+").match(line, start)
    if found is None:
        return _Fault(start + 1, "expected a confidence")
    try:
        read_confidence(found.group())
    except ValueError as error:
        return _Fault(start + 1, str(error))
    return None


def parse(text: str, name: str = "<0c>") -> Snapshot:
    """The snapshot a `.0c` document states; a CompactError (line:col, caret) for its first problem."""
    from zerolang.knowledge.formats.seal import unseal

    plain, broken = unseal(text)
    if broken is not None:
        raise CompactError(name, broken.line, 1, broken.message, text)
    reader, faults = scan(plain, most=1)
    try:
        if faults:
            raise faults[0]
        with paused_gc():
            return _build(reader)
    except _Fault as fault:
        raise CompactError(name, fault.line or 1, fault.column, fault.message, text) from None


def parse_record(text: str, name: str = "<0c>") -> MemoryRecord:
    """`parse`, for a document of one context: the record it states."""
    snapshot = parse(text, name)
    try:
        return snapshot.to_record()
    except ValueError as error:
        raise ZeroError(f"{name}: {error}") from None


def parse_header(text: str) -> str:
    """The header line's words after the version (`base=...` in a delta), or ''."""
    lines = text.split("\n")
    header = _header_line(lines)
    if not header:
        return ""
    reader, faults = scan(lines[header - 1] + "\n")
    return "" if faults else reader.header or ""


def _build(reader: _Reader) -> Snapshot:
    """Resolve numbers, recompute every hash, fill in derived confidences and times."""
    concept_hashes = [concept_hash(label) for label, *_ in reader.concepts]
    _unique(concept_hashes, reader.places["concept"], "concept")
    _unique([node.hash for node, _, _ in reader.contexts], reader.places["context"], "context")
    relations: list[RelationNode] = []
    best: dict[ConceptHash, float] = {}
    for subject, verb, obj, value, context_index, created, (line, column) in reader.relations:
        for number in (subject, obj):
            if not 1 <= number <= len(concept_hashes):
                defined = f"the document defines {len(concept_hashes)}"
                written = str(number) if number < 10**18 else "of more than 18 digits"
                raise _Fault(column, f"there is no concept {written} ({defined})", line)
        labels = reader.concepts[subject - 1][0], reader.concepts[obj - 1][0]
        context = reader.contexts[context_index][0].hash
        fact = fact_hash(labels[0], verb, labels[1])
        subject_key, object_key = concept_hashes[subject - 1], concept_hashes[obj - 1]
        relations.append(
            RelationNode(
                fact, episode_hash(fact, context), subject_key, verb, object_key, value, context, created
            )
        )
        for key in (subject_key, object_key):
            best[key] = max(best.get(key, 0.0), value)
    spans = time_spans(relations)
    concepts = []
    places = reader.places["concept"]
    for index, (label, aliases, stated, made, updated) in enumerate(reader.concepts):
        key = concept_hashes[index]
        span = spans.get(key)
        first = made or (span[0] if span else None)
        last = updated or (span[1] if span else None)
        if first is None or last is None:
            raise _Fault(
                1, f"concept {label!r} is in no relation: its line needs `|@created|^updated`", places[index]
            )
        level = best.get(key, 1.0) if stated is None else stated
        concepts.append(ConceptNode(key, label, aliases, level, first, last))
    first_times: dict[ContextHash, str] = {}
    for relation in relations:
        first_times.setdefault(relation.context_hash, relation.created_at)
    contexts = tuple(
        Context(node, created if stated else first_times.get(node.hash))
        for node, created, stated in reader.contexts
    )
    try:
        return Snapshot(
            tuple(concepts), contexts, tuple(relations), tuple(reader.declarations), tuple(reader.tombstones)
        )
    except ValueError as error:
        raise _Fault(1, str(error)) from None


def _unique(keys: list[ConceptHash] | list[ContextHash], lines: list[int], what: str) -> None:
    """A fault at the second definition of anything defined twice (it would make ids ambiguous)."""
    first: dict[object, int] = {}
    for key, line in zip(keys, lines, strict=True):
        if key in first:
            raise _Fault(1, f"this {what} is already defined on line {first[key]}", line)
        first[key] = line


def format_text(text: str, name: str = "<0c>") -> str:
    """`zero fmt` for `.0c`: the canonical serialization, or, when comments must be kept, tidy whitespace.

    Checks the document first (a CompactError if it does not parse), so a
    formatted file is always a valid one.
    """
    from zerolang.knowledge.formats.seal import is_sealed, seal, unseal

    snapshot = parse(text, name)
    sealed = is_sealed(text)  # a sealed document stays sealed, with an end line that fits the new text
    plain = unseal(text)[0] if sealed else text
    lines = [line.rstrip() for line in plain.replace("\r\n", "\n").split("\n")]
    if not any(line.startswith("#") for line in lines):
        header = next(line for line in lines if line.strip())
        formatted = serialize(snapshot, header=header)
    else:
        tidy: list[str] = []
        for line in lines:
            if line or (tidy and tidy[-1]):
                tidy.append(line)
        formatted = "\n".join(tidy).strip("\n") + "\n"
    return seal(formatted) if sealed else formatted
