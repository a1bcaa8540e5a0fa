"""docs/query.md shows real output: its console blocks are replayed in order on one fresh database."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.knowledge.query.conftest import ROOT
from zerolang.cli.app import app

DOC = ROOT / "docs" / "query.md"


def sessions() -> list[tuple[str, str]]:
    """(command, expected output) for each `$ zero ...` line of the console blocks, in order."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        lines = block.splitlines()
        commands = [i for i, line in enumerate(lines) if line.startswith("$ ")]
        for start, end in zip(commands, [*commands[1:], len(lines)], strict=True):
            found.append((lines[start][2:], "\n".join(lines[start + 1 : end])))
    return found


def test_the_console_blocks_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    env = {"ZERO_MEMORY_DB": str(tmp_path / "memory.db")}
    replayed = sessions()
    assert len(replayed) >= 10
    for command, expected in replayed:
        words = shlex.split(command)
        assert words[0] == "zero"
        result = runner.invoke(app, words[1:], env=env)
        if words[1:3] == ["memory", "ingest"]:
            assert result.exit_code == 0, result.output
            continue
        shown = (result.stdout + result.stderr).rstrip("\n")
        assert shown == expected.rstrip("\n"), command
