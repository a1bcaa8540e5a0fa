"""Reading a transcript again from where its last capture stopped, when the file only grew.

An end-of-turn hook captures the same transcript after every reply. Its last capture leaves a
`Cursor`: the byte offset and line of the line the last captured turn opens with (that turn may
still gain messages, so it is read again), the end of the last complete line then, and the SHA-256
of the bytes between. `read_since` seeks there, checks the digest and parses only what follows,
numbering lines as the file does; it gives `None` whenever that might differ from reading the whole
file (the bytes changed, the file shrank, a line is not plain JSON, the conversation branched off
before the cursor), and the caller reads the whole file (`read_whole`), which also makes the next
cursor. Only Claude Code sessions (one per file) get a cursor; the line breaks must be `\\n` (or
`\\r\\n`) alone, so a line number is a count of `\\n` bytes. Assumed, not checked: an entry's
`parentUuid` names an entry written before it, as Claude Code writes them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields
from typing import Any

from zerolang.experience.model import Session, Turn
from zerolang.experience.transcripts import claude, parse_lines
from zerolang.experience.transcripts.jsonlines import Line, decoded, read_bytes, read_lines

VERSION = 1


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where a capture of a transcript stopped (see the module's notes)."""

    format: str
    start: int
    line: int
    end: int
    digest: str
    session: str
    turn: str
    position: int
    previous: str | None
    anchor: str | None

    def dumps(self) -> str:
        return json.dumps({"version": VERSION, **asdict(self)}, sort_keys=True, separators=(",", ":"))

    @classmethod
    def loads(cls, text: str | None) -> Cursor | None:
        """The cursor `dumps` wrote; `None` for anything else (another version, a damaged row)."""
        if text is None:
            return None
        try:
            state = json.loads(text)
            if not isinstance(state, dict) or state.pop("version", None) != VERSION:
                return None
            if set(state) != {field.name for field in fields(cls)}:
                return None
            cursor = cls(**state)
        except (ValueError, TypeError):
            return None
        ints = (cursor.start, cursor.line, cursor.end, cursor.position)
        if not all(isinstance(value, int) for value in ints):
            return None
        return cursor


@dataclass(frozen=True, slots=True)
class Reading:
    """A transcript's sessions as read, from `base` (a byte offset) and `first_line` on; for a
    resumed reading the one session holds only the messages from the cursor's turn on."""

    format: str
    sessions: list[Session]
    data: bytes  # the file's bytes from `base`
    base: int
    first_line: int
    chain: claude.Chain | None  # a Claude Code session's path, which a cursor needs
    resumed: Cursor | None = None

    @property
    def first_position(self) -> int:
        return self.resumed.position if self.resumed else 0

    @property
    def before(self) -> str | None:
        """The turn before the first one read (a resumed reading starts after some)."""
        return self.resumed.previous if self.resumed else None

    def cursor_at(self, turn: Turn, previous: str | None) -> Cursor | None:
        """The cursor that resumes at `turn` (the last one read), if this transcript can have one."""
        if self.chain is None or self.chain.cyclic or len(self.sessions) != 1 or not turn.messages:
            return None
        line = turn.messages[0].line
        if line < self.first_line or (line == 1 and self.base == 0):
            return None  # the first line: nothing to skip
        start = _offset_of_line(self.data, line - self.first_line)
        end = self.data.rfind(b"\n") + 1
        if start is None or end <= start:
            return None
        return Cursor(
            format=self.format,
            start=self.base + start,
            line=line,
            end=self.base + end,
            digest=hashlib.sha256(self.data[start:end]).hexdigest(),
            session=self.sessions[0].id,
            turn=turn.id,
            position=turn.position,
            previous=previous,
            anchor=self.chain.anchor(line),
        )


def read_whole(path: str, fmt: str | None) -> Reading:
    """Every session of the transcript at `path`, as `read_transcript` reads them."""
    data = read_bytes(path)
    text = decoded(data, path)
    lines = read_lines(text, path)
    kind, sessions = parse_lines(lines, path, fmt)
    plain = kind == claude.FORMAT and len(sessions) == 1 and _plain(text)
    return Reading(kind, sessions, data, 0, 1, claude.chain(lines) if plain else None)


def read_since(path: str, cursor: Cursor) -> Reading | None:
    """The transcript from `cursor` on, if the file still holds what the cursor saw there."""
    if cursor.format != claude.FORMAT:
        return None
    try:
        with open(path, "rb") as file:
            file.seek(cursor.start)
            data = file.read()
    except OSError:
        return None
    seen = cursor.end - cursor.start
    if len(data) < seen or hashlib.sha256(data[:seen]).hexdigest() != cursor.digest:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = _json_lines(text, cursor.line)
    if lines is None or not _plain(text):
        return None
    session = claude.parse_tail(lines, path, cursor.session, cursor.anchor)
    if session is None:
        return None
    chain = claude.chain(lines)
    return Reading(cursor.format, [session], data, cursor.start, cursor.line, chain, resumed=cursor)


def _json_lines(text: str, first: int) -> list[Line] | None:
    """One value per non-blank line, numbered from `first`; `None` if a line is not JSON (reading the
    whole file then says where)."""
    values: list[Line] = []
    for number, raw in enumerate(text.splitlines(), start=first):
        if raw.strip():
            try:
                value: Any = json.loads(raw)
            except ValueError:
                return None
            values.append(Line(value, number))
    return values


def _plain(text: str) -> bool:
    """Whether `text`'s lines are the ones its `\\n` bytes separate (no other line breaks)."""
    return len(text.splitlines()) == text.count("\n") + (0 if not text or text.endswith("\n") else 1)


def _offset_of_line(data: bytes, index: int) -> int | None:
    """The byte offset where line `index` (0: the first) of `data` starts."""
    offset = 0
    for _ in range(index):
        found = data.find(b"\n", offset)
        if found < 0:
            return None
        offset = found + 1
    return offset
