"""`zero capture` end to end: what it says, --json counts, errors with file:line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
