"""Incremental capture from a cursor: the store it makes is the one reading the whole file makes.

A transcript is grown line by line (user lines, assistant block lines sharing a message id, tool
results, compaction summaries, sidechain entries) and captured after each chunk; the records are
compared with what the whole-file incremental capture (the cursor ignored) makes after the same
chunks, and, when every chunk ends on a turn, with one `zero capture` of the final file. A file
rewritten under its cursor falls back to a full read.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from zerolang.agents.capture import capture_new_turns
from zerolang.experience.build import add_turn, turns_of
from zerolang.experience.capture import Extractors, capture_files
from zerolang.experience.model import CaptureBatch
from zerolang.experience.store import ExperienceStore
from zerolang.experience.transcripts import read_transcript
from zerolang.storage import open_experiences
from zerolang.storage.schema import EDGE_ENDS, EDGE_KINDS
from zerolang.util.errors import ZeroError

SESSION = "cccccccc-0000-4000-8000-000000000003"
KINDS = ("user", "thinking", "tool", "result", "answer", "summary", "sidechain", "blank")


def entries(kinds: list[str]) -> list[str]:
    """A Claude Code session's lines, one per kind (a blank line for `blank`)."""
    out: list[str] = []
    last: str | None = None
    for n, kind in enumerate(kinds):
        uuid = f"u{n:05d}"
        mid = f"m{n // 3}"  # neighbouring assistant blocks share a message id
        base: dict[str, Any] = {"parentUuid": last, "isSidechain": False, "sessionId": SESSION, "uuid": uuid}
        base["timestamp"] = f"2025-07-14T10:{n // 60 % 60:02d}:{n % 60:02d}Z"
        if kind == "blank":
            out.append("")
            continue
        if kind == "summary":
            out.append(json.dumps({"type": "summary", "summary": f"kept the billing notes {n}"}))
            continue
        if kind == "sidechain":
            side = {**base, "isSidechain": True, "type": "user", "parentUuid": last}
            out.append(json.dumps({**side, "message": {"role": "user", "content": f"sub-agent {n}"}}))
            continue
        if kind == "user":
            message: dict[str, Any] = {"role": "user", "content": f"why does the login token {n} expire?"}
        elif kind == "result":
            block = {"type": "tool_result", "tool_use_id": f"t{n}", "content": f"token {n} read"}
            message = {"role": "user", "content": [block]}
        else:
            block = {
                "thinking": {"type": "thinking", "thinking": f"check the clock {n}"},
                "tool": {"type": "tool_use", "name": "Read", "input": {"path": f"/src/{n}.py"}},
                "answer": {"type": "text", "text": f"the pool config {n} was stale"},
            }[kind]
            message = {"id": mid, "role": "assistant", "content": [block]}
        out.append(
            json.dumps(
                {**base, "type": "user" if kind in {"user", "result"} else "assistant", "message": message}
            )
        )
        last = uuid
    return out


def whole_file_capture(store: ExperienceStore, path: Path) -> None:
    """Incremental capture as it was before cursors: the whole file read every time."""
    parts, batch = Extractors(), CaptureBatch()
    for session in read_transcript(path):
        turns = turns_of(session)
        last = store.last_turn(session.id)
        start = next((n for n, turn in enumerate(turns) if last and turn.id == last[0]), 0)
        previous = turns[start - 1].id if start > 0 else None
        for turn in turns[start:]:
            add_turn(batch, turn, previous, affect=parts.affect, concepts=parts.concepts)
            previous = turn.id
    if batch.turns:
        store.add(batch)


