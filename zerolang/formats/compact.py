"""`.0c`: 0-memory in the fewest tokens that still say everything (docs/0c-format.md).

    0M:1.0
    agent|Agent
    long-term-memory|LTM|long_term_memory
    0-memory|0-Memory
    X:2026-02-18T00:00:00Z user_prompt 0-memory_design s=design-review-1
    @2026-11-23T03:20:59.527Z
    1 needs2 95
    3 provides2 90; stores1

No hash is written: every one is derived from labels, predicates and context
fields (spec §7), so the parser recomputes them. A line that is not a header,
`#` comment, `@time`, `X:` context or relations is a concept, numbered from 1
in order; a relation line is `subject predicateOBJECT [confidence]`, more
relations of the same subject after `; `. Concept times are those of their
first and last relation unless written. Confidences are
percent when that is exact (`95` = 0.95), else a fraction (`.955`); 1 is left
out, and so is a concept's confidence when it is the highest of its relations.
`@time` lines set the time of what follows. Measured choices: docs/0c-format.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from zerolang.ast import Span
from zerolang.errors import ZeroError
from zerolang.formats.model import Context, Snapshot
from zerolang.memory.hashing import concept_hash, context_hash, episode_hash, fact_hash
from zerolang.memory.types import (
    ConceptHash,
    ConceptNode,
    ContextHash,
    ContextMeta,
    ContextNode,
    InputError,
    MemoryRecord,
    RelationNode,
)

VERSION = "1.0"
HEADER = f"0M:{VERSION}"

# ---- text fields ----------------------------------------------------------------------------

_WORD = re.compile(r'[^\s"]\S*')  # a bare word: no whitespace, not opening a quote
_PREDICATE = re.compile(r'[^\s;"\d](?:[^\s;"]*[^\s;"\d])?')
_RELATION = re.compile(r'([^\s;"\d](?:[^\s;"]*[^\s;"\d])?)(\d+)')


_LINE_KINDS = re.compile(r"\d+ |X:|0M:")  # a bare label must not look like another line


def _is_label(text: str) -> bool:
    """Whether a concept's label can open its line bare (else it is JSON-quoted)."""
    return _is_item(text) and text[0] not in "#" and not _LINE_KINDS.match(text)


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


