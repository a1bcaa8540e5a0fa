"""Capturing conversations: transcript files, or one turn at a time from an agent's end-of-turn hook.

`capture_files` reads every file first (a malformed one raises before anything
is written), then stores all their records in one transaction, built and written
a few thousand turns at a time. Records are
content-addressed, so capturing a file again adds nothing and a file that grew
adds only its new turns (and the new layers of a turn that was still open). A
file that only grew since its last capture is read from its cursor on
(`zerolang.experience.transcripts.cursor`), as a hook's capture reads it; the
records are the same as reading it whole.

`TurnRecorder.record(...)` is seed 002's single `agent_end` hook: call it once
per finished turn with what the user said, what the agent thought and what it
answered; it links the turn to the session's previous one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from zerolang.experience.affect import AffectExtractor, LexiconAffect
from zerolang.experience.build import add_turn, turns_of
from zerolang.experience.concepts import ConceptExtractor, DefaultConcepts
from zerolang.experience.ids import session_id, turn_id
from zerolang.experience.model import Added, CaptureBatch, Message, Role, Session, Turn
from zerolang.experience.store import ExperienceStore
from zerolang.experience.transcripts.cursor import Cursor, Reading, read_since, read_whole
from zerolang.util.gcpause import paused_gc


@dataclass(frozen=True, slots=True)
class FileResult:
    path: str
    format: str
    sessions: int
    turns: int
    unfinished: int | None = None  # its last line, cut short (being written): the next capture has it


@dataclass(frozen=True, slots=True)
class CaptureResult:
    files: tuple[FileResult, ...]
    added: Added


@dataclass(slots=True)
class Extractors:
    """The pluggable parts of capture: affect and concepts (the documented defaults unless given)."""

    affect: AffectExtractor = field(default_factory=LexiconAffect)
    concepts: ConceptExtractor = field(default_factory=DefaultConcepts)


TRANSCRIPT_SUFFIXES = (".jsonl", ".json")


def expand(paths: Sequence[str | Path]) -> list[Path]:
    """Files as given; a folder becomes its `*.jsonl` and `*.json` files, recursively, sorted."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in TRANSCRIPT_SUFFIXES))
        else:
            out.append(path)
    return out


def capture_files(
    store: ExperienceStore,
    paths: Sequence[str | Path],
    *,
    names: Mapping[str, str] | None = None,
    extractors: Extractors | None = None,
    fmt: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    storing: Callable[[int, int], None] | None = None,
) -> CaptureResult:
    """Read every transcript, then store what is new in one transaction.

    The records are built and written `BATCH_TURNS` turns at a time within that transaction, so
    a long transcript is never held as records all at once. For a progress bar: `progress(done,
    total)` is called after each file is read, and `storing(done, total)` with the turns to store,
    before the first and after each batch is written.
    """
    # What capture makes holds no cycle (texts, parsed JSON, records: each freed by its count when no
    # longer referenced, each turn once built), and every full collection would walk all the
    # messages read so far again, a cost that grows with the transcript (26% of reading 50 MB, 12%
    # of building and storing 25 MB while they were frozen instead): the collector is paused.
    with paused_gc():
        return _capture(store, expand(paths), extractors or Extractors(), names, fmt, progress, storing)


def _capture(
    store: ExperienceStore,
    paths: list[Path],
    parts: Extractors,
    names: Mapping[str, str] | None,
    fmt: str | None,
    progress: Callable[[int, int], None] | None,
    storing: Callable[[int, int], None] | None = None,
) -> CaptureResult:
    grouped: list[tuple[Session, list[Turn], str | None]] = []  # a session, its turns, the one before
    files: list[FileResult] = []
    cursors: list[tuple[str, str | None]] = []
    for path in paths:
        name, key = str(path), os.path.abspath(path)
        kept = store.cursor(key)
        reading = resumed(store, name, kept, fmt) or read_whole(name, fmt)
        read = [(session, turns_of(session, reading.first_position)) for session in reading.sessions]
        grouped.extend((session, turns, reading.before) for session, turns in read)
        kind = read[0][0].format if read else (fmt or "")
        count = sum(len(turns) for _, turns in read) + reading.first_position
        files.append(FileResult(name, kind, len(read), count, reading.unfinished))
        state = _cursor_state(reading, read)
        if state != kept:
            cursors.append((key, state))
        if progress is not None:
            progress(len(files), len(paths))
        del read, reading
    settled = _settled(store, [(session, turns) for session, turns, _ in grouped])
    expected = sum(1 for _, turns, _ in grouped for turn in turns if turn.id not in settled)
    batches = _batches(_released(grouped), settled, parts, names, cursors)
    if storing is not None:
        batches = _reporting(batches, expected, storing)
    added = store.add_all(batches, expected_turns=expected)
    return CaptureResult(tuple(files), added)


def _reporting(
    batches: Iterator[CaptureBatch], total: int, storing: Callable[[int, int], None]
) -> Iterator[CaptureBatch]:
    """`batches`, saying how many turns are stored: the store writes each before asking for the next."""
    done = 0
    storing(done, total)
    for batch in batches:
        count = len(batch.turns)
        yield batch
        done = min(total, done + count)
        storing(done, total)