def records(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every record of the store, named by hashes (the numbers that join them are the file's own)."""
    edges = " UNION ALL ".join(
        f"SELECT a.id, '{kind}', b.id, g.weight FROM exp_edge g JOIN {sources} a ON a.seq = g.src"
        f" JOIN {targets} b ON b.seq = g.dst WHERE g.kind = {EDGE_KINDS[kind]}"
        for kind, (sources, targets) in EDGE_ENDS.items()
    )
    queries = {
        "exp_turn": "SELECT t.id, s.id, t.position, t.key, t.at FROM exp_turn t"
        " JOIN exp_session s ON s.seq = t.session",
        "exp_experience": "SELECT e.id, e.layer, e.who, e.what, e.at, s.id, t.id, t.position, e.ordinal,"
        " e.affect, e.sources FROM exp_experience e JOIN exp_turn t ON t.seq = e.turn"
        " JOIN exp_session s ON s.seq = t.session",
        "exp_concept": "SELECT id, label FROM exp_concept",
        "exp_edge": edges,
        "exp_term": "SELECT e.id, t.term, t.what, t.who FROM exp_term t JOIN exp_experience e ON e.seq = t.seq",
        "exp_length": "SELECT e.id, l.what, l.who FROM exp_length l JOIN exp_experience e ON e.seq = l.seq",
    }
    with sqlite3.connect(db) as connection:
        return {name: sorted(connection.execute(sql)) for name, sql in queries.items()}


def write_lines(path: Path, lines: list[str]) -> None:
    """The file holding `lines`, each ended."""
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def whole_captures(path: Path, db: Path, versions: list[list[str]]) -> dict[str, list[tuple[object, ...]]]:
    """The records of a store `db` that captured `path` whole after it held each of `versions`."""
    with open_experiences(db, create=True) as store:
        for lines in versions:
            write_lines(path, lines)
            whole_file_capture(store, path)
    return records(db)


def grow(folder: Path, name: str, chunks: list[list[str]], capture: Any) -> Path:
    path, db = folder / f"{name}.jsonl", folder / f"{name}.db"
    with open_experiences(db, create=True) as store:
        for chunk in chunks:
            with path.open("a", encoding="utf-8") as file:
                file.write("".join(line + "\n" for line in chunk))
            with contextlib.suppress(ZeroError):  # not a transcript yet (blank lines): both refuse it
                capture(store, path)
    return db


def split(lines: list[str], cuts: list[int]) -> list[list[str]]:
    points = sorted({0, len(lines), *(cut % (len(lines) + 1) for cut in cuts)})
    return [lines[a:b] for a, b in itertools.pairwise(points)]


@settings(max_examples=40, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=30).map(lambda k: ["user", *k]),
    cuts=st.lists(st.integers(min_value=0, max_value=40), max_size=8),
)
def test_capturing_from_the_cursor_makes_what_reading_the_whole_file_makes(
    tmp_path_factory: Any, kinds: list[str], cuts: list[int]
) -> None:
    folder = tmp_path_factory.mktemp("cursor")
    chunks = split(entries(kinds), cuts)
    fast = grow(folder, "fast", chunks, capture_new_turns)
    slow = grow(folder, "slow", chunks, whole_file_capture)
    assert records(fast) == records(slow)


@settings(max_examples=25, deadline=None)
@given(turns=st.lists(st.sampled_from(["short", "tool", "summary"]), min_size=1, max_size=12), data=st.data())
def test_appending_whole_turns_and_capturing_each_time_equals_one_capture(
    tmp_path_factory: Any, turns: list[str], data: st.DataObject
) -> None:
    shapes = {"short": ["user", "answer"], "tool": ["user", "thinking", "tool", "result", "answer"]}
    # opening with a summary (no sessionId yet) names the session from its first line, until a later
    # line gives the id: a transcript that starts so is captured whole only when it is whole
    kinds = [kind for turn in ["short", *turns] for kind in shapes.get(turn, ["summary"])]
    lines = entries(kinds)
    opens = [n for n, kind in enumerate(kinds) if kind in {"user", "summary"}]
    cuts = data.draw(st.lists(st.sampled_from(opens), max_size=6))
    folder = tmp_path_factory.mktemp("turns")
    fast = grow(folder, "fast", split(lines, cuts), capture_new_turns)
    once = folder / "once.db"
    with open_experiences(once, create=True) as store:
        capture_files(store, [folder / "fast.jsonl"])
    assert records(fast) == records(once)


def cursor_row(db: Path) -> dict[str, Any]:
    with sqlite3.connect(db) as connection:
        (state,) = connection.execute("SELECT state FROM exp_cursor").fetchone()
    return dict(json.loads(state))


def test_a_rewritten_transcript_falls_back_to_reading_it_whole(tmp_path: Path) -> None:
    path, db = tmp_path / "s.jsonl", tmp_path / "s.db"
    lines = entries(["user", "answer", "user", "answer", "user", "answer"])
    write_lines(path, lines)
    with open_experiences(db, create=True) as store:
        capture_new_turns(store, path)
        before = cursor_row(db)
        assert before["line"] == 5 and before["position"] == 2
        # the last turn's answer rewritten in place, same length: the digest no longer matches
        rewritten = [*lines[:5], lines[5].replace("stale", "fresh")]
        write_lines(path, rewritten)
        assert capture_new_turns(store, path).experiences == 1
    assert records(db) == whole_captures(path, tmp_path / "slow.db", [lines, rewritten])


def test_a_bad_line_after_the_cursor_is_reported_at_its_line_in_the_file(tmp_path: Path) -> None:
    path, db = tmp_path / "s.jsonl", tmp_path / "s.db"
    lines = entries(["user", "answer", "user", "answer"])
    write_lines(path, lines)
    with open_experiences(db, create=True) as store:
        capture_new_turns(store, path)
        with path.open("a", encoding="utf-8") as file:
            file.write('{"type": "user", oops\n')
        try:
            capture_new_turns(store, path)
        except ZeroError as error:
            assert ":5:" in error.headline()
        else:
            raise AssertionError("a malformed line was captured")


def test_a_grown_transcript_is_read_from_its_cursor_only(tmp_path: Path, monkeypatch: Any) -> None:
    import zerolang.agents.capture as capture

    path, db = tmp_path / "s.jsonl", tmp_path / "s.db"
    lines = entries(["user", "thinking", "tool", "result", "answer"] * 3)
    write_lines(path, lines[:10])
    with open_experiences(db, create=True) as store:
        capture_new_turns(store, path)

        def refused(*_: object) -> None:
            raise AssertionError("read the whole file")

        monkeypatch.setattr(capture, "read_whole", refused)
        with path.open("a", encoding="utf-8") as file:
            file.write("".join(line + "\n" for line in lines[10:]))
        assert capture_new_turns(store, path).turns == 1
    assert cursor_row(db)["line"] == 11
