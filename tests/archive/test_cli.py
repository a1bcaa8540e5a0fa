"""`zero archive ...` end to end: every command, its output and exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zerolang.archive import Archive, Tier
from zerolang.cli.app import app

from .conftest import note

runner = CliRunner()


def zero(*arguments: str, root: Path, input: str | None = None) -> Any:
    return runner.invoke(app, ["archive", *arguments, "--root", str(root)], input=input)


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    one = tmp_path / "one.json"
    one.write_text(json.dumps(note("first").to_json()))
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join(json.dumps(note(f"line {index}").body()) for index in range(3)) + "\n")
    return [one, many]


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["archive", "--help"])
    assert result.exit_code == 0
    for command in ("put", "get", "verify", "tier", "stats", "gc"):
        assert command in result.output


def test_put_prints_each_hash_and_is_idempotent(tmp_path: Path, files: list[Path]) -> None:
    root = tmp_path / "ar"
    result = zero("put", *map(str, files), root=root)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"stored  {note('first').hash}  {files[0]}"
    assert lines[1:] == [f"stored  {note(f'line {i}').hash}  {files[1]}:{i + 1}" for i in range(3)]
    again = zero("put", str(files[0]), root=root)
    assert again.output == f"exists  {note('first').hash}  {files[0]}\n"


def test_put_from_stdin_fills_created_at(tmp_path: Path) -> None:
    body = {
        "source": {"channel": "cli"},
        "messages": [{"role": "user", "content": "x"}],
        "consent_scope": "p",
    }
    result = zero("put", "-", root=tmp_path / "ar", input=json.dumps(body))
    assert result.exit_code == 0 and result.output.startswith("stored  ")
    digest = result.output.split()[1]
    assert Archive(tmp_path / "ar").get(digest).created_at.endswith("Z")


def test_put_refuses_bad_documents_and_writes_nothing(tmp_path: Path, files: list[Path]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"source": {"channel": "x"}, "messages": [], "consent_scope": "p"}]')
    result = zero("put", str(files[0]), str(bad), root=tmp_path / "ar")
    assert result.exit_code == 1
    assert f"{bad}[0]: a document needs at least one message" in result.output
    assert not (tmp_path / "ar").exists()
    broken = tmp_path / "broken.json"
    broken.write_text('{"a": }')
    result = zero("put", str(broken), root=tmp_path / "ar")
    assert result.exit_code == 1 and f"{broken}:1:7: not JSON" in result.output


def test_get_prints_the_document_or_its_exact_bytes(tmp_path: Path, files: list[Path]) -> None:
    root = tmp_path / "ar"
    zero("put", str(files[0]), root=root)
    digest = note("first").hash
    shown = zero("get", digest, root=root)
    assert shown.exit_code == 0 and json.loads(shown.output) == note("first").to_json()
    raw = zero("get", f"sha256:{digest}", "--raw", root=root)
    assert raw.stdout_bytes == note("first").canonical()


@pytest.mark.parametrize("text", ["../../etc/passwd", "0" * 64, "abcdef"])
def test_get_refuses_unknown_and_malformed_hashes(tmp_path: Path, files: list[Path], text: str) -> None:
    root = tmp_path / "ar"
    zero("put", str(files[0]), root=root)
    result = zero("get", text, root=root)
    assert result.exit_code == 1
    assert "first" not in result.output
    assert ("no document" if text == "0" * 64 else "not a document hash") in result.output


def test_get_names_the_hash_of_a_corrupt_document(tmp_path: Path, files: list[Path]) -> None:
    root = tmp_path / "ar"
    zero("put", str(files[0]), root=root)
    digest = note("first").hash
    path = Archive(root).hot_path(digest)
    path.chmod(0o644)
    path.write_bytes(path.read_bytes().replace(b"first", b"FIRST"))
    result = zero("get", digest, root=root)
    assert result.exit_code == 1
    assert f"error: document {digest} is corrupt in every copy" in result.output
    assert "FIRST" not in result.output


def test_tier_stats_verify_and_gc(tmp_path: Path, files: list[Path]) -> None:
    root = tmp_path / "ar"
    zero("put", *map(str, files), root=root)
    assert zero("tier", "warm", root=root).exit_code == 1  # which documents?
    assert "unknown tier" in zero("tier", "lukewarm", "--all", root=root).output
    moved = zero("tier", "cold", "--all", root=root)
    assert moved.output == "moved 4 documents to cold (0 already there, 0 failed)\n"
    assert zero("tier", "warm", note("first").hash, root=root).output.startswith("moved 1 document to warm")
    assert zero("tier", "hot", "--older-than", "100000", root=root).output.startswith("moved 0 documents")
    stats = json.loads(zero("stats", "--json", root=root).output)
    assert stats["documents"] == 4
    assert {tier: item["documents"] for tier, item in stats["tiers"].items()} == {
        "hot": 0,
        "warm": 1,
        "cold": 3,
    }
    text = zero("stats", root=root).output
    assert "warm       1 document," in text and "bundles    1 (" in text
    assert zero("verify", root=root).output == "checked 4 documents (4 stored copies): all good\n"
    archive = Archive(root)
    archive.warm_path(note("first").hash).chmod(0o644)
    archive.warm_path(note("first").hash).write_bytes(b"junk")
    (archive.root / "hot").mkdir(exist_ok=True)
    (archive.root / "hot" / ".x.json.1.tmp").write_bytes(b"tmp")
    result = zero("verify", root=root)
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith(f"corrupt   {note('first').hash}  warm/")
    assert result.output.splitlines()[-1] == "checked 4 documents (4 stored copies): 1 problem"
    assert (
        json.loads(zero("verify", "--json", "0" * 64, root=root).output)["problems"][0]["kind"] == "missing"
    )
    dry = zero("gc", "--dry-run", root=root)
    assert dry.output == (
        "would remove temp file    hot/.x.json.1.tmp\nwould remove 1 item, 3 bytes and 8 empty folders\n"
    )
    done = zero("gc", root=root)
    assert (
        done.output == "removed temp file    hot/.x.json.1.tmp\nremoved 1 item, 3 bytes and 8 empty folders\n"
    )
    assert zero("gc", root=root).output == "removed 0 items, 0 bytes\n"


def test_commands_on_a_missing_archive_say_so(tmp_path: Path) -> None:
    for command in (["stats"], ["verify"], ["gc"], ["get", "0" * 64], ["tier", "hot", "--all"]):
        result = zero(*command, root=tmp_path / "none")
        assert result.exit_code == 1
        assert "no archive here" in result.output


def test_the_root_comes_from_pyproject_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.zero.memory.archive]\npath = "var/docs"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ZERO_ARCHIVE", raising=False)
    body = json.dumps(note("configured").to_json())
    result = runner.invoke(app, ["archive", "put", "-"], input=body)
    assert result.exit_code == 0, result.output
    assert Archive(tmp_path / "var" / "docs").get(note("configured").hash)
    assert Archive(tmp_path / "var" / "docs").copies(note("configured").hash)[0].tier is Tier.HOT


def test_zero_help_does_not_import_the_archive() -> None:
    import subprocess
    import sys

    modules = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "zerolang", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    for heavy in ("zerolang.archive", "zstandard", "sqlite3", "rich"):
        assert f" {heavy}\n" not in modules, f"{heavy} is imported by --help"
