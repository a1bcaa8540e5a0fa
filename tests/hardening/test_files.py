"""Issue 15, point 1 (nothing destroyed) and the reading half of point 4 / point 7: every write is
atomic, keeps the file's mode, follows a link; odd files and odd stdin are clear errors."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.hardening.support import ROOT, graph, zero
from zerolang.util import files
from zerolang.util.errors import ZeroError

UNFORMATTED = 'Graph { name: "t", nodes: [ { id: "a", type: Constant, value: 1 } ], outputs: ["a"] }\n'
FIXABLE = graph(
    '{ id: "a", type: Constant, value: 1 }',
    '{ id: "b", type: Constant, value: 2 }',
    '{ id: "e", type: Operation, op: Eq, inputs: ["a", "b"] }',
    outputs='"e"',
)


def leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def test_write_keeps_the_mode_of_an_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "f.0"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    files.write_text_atomic(target, "new\r\n")
    assert target.read_bytes() == b"new\r\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_write_through_a_symlink_rewrites_its_target(tmp_path: Path) -> None:
    (tmp_path / "real.0").write_text("old", encoding="utf-8")
    (tmp_path / "link.0").symlink_to("real.0")
    files.write_text_atomic(tmp_path / "link.0", "new")
    assert (tmp_path / "link.0").is_symlink()
    assert (tmp_path / "real.0").read_text(encoding="utf-8") == "new"


def test_a_failing_write_leaves_the_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f.0"
    target.write_text("precious", encoding="utf-8")

    def refuse(source: object, destination: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(ZeroError, match="No space left on device"):
        files.write_text_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "precious"
    assert leftovers(tmp_path) == []


def test_a_failing_filler_leaves_the_file(tmp_path: Path) -> None:
    target = tmp_path / "f.0"
    target.write_text("precious", encoding="utf-8")

    def explode(temporary: Path) -> None:
        temporary.write_text("half", encoding="utf-8")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        files.replace_with(target, explode)
    assert target.read_text(encoding="utf-8") == "precious"
    assert leftovers(tmp_path) == []


def test_text_that_cannot_be_encoded_is_refused_before_touching_the_file(tmp_path: Path) -> None:
    target = tmp_path / "f.0"
    target.write_text("precious", encoding="utf-8")
    with pytest.raises(ZeroError, match="lone surrogate"):
        files.write_text_atomic(target, "bad \ud800")
    assert target.read_text(encoding="utf-8") == "precious"


def test_fmt_keeps_a_symlink_and_the_mode(tmp_path: Path) -> None:
    (tmp_path / "real.0").write_text(UNFORMATTED, encoding="utf-8")
    (tmp_path / "real.0").chmod(0o600)
    (tmp_path / "link.0").symlink_to("real.0")
    outcome = zero("fmt", str(tmp_path / "link.0"))
    assert outcome.code == 0, outcome.stderr
    assert (tmp_path / "link.0").is_symlink()
    assert (tmp_path / "real.0").read_text(encoding="utf-8") != UNFORMATTED
    assert stat.S_IMODE((tmp_path / "real.0").stat().st_mode) == 0o600


def test_lint_fix_writes_atomically_through_a_link(tmp_path: Path) -> None:
    (tmp_path / "real.0").write_text(FIXABLE, encoding="utf-8")
    (tmp_path / "link.0").symlink_to("real.0")
    outcome = zero("lint", "--fix", str(tmp_path / "link.0"))
    assert outcome.code in (0, 1), outcome.stderr
    assert (tmp_path / "link.0").is_symlink()
    assert "op: Equals" in (tmp_path / "real.0").read_text(encoding="utf-8")
    assert leftovers(tmp_path) == []


def test_writing_where_no_folder_is_a_clear_error(tmp_path: Path) -> None:
    source = ROOT / "examples" / "memory_fact.json"
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    line = zero("memory", "compile", str(source), "-o", str(blocker / "out.0")).clear_error()
    assert "cannot write" in line
    line = zero("viz", str(ROOT / "examples" / "hello.0"), "-o", str(tmp_path / "no" / "x.dot"))
    assert "cannot write" in line.clear_error()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_an_unwritable_folder_is_a_clear_error_and_the_file_survives(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    target = folder / "f.0"
    target.write_text(UNFORMATTED, encoding="utf-8")
    folder.chmod(0o555)
    try:
        outcome = zero("fmt", str(target))
        assert outcome.code == 1 and "internal error" not in outcome.stderr
        assert "cannot write" in outcome.stderr
        assert target.read_text(encoding="utf-8") == UNFORMATTED
    finally:
        folder.chmod(0o755)


def test_keygen_writes_a_private_file_atomically(tmp_path: Path) -> None:
    key = tmp_path / "k.pem"
    key.write_text("old", encoding="utf-8")
    key.chmod(0o644)
    assert zero("keygen", "--force", str(key)).code == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert key.read_text(encoding="utf-8").startswith("-----BEGIN PRIVATE KEY-----")


def test_memory_export_follows_a_link(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert zero("memory", "ingest", str(ROOT / "examples" / "memory_fact.json"), "--db", db).code == 0
    (tmp_path / "real.0c").write_text("", encoding="utf-8")
    (tmp_path / "out.0c").symlink_to("real.0c")
    assert zero("memory", "export", "--db", db, "-o", str(tmp_path / "out.0c")).code == 0
    assert (tmp_path / "out.0c").is_symlink()
    assert (tmp_path / "real.0c").read_text(encoding="utf-8").startswith("0M:")


# ---- reading: only regular files; stdin only as UTF-8 -------------------------------------------


def test_check_refuses_a_device() -> None:
    assert "not a regular file (a device)" in zero("check", "/dev/zero").stderr


def test_check_refuses_a_fifo_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.0"
    os.mkfifo(fifo)
    outcome = zero("check", str(fifo))
    assert outcome.code == 1
    assert "not a regular file (a FIFO)" in outcome.stderr


def test_read_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ZeroError, match="is a directory"):
        files.read_text(tmp_path)


@pytest.mark.parametrize("locale", ["C.UTF-8", "C", "POSIX"])
def test_fmt_stdin_that_is_not_utf8_is_an_error_under_any_locale(locale: str) -> None:
    outcome = zero(
        "fmt", "-", stdin=b'Graph { name: "\xff", nodes: [], outputs: [] }\n', env={"LC_ALL": locale}
    )
    assert outcome.clear_error() == "error: <stdin>: not UTF-8 text (byte 15)"
    assert outcome.stdout == ""


@pytest.mark.parametrize("command", [["memory", "import", "-"], ["memory", "ingest", "-"]])
def test_memory_stdin_that_is_not_utf8_is_an_error(command: list[str], tmp_path: Path) -> None:
    outcome = zero(*command, "--db", str(tmp_path / "m.db"), stdin=b'{"x": "\xfe"}', env={"LC_ALL": "C"})
    assert "not UTF-8 text" in outcome.clear_error()


def test_a_permission_error_is_one_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What an unwritable folder gives a non-root user (exit 3 before), simulated for any user."""
    import tempfile

    target = tmp_path / "f.0"
    target.write_text("precious", encoding="utf-8")

    def refuse(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(ZeroError, match=r"f\.0: cannot write here \(Permission denied\)"):
        files.write_text_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "precious"
