"""Reading a transcript again from where its last capture stopped, when the file only grew.

An end-of-turn hook captures the same transcript after every reply. Its last capture leaves a
`Cursor`: the byte offset and line of the line the last captured turn opens with (that turn may
still gain messages, so it is read again), the end of the last complete line then, and the SHA-256
of the bytes between. `read_since` seeks there, checks the digest and parses only what follows,
numbering lines as the file does; it gives `None` whenever that might differ from reading the whole
file (the bytes changed, the file shrank, a line is not plain JSON, the conversation branched off
before the cursor), and the caller reads the whole file (`read_whole`), which also makes the next
cursor. A cursor is kept for a session whose conversation is a tree's path (Claude Code, a pi
session file; `tree`: the walk back from the last entry must leave the lines read at the same entry
as before) or a file in order (an OpenAI chat written one message a line, a version 1 pi file); a
line ends at `\\n` alone (`util.lines`), so a line number is a count of `\\n` bytes. Assumed, not
checked: the lines before the cursor are as they were (the file only grew), and an entry's parent
is an entry written before it, as Claude Code and pi write them.
"""

from __future__ import annotations

import hashlib
import json
from codecs import BOM_UTF8
from dataclasses import asdict, dataclass, fields

from zerolang.experience.model import Session, Turn
from zerolang.experience.transcripts import claude, openai, parse_lines, pi, slim
from zerolang.experience.transcripts.jsonlines import (
    BadLine,
    JsonLines,
    decoded,
    line_values,
    read_bytes,
    read_lines,
)
from zerolang.experience.transcripts.tree import Chain
from zerolang.util.errors import ZeroError

VERSION = 2  # 2: `tree` (a cursor of an older version is dropped: the file is read whole once)


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
    tree: bool  # the conversation is the path walked back from the last entry (else: file order)

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
        if not all(isinstance(value, int) for value in ints) or not isinstance(cursor.tree, bool):
            return None
        return cursor


@dataclass(frozen=True, slots=True)
class Reading:
    """A transcript's sessions as read, from `base` (a byte offset) and `first_line` on; for a
    resumed reading the one session holds only the messages from the cursor's turn on."""

    format: str
    sessions: list[Session]
    text: str  # the file's text from `base` (its bytes decoded: no second copy of a large file)
    base: int
    first_line: int
    chain: Chain | None  # a tree's path (Claude Code, pi), which its cursor needs
    resumed: Cursor | None = None
    linear: bool = False  # one chat in file order, a message a line: its cursor needs nothing more
    unfinished: int | None = None  # the last line, cut short (being written): left out (`JsonLines`)

    @property
    def first_position(self) -> int:
        return self.resumed.position if self.resumed else 0

    @property
    def before(self) -> str | None:
        """The turn before the first one read (a resumed reading starts after some)."""
        return self.resumed.previous if self.resumed else None

    def cursor_at(self, turn: Turn, previous: str | None) -> Cursor | None:
        """The cursor that resumes at `turn` (the last one read), if this transcript can have one."""
        resumable = self.linear or (self.chain is not None and not self.chain.cyclic)
        if not resumable or len(self.sessions) != 1 or not turn.messages:
            return None
        line = turn.messages[0].line
        if line < max(self.first_line, 2):
            return None  # the first line: nothing to skip
        start = _offset_of_line(self.text, line - self.first_line)
        end = self.text.rfind("\n") + 1
        if start is None or end <= start:
            return None
        skipped = start if self.text.isascii() else len(self.text[:start].encode("utf-8"))
        seen = self.text[start:end].encode("utf-8")  # the file's bytes there (valid UTF-8 round-trips)
        return Cursor(
            format=self.format,
            start=self.base + skipped,
            line=line,
            end=self.base + skipped + len(seen),
            digest=hashlib.sha256(seen).hexdigest(),
            session=self.sessions[0].id,
            turn=turn.id,
            position=turn.position,
            previous=previous,
            anchor=self.chain.anchor(line) if self.chain is not None else None,
            tree=self.chain is not None,
        )


def read_whole(path: str, fmt: str | None) -> Reading:
    """Every session of the transcript at `path`, as `read_transcript` reads them."""
    data = read_bytes(path)
    base = len(BOM_UTF8) if data.startswith(BOM_UTF8) else 0  # `decoded` drops it
    text = decoded(data, path)
    del data
    read = read_lines(text, path, slim(fmt))
    lines = read.values
    if read.waiting:
        return Reading(fmt or "", [], text, base, 1, None, unfinished=read.unfinished)
    kind, sessions = parse_lines(lines, path, fmt)
    chain: Chain | None = None
    linear = False
    if len(sessions) == 1 and kind == claude.FORMAT:
        chain = claude.chain(lines)
    elif len(sessions) == 1 and kind == openai.FORMAT:
        linear = openai.layout(lines) == openai.MESSAGES
    elif len(sessions) == 1 and kind == pi.FORMAT:
        grows = pi.shape(lines, path)
        chain = pi.chain(lines) if grows == pi.TREE else None
        linear = grows == pi.LINES
    return Reading(kind, sessions, text, base, 1, chain, linear=linear, unfinished=read.unfinished)


def read_since(path: str, cursor: Cursor) -> Reading | None:
    """The transcript from `cursor` on, if the file still holds what the cursor saw there."""
    if cursor.format not in (claude.FORMAT, openai.FORMAT, pi.FORMAT):
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
        text = decoded(data, path, "utf-8")  # from a line's start: no BOM to drop
    except ZeroError:
        return None
    read = _json_lines(text, cursor.line)
    if read is None:
        return None
    lines = read.values
    chain: Chain | None = None
    if cursor.format == openai.FORMAT:
        session = openai.parse_tail(lines, path, cursor.session)
    elif cursor.format == pi.FORMAT:
        session = pi.parse_tail(lines, path, cursor.session, cursor.anchor, is_tree=cursor.tree)
        chain = pi.chain(lines) if cursor.tree else None
    else:
        session = claude.parse_tail(lines, path, cursor.session, cursor.anchor)
        chain = claude.chain(lines)
    if session is None:
        return None
    linear = chain is None
    return Reading(
        cursor.format, [session], text, cursor.start, cursor.line, chain, cursor, linear, read.unfinished
    )


def _json_lines(text: str, first: int) -> JsonLines | None:
    """One value per non-blank line, numbered from `first`, less a last line cut short (`cut_short`);
    `None` if another line is not JSON (reading the whole file then says where)."""
    try:
        return line_values(text, first)
    except BadLine:
        return None


def _offset_of_line(text: str, index: int) -> int | None:
    """Where line `index` (0: the first) of `text` starts."""
    offset = 0
    for _ in range(index):
        found = text.find("\n", offset)
        if found < 0:
            return None
        offset = found + 1
    return offset
