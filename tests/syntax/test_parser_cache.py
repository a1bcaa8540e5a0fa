"""The parser cache runs no code it did not write (issue 15 point 2) and is actually used."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from zerolang.syntax.grammar import build_parser
from zerolang.util import cache

ROOT = Path(__file__).resolve().parents[2]
HELLO = str(ROOT / "examples" / "hello.0")


class Exploit:
    """A pickle that, when loaded, creates a file: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv("ZERO_CACHE_DIR", str(folder))
    monkeypatch.delenv("ZERO_NO_CACHE", raising=False)
    cache.reset()
    yield folder
    cache.reset()


def _zero(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zerolang", *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "ZERO_CACHE_DIR": str(folder)},
        check=False,
        cwd=ROOT,
    )


def test_folder_and_key_are_private(cache_folder: Path) -> None:
    build_parser("query", None, False)
    assert (cache_folder.stat().st_mode & 0o777) == 0o700
    key = cache_folder / cache.SECRET_NAME
    assert (key.stat().st_mode & 0o777) == 0o600 and key.stat().st_size == 32
    files = list(cache_folder.glob("query-contextual-*.parser"))
    assert len(files) == 1
    assert not files[0].read_bytes().startswith(b"\x80"), "the cache is not a pickle"


def test_second_build_loads_from_the_cache(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_parser("query", None, False)
    from lark import Lark

    def no_analysis(*args: object, **kwargs: object) -> None:
        raise AssertionError("the grammar was analysed again instead of loaded")

    monkeypatch.setattr(Lark, "__init__", no_analysis)
    parser = build_parser("query", None, False)
    assert parser.parse('recall "x"') is not None


@pytest.mark.slow
@pytest.mark.parametrize("planted", ["pickle", "resigned", "lark-cache"])
def test_planted_cache_file_runs_no_code(tmp_path: Path, planted: str) -> None:
    """A pickle put where the parser cache is (or the old lark name for it) is ignored and rebuilt."""
    folder = tmp_path / "cache"
    assert _zero(folder, "check", HELLO).returncode == 0  # builds the cache, makes the key
    marker = tmp_path / "pwned"
    evil = pickle.dumps(Exploit(marker))
    # lark's built parser and the tables our loop reads from it (zerolang.syntax.lalr): both are rebuilt.
    targets = [*folder.glob("zero-*.parser"), *folder.glob("zero-driver-*.tables")]
    assert len(targets) == 2
    for target in targets:
        if planted == "pickle":
            target.write_bytes(evil)
        elif planted == "resigned":  # the right header, a signature made without the key
            target.write_bytes(cache.MAGIC + b"\0" * 32 + evil)
        else:
            (folder / f"{target.stem.replace('.parser', '')}.lark-cache").write_bytes(evil)
    result = _zero(folder, "check", HELLO)
    assert result.returncode == 0, result.stderr
    assert not marker.exists(), "code in the cache ran"
    pickle.loads(evil)  # the control: unpickled, the planted bytes do run code
    assert marker.exists()
    marker.unlink()
    if planted != "lark-cache":
        for target in targets:
            assert target.read_bytes().startswith(cache.MAGIC)
            assert target.read_bytes() != cache.MAGIC + b"\0" * 32 + evil
    assert _zero(folder, "run", HELLO, "--input", "name=Ada", "--json").returncode == 0
    assert not marker.exists()


@pytest.mark.slow
def test_folder_writable_by_others_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    result = _zero(folder, "check", HELLO)
    assert result.returncode == 0
    assert "writable by others" in result.stderr and "not using the cache" in result.stderr
    assert not list(folder.iterdir()), "nothing written to a folder others can write"


def test_file_signed_for_another_name_is_rejected(cache_folder: Path) -> None:
    cache.store("a.parser", b"payload")
    assert cache.load("a.parser") == b"payload"
    (cache_folder / "b.parser").write_bytes((cache_folder / "a.parser").read_bytes())
    assert cache.load("b.parser") is None


def test_another_users_key_is_not_trusted(cache_folder: Path) -> None:
    cache.store("a.parser", b"payload")
    key = cache_folder / cache.SECRET_NAME
    key.chmod(0o644)  # readable by others: a key anyone may have copied
    cache.reset()
    assert cache.load("a.parser") is None


def test_no_cache_setting(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZERO_NO_CACHE", "1")
    assert cache.cache_dir() is None
    assert build_parser("query", None, False).parse('recall "x"') is not None
    assert not cache_folder.exists()


@pytest.mark.skipif(sys.platform != "linux", reason="the usual folder is looked in first only on Linux")
@pytest.mark.parametrize(
    ("xdg", "home"), [("/x/cache", "/home/u"), ("", "/home/u"), ("relative", "/home/u"), (None, "/home/v")]
)
def test_usual_folder_is_where_platformdirs_puts_it(
    monkeypatch: pytest.MonkeyPatch, xdg: str | None, home: str
) -> None:
    """`load` looks in `_usual_folder` before importing platformdirs: it must be the folder `cache_dir`
    resolves when no variable of ours moves it."""
    from platformdirs import user_cache_dir

    monkeypatch.delenv("ZERO_CACHE_DIR", raising=False)
    monkeypatch.delenv("ZERO_NO_CACHE", raising=False)
    monkeypatch.setenv("HOME", home)
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert cache._usual_folder() == Path(user_cache_dir("zerolang", appauthor=False))
    monkeypatch.setenv("ZERO_CACHE_DIR", "/elsewhere")
    assert cache._usual_folder() is None


@pytest.mark.skipif(sys.platform != "linux", reason="the usual folder is looked in first only on Linux")
def test_run_that_finds_its_tables_imports_no_platformdirs(tmp_path: Path) -> None:
    """Start-up (issue 43): the tables in the usual folder are read without resolving it again."""
    probe = "import runpy, sys; sys.argv = ['zero', *sys.argv[1:]]\ntry:\n    runpy.run_module('zerolang', run_name='__main__')\nexcept SystemExit:\n    pass\nprint('platformdirs' in sys.modules, 'tempfile' in sys.modules, file=sys.stderr)"
    environment = {k: v for k, v in os.environ.items() if k not in ("ZERO_CACHE_DIR", "ZERO_NO_CACHE")}
    environment["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    command = [sys.executable, "-c", probe, "run", HELLO, "--input", "name=Ada"]
    runs = [
        subprocess.run(command, capture_output=True, text=True, env=environment, cwd=ROOT) for _ in range(2)
    ]
    assert runs[0].stdout == runs[1].stdout and "Hello, Ada" in runs[1].stdout
    assert (tmp_path / "xdg" / "zerolang").is_dir()  # the first run built the tables and stored them there
    assert runs[0].stderr.split()[-2:] == ["True", "True"]  # a miss resolves the folder
    assert runs[1].stderr.split()[-2:] == ["False", "False"]
