"""Incremental capture for end-of-turn hooks: only the turns a transcript gained since last time.

A hook runs after every reply, so it must not rebuild a whole session each time. The transcript
is read (its format found from its content, as `zero capture` does), each session's latest captured
turn is looked up in the store (`last_turn`), and only that turn (it may have been open: its new
layers are added) and the turns after it are built and stored, in one transaction. The records are
the very ones `zero capture FILE` makes (same builder, same content addresses), so capturing the
file whole later adds nothing, and a session the store does not know yet is captured whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from zerolang.experience.build import add_turn, turns_of
from zerolang.experience.capture import Extractors
from zerolang.experience.model import Added, CaptureBatch
from zerolang.experience.store import ExperienceStore
from zerolang.experience.transcripts import read_transcript


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
    batch = CaptureBatch()
    for session in read_transcript(path, fmt=fmt):
        turns = turns_of(session)
        last = store.last_turn(session.id)
        start = 0
        if last is not None:
            start = next((n for n, turn in enumerate(turns) if turn.id == last[0]), 0)
        previous = turns[start - 1].id if start > 0 else None
        for turn in turns[start:]:
            add_turn(batch, turn, previous, affect=parts.affect, concepts=parts.concepts, names=names)
            previous = turn.id
    if not batch.turns:
        return Added()
    return store.add(batch)
