"""A capture carries the memory's purges into its experience store before it writes
(`zerolang.memory.opening.carry_purges_into`), and skips opening the memory where one read tells it
holds no purge of the space (`zerolang.storage.holds_purges`)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import zerolang.memory
from zerolang.cli.app import app
from zerolang.storage import holds_purges, open_experiences

SECRET = "Zorblax Quuxly"
runner = CliRunner()


def _capture(transcript: Path, *arguments: str) -> dict[str, int]:
    result = runner.invoke(
        app, ["capture", str(transcript), *arguments, "--json"], env={"ZERO_MEMORY_SPACE": ""}
    )
    assert result.exit_code == 0, result.output
    added: dict[str, int] = json.loads(result.output)
    return added


def test_holds_purges_is_false_only_where_no_purge_of_the_space_is_held(tmp_path: Path) -> None:
    memory_at = tmp_path / "memory.db"
    assert not holds_purges(memory_at, "default")  # no file yet
    with zerolang.memory.open(str(memory_at), experiences=":memory:", archive=tmp_path / "a") as memory:
        memory.remember([(SECRET, "speaks", "Esperanto")])
    assert not holds_purges(memory_at, "default")  # a memory, no purge
    with zerolang.memory.open(str(memory_at), experiences=":memory:", archive=tmp_path / "b") as memory:
        memory.forget("concept", SECRET, purge=True)
    assert holds_purges(memory_at, "default")
    assert not holds_purges(memory_at, "elsewhere")  # purges are the space's own
    (tmp_path / "plain.txt").write_text("not a database", encoding="utf-8")
    assert holds_purges(tmp_path / "plain.txt", "default")  # cannot tell: the memory is asked


def test_a_capture_carries_the_purges_of_its_space_alone(tmp_path: Path) -> None:
    memory_at, experiences_at = tmp_path / "memory.db", tmp_path / "experiences.db"
    with zerolang.memory.open(str(memory_at), experiences=":memory:", archive=tmp_path / "a") as memory:
        memory.remember([(SECRET, "speaks", "Esperanto")])
        memory.forget("concept", SECRET, purge=True)
    transcript = tmp_path / "chat.jsonl"
    lines = [
        {"role": "user", "content": f"{SECRET} speaks Esperanto."},
        {"role": "assistant", "content": "Ok."},
    ]
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    where = ["--db", str(memory_at), "--experiences", str(experiences_at)]
    assert _capture(transcript, *where)["forgotten"] == 2  # the purge reached the store first
    assert _capture(transcript, *where, "--space", "elsewhere")["experiences"] == 2  # not that space's
    with open_experiences(experiences_at, space="default", create=False) as store:
        assert store.forgotten_terms()
    with open_experiences(experiences_at, space="elsewhere", create=False) as store:
        assert store.forgotten_terms() == []
