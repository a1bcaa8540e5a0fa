"""`zero capture` end to end: what it says, --json counts, errors with file:line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"


def zero(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zerolang", *arguments], capture_output=True, text=True, check=False
    )


def test_capture_then_nothing_new(tmp_path: Path) -> None:
    db = str(tmp_path / "e.db")
    files = [str(FIXTURES / "pi_v3.jsonl"), str(FIXTURES / "claude_code.jsonl")]
    first = zero("capture", *files, "--db", db)
    assert first.returncode == 0, first.stderr
    assert "pi_v3.jsonl: pi, 1 session, 4 turns" in first.stdout
    assert first.stdout.strip().splitlines()[-1].startswith("Added 7 turns, ")
    again = zero("capture", *files, "--db", db, "--json")
    assert json.loads(again.stdout) == {"turns": 0, "experiences": 0, "concepts": 0, "edges": 0}
    more = json.loads(zero("capture", str(FIXTURES / "openai_chat.json"), "--db", db, "--json").stdout)
    assert more["turns"] == 2 and more["experiences"] == 7


def test_capture_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "user", "content": "hi"}\n{"role": \n')
    db = tmp_path / "e.db"
    result = zero("capture", str(FIXTURES / "pi_v1.jsonl"), str(bad), "--db", str(db))
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {bad}:2:")
    assert "Traceback" not in result.stderr
    missing = zero("capture", str(tmp_path / "nope.jsonl"), "--db", str(db))
    assert missing.returncode == 1 and "no such file" in missing.stderr
    wrong = zero("capture", str(FIXTURES / "pi_v1.jsonl"), "--format", "yaml", "--db", str(db))
    assert wrong.returncode == 1 and "--format 'yaml'" in wrong.stderr


def test_capture_a_folder(tmp_path: Path) -> None:
    db = str(tmp_path / "e.db")
    result = zero("capture", str(FIXTURES), "--db", db, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["turns"] == 13


def test_the_progress_bar_says_the_files_read_then_the_turns_stored(tmp_path: Path, monkeypatch: Any) -> None:
    """A long capture's bar (on a terminal) goes on while the turns are stored, batch by batch: that
    is most of its time, after the files are read."""
    import io

    from rich.console import Console

    import zerolang.experience.capture as capture
    from zerolang.cli.capture_exec import _with_progress
    from zerolang.storage import open_experiences

    monkeypatch.setattr(capture, "BATCH_TURNS", 2)
    chat = tmp_path / "chat.jsonl"
    lines = [
        json.dumps({"role": role, "content": f"{role} {n}"})
        for n in range(7)
        for role in ("user", "assistant")
    ]
    chat.write_text("\n".join(lines) + "\n", encoding="utf-8")
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100, _environ={})
    reported: list[tuple[int, int]] = []
    with open_experiences(tmp_path / "e.db", create=True) as store:
        result = _with_progress(store, [chat], {}, None, console)
        assert result.added.turns == 7
    with open_experiences(tmp_path / "f.db", create=True) as store:
        capture.capture_files(store, [chat], storing=lambda done, total: reported.append((done, total)))
    assert reported == [(0, 7), (2, 7), (4, 7), (6, 7), (7, 7)]
    assert "storing" in screen.getvalue() and "turns" in screen.getvalue()


def test_a_transcript_being_written_is_captured_up_to_its_last_whole_line(tmp_path: Path) -> None:
    db, path = str(tmp_path / "e.db"), tmp_path / "t.jsonl"
    data = (FIXTURES / "claude_code.jsonl").read_bytes()
    path.write_bytes(data[:40])  # inside the first line
    waiting = zero("capture", str(path), "--db", db)
    assert waiting.returncode == 0, waiting.stderr
    assert waiting.stdout.splitlines() == [
        f"{path}: nothing to read yet (line 1 is cut short, still being written: left for the next capture)",
        "Nothing new: no complete turn yet.",
    ]
    cut = data.index(b"\n", data.index(b"\n") + 1) + 30  # inside the third line
    path.write_bytes(data[:cut])
    partial = zero("capture", str(path), "--db", db)
    assert "(line 3 is cut short, still being written: left for the next capture)" in partial.stdout
    assert partial.stdout.splitlines()[-1].startswith("Added ")
    again = zero("capture", str(path), "--db", db)
    assert again.stdout.splitlines()[-1] == "Nothing new: every turn was already captured."
