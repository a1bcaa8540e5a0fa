"""The layers hold: each package imports only those below it, with no cycles, counting lazy imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept() -> None:
    """pyproject.toml's import-linter contracts (layers; no cycle among any package's modules)."""
    completed = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "0 broken" in completed.stdout


@pytest.mark.parametrize(
    ("layer", "above"),
    [
        ("zerolang.util", ("zerolang.syntax", "zerolang.runtime", "zerolang.knowledge", "zerolang.storage")),
        ("zerolang.syntax.parser", ("zerolang.runtime", "zerolang.knowledge", "zerolang.storage")),
        ("zerolang.runtime", ("zerolang.knowledge", "zerolang.storage", "zerolang.memory", "zerolang.tools")),
        ("zerolang.knowledge.store", ("zerolang.storage", "zerolang.memory", "zerolang.archive")),
        ("zerolang.storage", ("zerolang.memory", "zerolang.mcp", "zerolang.cli", "zerolang.lsp")),
    ],
)
def test_importing_a_layer_loads_nothing_above_it(layer: str, above: tuple[str, ...]) -> None:
    """Importing a layer (and every module of it) loads no module of a layer above it."""
    script = (
        "import importlib, pkgutil, sys\n"
        f"module = importlib.import_module({layer!r})\n"
        "for info in pkgutil.walk_packages(getattr(module, '__path__', []), module.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in loaded:
        assert not name.startswith(above), f"importing {layer} loads {name}"


def test_the_tests_mirror_the_packages() -> None:
    """Each package of zerolang has its folder of tests, named as it is."""
    packages = {path.parent.name for path in (ROOT / "zerolang").glob("*/__init__.py")}
    missing = sorted(name for name in packages if not (ROOT / "tests" / name / "__init__.py").is_file())
    assert not missing, f"no tests/<package> folder for {missing}"