def read_confidence(text: str) -> float:
    """The inverse of `confidence`; ValueError for anything that is not in [0, 1]."""
    if not _CONFIDENCE.fullmatch(text):
        raise ValueError(f"not a confidence: {text!r} (write a percent like 95 or a fraction like .955)")
    number = int(text) / 100 if text.isdigit() else float(text)
    if not 0.0 <= number <= 1.0:
        raise ValueError(f"a confidence is between 0 and 1 (0 to 100 as a percent), not {text}")
    return number


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

    def __init__(self, column: int, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.column = column
        self.message = message
        self.line = line


@dataclass(slots=True)
class _Reader:
    """The state of a parse: what has been defined so far."""

    concepts: list[tuple[str, tuple[str, ...], float | None, str | None, str | None]] = field(
        default_factory=list
    )
    contexts: list[tuple[ContextNode, str | None, bool]] = field(default_factory=list)
    relations: list[tuple[int, str, int, float, int, str, tuple[int, int]]] = field(default_factory=list)
    now: str | None = None
    line: int = 0
    places: dict[str, list[int]] = field(default_factory=lambda: {"concept": [], "context": []})
    header: str = ""


def scan(text: str) -> tuple[_Reader, list[_Fault]]:
    """Read every line, collecting each line's first problem (the linter reports them all)."""
    reader = _Reader()
    faults: list[_Fault] = []
    seen_header = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line.strip() or line.startswith("#"):
            continue
        reader.line = number
        try:
            if seen_header:
                _read_line(reader, line)
            else:
                seen_header = True
                reader.header = _header(line)
        except _Fault as fault:
            faults.append(_Fault(fault.column, fault.message, number))
    if not seen_header:
        faults.append(_Fault(1, f"a .0c document starts with `{HEADER}`", 1))
    return reader, faults


def parse(text: str, name: str = "<0c>") -> Snapshot:
    """The snapshot a `.0c` document states; a CompactError (line:col, caret) for its first problem."""
    reader, faults = scan(text)
    try:
        if faults:
            raise faults[0]
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
    for line in text.split("\n"):
        if line.strip() and not line.startswith("#"):
            try:
                return _header(line.rstrip("\r"))
            except _Fault:
                return ""
    return ""


def _header(line: str) -> str:
    match = re.fullmatch(r"0M:(\d+)\.(\d+)(?: (.*))?", line)
    if match is None:
        raise _Fault(1, f"a .0c document starts with `{HEADER}`")
    if match.group(1) != VERSION.split(".")[0]:
        raise _Fault(4, f"this reader knows .0c {VERSION}, not {match.group(1)}.{match.group(2)}")
    return match.group(3) or ""


def _read_line(reader: _Reader, line: str) -> None:
    if line[0] == "@":
        reader.now, end = _word(line, 1)
        if end != len(line):
            raise _Fault(end + 1, "expected the end of the line after the time")
    elif line.startswith("X:"):
        _context(reader, line)
    elif _LINE_KINDS.match(line):
        if line.startswith("0M:"):
            raise _Fault(1, "a second header (quote a label that starts with `0M:`)")
        _relations(reader, line)
    else:
        _concept(reader, line)


def _word(line: str, at: int) -> tuple[str, int]:
    """A bare word or JSON string starting at `at`; its text and where it ends."""
    if at >= len(line):
        raise _Fault(at + 1, "expected a value, found the end of the line")
    if line[at] == '"':
        return _string(line, at)
    match = _WORD.match(line, at)
    if match is None:
        raise _Fault(at + 1, "expected a value")
    return match.group(), match.end()


def _string(line: str, at: int) -> tuple[str, int]:
    try:
        value, end = json.JSONDecoder().raw_decode(line, at)
    except json.JSONDecodeError as error:
        raise _Fault(error.colno, f"bad quoted string: {error.msg}") from None
    if not isinstance(value, str):
        raise _Fault(at + 1, "expected a quoted string")
    return value, end


def _item(line: str, at: int) -> tuple[str, int]:
    """A label or alias: a JSON string, or bare text up to the next `|`."""
    if at < len(line) and line[at] == '"':
        return _string(line, at)
    end = line.find("|", at)
    end = len(line) if end < 0 else end
    text = line[at:end]
    if not text:
        raise _Fault(at + 1, "expected a label")
    if not _is_item(text):
        raise _Fault(at + 1, "this text has to be quoted (it has surrounding spaces, a tab or starts with ^)")
    return text, end


def _time(reader: _Reader) -> str:
    if reader.now is None:
        raise _Fault(1, "no time yet: write an `@time` line before the first concept or relation")
    return reader.now


def _concept(reader: _Reader, line: str) -> None:
    """`label|alias...[|=confidence][|@created][|^updated]`."""
    names: list[str] = []
    marks: dict[str, str] = {}
    at = 0
    while True:
        lead = line[at : at + 1]
        if lead in ("=", "@", "^") and names:
            if lead in marks:
                raise _Fault(at + 1, f"`{lead}` is given twice")
            marks[lead], at = _item(line, at + 1)
        else:
            if marks:
                raise _Fault(at + 1, "aliases come before `=confidence`, `@created` and `^updated`")
            text, at = _item(line, at)
            names.append(text)
        if at == len(line):
            break
        if line[at] != "|":
            raise _Fault(at + 1, "expected `|` or the end of the line after a quoted label")
        at += 1
    stated = _number(marks["="], line.index("|=") + 3) if "=" in marks else None
    reader.concepts.append((names[0], tuple(names[1:]), stated, marks.get("@"), marks.get("^")))
    reader.places["concept"].append(reader.line)


def _number(text: str, column: int) -> float:
    try:
        return read_confidence(text)
    except ValueError as error:
        raise _Fault(column, str(error)) from None


_CONTEXT_KEYS = {"a": "agent_id", "s": "session_id", "m": "metadata", "c": "created_at"}


def _context(reader: _Reader, line: str) -> None:
    at = 2
    fields: list[str] = []
    extra: dict[str, str] = {}
    metadata: dict[str, str] = {}
    while at < len(line):
        if len(fields) < 3:
            value, at = _word(line, at)
            fields.append(value)
        else:
            start = at
            key = line[at : at + 2]
            if key[:1] not in _CONTEXT_KEYS or key[1:] != "=":
                raise _Fault(at + 1, "expected a=AGENT, s=SESSION, m={metadata} or c=CREATED")
            if key[0] in extra or (key[0] == "m" and metadata):
                raise _Fault(at + 1, f"`{key}` is given twice")
            if key[0] == "m":
                metadata, at = _metadata(line, at + 2)
            else:
                extra[key[0]], at = _word(line, at + 2)
            if start == at:
                raise _Fault(at + 1, "expected a value")
        if at < len(line):
            if line[at] != " ":
                raise _Fault(at + 1, "expected a space between fields")
            at += 1
    if len(fields) < 3:
        raise _Fault(len(line) + 1, "a context is `X:EVENT_TIME SOURCE SCOPE`")
    try:
        meta = ContextMeta(fields[0], fields[1], fields[2], extra.get("a"), extra.get("s"), metadata)
    except InputError as error:
        raise _Fault(3, f"bad context: {error}") from None
    created = extra.get("c")
    stated = created is not None
    reader.places["context"].append(reader.line)
    reader.contexts.append(
        (ContextNode(context_hash(meta), meta), None if created == "-" else created, stated)
    )


def _metadata(line: str, at: int) -> tuple[dict[str, str], int]:
    try:
        value, end = json.JSONDecoder().raw_decode(line, at)
    except json.JSONDecodeError as error:
        raise _Fault(error.colno, f"bad metadata: {error.msg}") from None
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise _Fault(at + 1, "metadata is a JSON object of strings")
    return value, end


def _relations(reader: _Reader, line: str) -> None:
    """`subject predicateOBJECT[ confidence][; predicateOBJECT[ confidence]]...`."""
    if not reader.contexts:
        raise _Fault(1, "a relation comes after the `X:` line of its context")
    space = line.index(" ")
    subject, at = int(line[:space]), space + 1
    created = _time(reader)
    while True:
        entry_column = at + 1
        if at < len(line) and line[at] == '"':
            verb, at = _string(line, at)
            found = re.compile(r"\d+").match(line, at)
            if found is None:
                raise _Fault(at + 1, "expected the object's number right after the predicate")
            obj, at = int(found.group()), found.end()
        else:
            found = _RELATION.match(line, at)
            if found is None:
                raise _Fault(at + 1, "expected a predicate and the object's number (`uses12`)")
            verb, obj, at = found.group(1), int(found.group(2)), found.end()
        value = 1.0
        if at < len(line) and line[at] == " ":
            number = re.compile(r"[^\s;]+").match(line, at + 1)
            if number is None:
                raise _Fault(at + 2, "expected a confidence")
            value = _number(number.group(), at + 2)
            at = number.end()
        place = (reader.line, entry_column)
        reader.relations.append((subject, verb, obj, value, len(reader.contexts) - 1, created, place))
        if at == len(line):
            return
        if not line.startswith("; ", at):
            raise _Fault(at + 1, "expected `; ` before the next relation, or the end of the line")
        at += 2


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
                raise _Fault(column, f"there is no concept {number} ({defined})", line)
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
        return Snapshot(tuple(concepts), contexts, tuple(relations))
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
    snapshot = parse(text, name)
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    if not any(line.startswith("#") for line in lines):
        header = next(line for line in lines if line.strip())
        return serialize(snapshot, header=header)
    tidy: list[str] = []
    for line in lines:
        if line or (tidy and tidy[-1]):
            tidy.append(line)
    return "\n".join(tidy).strip("\n") + "\n"
