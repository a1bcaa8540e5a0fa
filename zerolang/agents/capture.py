"""Incremental capture for end-of-turn hooks: only the turns a transcript gained since last time.

A hook runs after every reply, so it must not rebuild a whole session each time. Each session's
latest captured turn is looked up in the store (`last_turn`), and only that turn (it may have been
open: its new layers are added) and the turns after it are built and stored, in one transaction.
The records are the very ones `zero capture FILE` makes (same builder, same content addresses), so
capturing the file whole later adds nothing, and a session the store does not know yet is captured
whole.

Nor must it read the whole file each time: the store keeps, per transcript, a cursor at the line
the last captured turn opens with (`zerolang.experience.transcripts.cursor`), written in the same
transaction as the turns. When the file still holds what the cursor saw and the store's latest turn
is still the cursor's, only the lines from there on are parsed; otherwise the whole file is read,
as it always was, and the records are the same either way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from zerolang.experience.build import add_turn, turns_of
from zerolang.experience.capture import Extractors, resumed
from zerolang.experience.model import Added, CaptureBatch, Turn
from zerolang.experience.store import ExperienceStore
from zerolang.experience.transcripts.cursor import read_whole
from zerolang.util.errors import ZeroError


def transcript_file(path: Path, event: str) -> Path:
    """The transcript an end-of-turn event names, checked before it is read: a path that is missing,
    a folder, or not a regular file (a FIFO would block the hook) is a `ZeroError` the hook says in
    its one line (`zero hook` exits 0 all the same)."""
    if path.is_file():
        return path
    if not path.exists():
        problem = "no such file"
    elif path.is_dir():
        problem = "is a directory"
    else:
        problem = "not a regular file"
    raise ZeroError(f"{event}: the transcript {path}: {problem}; nothing was captured")


def capture_new_turns(
    store: ExperienceStore,
    path: str | Path,
    *,
    fmt: str | None = None,
    names: Mapping[str, str] | None = None,
    extractors: Extractors | None = None,
) -> Added:
    """Store the turns of the transcript at `path` the store does not hold yet; what was added."""
    parts = extractors or Extractors()
    name = str(path)
    key = os.path.abspath(name)
    kept = store.cursor(key)
    reading = resumed(store, name, kept, fmt) or read_whole(name, fmt)
    batch = CaptureBatch()
    last_turn: tuple[Turn, str | None] | None = None
    for session in reading.sessions:
        turns = turns_of(session, reading.first_position)
        last = store.last_turn(session.id)
        start = 0
        if last is not None:
            start = next((n for n, turn in enumerate(turns) if turn.id == last[0]), 0)
        previous = turns[start - 1].id if start > 0 else reading.before
        for turn in turns[start:]:
            add_turn(batch, turn, previous, affect=parts.affect, concepts=parts.concepts, names=names)
            last_turn = (turn, previous)
            previous = turn.id
    if not batch.turns:
        return Added()
    cursor = reading.cursor_at(*last_turn) if last_turn else None
    state = cursor.dumps() if cursor else None
    if state != kept:
        batch.cursors.append((key, state))
    return store.add(batch)