def resumed(store: ExperienceStore, path: str, kept: str | None, fmt: str | None) -> Reading | None:
    """The transcript at `path` from its cursor on (`kept`: the store's cursor for it), if it has one
    that still holds: the file only grew, and the store's latest turn of its session is the cursor's."""
    cursor = Cursor.loads(kept)
    if cursor is None or (fmt is not None and fmt != cursor.format):
        return None
    if store.last_turn(cursor.session) != (cursor.turn, cursor.position):
        return None
    reading = read_since(path, cursor)
    if reading is None:
        return None
    turns = turns_of(reading.sessions[0], cursor.position)
    return reading if turns and turns[0].id == cursor.turn else None


def _cursor_state(reading: Reading, read: list[tuple[Session, list[Turn]]]) -> str | None:
    """Where the next capture of this transcript may resume: at its last turn (None: it may not)."""
    if len(read) != 1 or not read[0][1]:
        return None
    turns = read[0][1]
    previous = turns[-2].id if len(turns) > 1 else reading.before
    cursor = reading.cursor_at(turns[-1], previous)
    return cursor.dumps() if cursor else None


def _released(
    grouped: list[tuple[Session, list[Turn], str | None]],
) -> Iterator[tuple[str | None, Iterator[Turn]]]:
    """Each session's turns (with the turn before its first), taken out of `grouped` (left empty): a
    session, its messages and each of its turns are freed once built and stored, so the room they
    held serves the store's writing."""
    grouped.reverse()
    while grouped:
        _, turns, before = grouped.pop()
        turns.reverse()
        yield before, _popped(turns)


def _popped(turns: list[Turn]) -> Iterator[Turn]:
    """The turns of `turns` (reversed: the first last), each taken out as it is given."""
    while turns:
        yield turns.pop()


BATCH_TURNS = 2_000


def _batches(
    sessions: Iterable[tuple[str | None, Iterable[Turn]]],
    settled: Collection[str],
    parts: Extractors,
    names: Mapping[str, str] | None,
    cursors: list[tuple[str, str | None]] | None = None,
) -> Iterator[CaptureBatch]:
    """The records of every turn (of each session's, after the turn before its first) not `settled`,
    `BATCH_TURNS` turns a batch (what `build` makes); the last batch keeps the `cursors`."""
    batch = CaptureBatch()
    for previous, turns in sessions:
        for turn in turns:
            if turn.id not in settled:
                add_turn(batch, turn, previous, affect=parts.affect, concepts=parts.concepts, names=names)
                if len(batch.turns) >= BATCH_TURNS:
                    yield batch
                    batch = CaptureBatch()
            previous = turn.id
    batch.cursors = cursors or []
    if batch.turns or batch.experiences or batch.cursors:
        yield batch


def settled_turns(store: ExperienceStore, sessions: Sequence[Session]) -> set[str]:
    """The turns of `sessions` already stored and complete: every stored turn but each session's
    latest, which may still gain layers (an answer after its question). Capturing a transcript
    that grew builds only its new turns and its last stored one. When the latest stored turn is
    not where it was (the conversation went on from an earlier entry: a branch, a rewind), an
    earlier turn may have gained layers too: none is settled."""
    return _settled(store, [(session, turns_of(session)) for session in sessions])


def _settled(store: ExperienceStore, grouped: Sequence[tuple[Session, list[Turn]]]) -> set[str]:
    settled: set[str] = set()
    for session, turns in grouped:
        last = store.last_turn(session.id)
        if last is None or not any(turn.id == last[0] and turn.position == last[1] for turn in turns):
            continue
        earlier = [turn.id for turn in turns if turn.id != last[0] and turn.position <= last[1]]
        settled |= store.known_turns(earlier)
    return settled


class TurnRecorder:
    """Records a live conversation turn by turn (the end-of-turn hook).

    >>> recorder = TurnRecorder(store, session="chat-42", user="David", agent="Lilu")
    >>> recorder.record(user_said="...", thinking="...", agent_said="...")
    """

    def __init__(
        self,
        store: ExperienceStore,
        *,
        session: str,
        user: str = "user",
        agent: str = "assistant",
        extractors: Extractors | None = None,
    ) -> None:
        self.store = store
        self.session = session_id("hook", session)
        self.user = user
        self.agent = agent
        self.extractors = extractors or Extractors()
        self._previous: tuple[str, int] | None = store.last_turn(self.session)

    def record(
        self,
        *,
        user_said: str = "",
        thinking: str = "",
        agent_said: str = "",
        tool_calls: Sequence[str] = (),
        when: str | None = None,
        key: str | None = None,
        position: int | None = None,
    ) -> Added:
        """Store one finished turn; `key` names it (default: its position in the session)."""
        if position is None:
            position = 0 if self._previous is None else self._previous[1] + 1
        messages: list[Message] = []
        if user_said.strip():
            messages.append(Message(Role.USER, self.user, text=user_said, when=when))
        if thinking.strip() or agent_said.strip() or tool_calls:
            messages.append(
                Message(
                    Role.ASSISTANT,
                    self.agent,
                    text=agent_said,
                    thinking=thinking,
                    tool_calls=tuple(tool_calls),
                    when=when,
                )
            )
        if not messages:
            return Added()
        name = key or f"#{position}"
        turn = Turn(turn_id(self.session, name), self.session, position, name, when, tuple(messages))
        batch = CaptureBatch()
        previous = self._previous[0] if self._previous else None
        add_turn(batch, turn, previous, affect=self.extractors.affect, concepts=self.extractors.concepts)
        added = self.store.add(batch)
        self._previous = (turn.id, position)
        return added
