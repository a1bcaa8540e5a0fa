"""The built wheel, installed alone in a fresh virtual environment, carries its grammars and runs."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_installs_and_runs_outside_the_source_tree(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    # With the build backend at hand (the test extra has it), build without a fresh isolated environment.
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-isolation"]
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", *isolation, "--outdir", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("zerolang-*.whl")
    _assert_packaged(wheel)
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=False)  # this pip installs into it: no second pip to bootstrap
    python = environment / "bin" / "python"
    # --no-compile: byte-compiling every dependency up front is most of an install's time; the two
    # commands below compile the modules they import as they import them.
    install = ["install", "--quiet", "--no-compile", str(wheel)]
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), *install],
        check=True,
        capture_output=True,
    )

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    clean_env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    clean_env["ZERO_CACHE_DIR"] = str(tmp_path / "cache")
    located = subprocess.run(
        [str(python), "-c", "import zerolang.syntax.grammar as g; print(g.grammar_path('zero'))"],
        cwd=elsewhere,
        env=clean_env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert located.endswith("site-packages/zerolang/syntax/grammars/zero.lark"), located

    zero = environment / "bin" / "zero"
    completed = subprocess.run(
        [str(zero), "run", str(ROOT / "examples" / "hello.0"), "--input", "name=Wheel", "--json"],
        cwd=elsewhere,
        env=clean_env,
        check=True,
        capture_output=True,
        text=True,
    )
    assert json.loads(completed.stdout)["outputs"]["greeting"] == "Hello, Wheel"
    assert list((tmp_path / "cache").glob("zero-*.parser")), "the parser cache goes to the user cache dir"
    installed = environment / "lib"
    assert not list(installed.rglob("*.parser")), "nothing is cached inside the installed package"


def _assert_packaged(wheel: Path) -> None:
    """Typed (PEP 561), licensed, versioned from the one `__version__`, with the explorer's assets."""
    from zerolang import __version__

    names = zipfile.ZipFile(wheel).namelist()
    assert "zerolang/py.typed" in names
    # `zero explore` serves its page's script and stylesheet from the package: no network, no build.
    assert {"zerolang/explore/static/explore.js", "zerolang/explore/static/explore.css"} <= set(names)
    assert any(name.endswith("LICENSE") and ".dist-info/" in name for name in names), names
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert f"\nVersion: {__version__}\n" in metadata.decode()
    assert wheel.name.startswith(f"zerolang-{__version__}-")
