"""Package the VS Code extension (`editors/vscode`) as one `.vsix` file a user installs.

    python editors/package_vscode.py                 # writes dist/zerolang-graph-<version>.vsix
    python editors/package_vscode.py --out my.vsix

The extension folder is copied to a temporary folder (or `--cache DIR`, kept
for the next run), its npm dependencies are installed there
(`vscode-languageclient`, bundled into the .vsix, and `@vscode/vsce`, which
packages it), and `vsce package` writes the file. Nothing is written into the
repository except the .vsix. Needs Node.js 20+ and npm.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
NPM_FLAGS = ["--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"]


class PackagingError(Exception):
    """A step failed; the message says which and why."""


def _require(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise PackagingError(f"{tool} is not on PATH: install Node.js 20 or newer (with npm)")
    return path


def _run(command: list[str], folder: Path, what: str) -> None:
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False, timeout=600)
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        raise PackagingError(f"{what} failed: {' | '.join(lines[-3:])}")


def _copy_extension(build: Path) -> None:
    """The extension's own files into `build`, replacing what an earlier run left (but not node_modules)."""
    build.mkdir(parents=True, exist_ok=True)
    for old in build.iterdir():
        if old.name != "node_modules":
            shutil.rmtree(old) if old.is_dir() and not old.is_symlink() else old.unlink()
    for item in EXTENSION.iterdir():
        if item.name == "node_modules" or item.suffix == ".vsix":
            continue
        if item.is_dir():
            shutil.copytree(item, build / item.name)
        else:
            shutil.copy2(item, build / item.name)


def _install(build: Path, npm: str) -> None:
    """`npm install`, unless the node_modules there were installed for these same dependencies."""
    manifest = json.loads((build / "package.json").read_text(encoding="utf-8"))
    wanted = json.dumps([manifest.get("dependencies"), manifest.get("devDependencies")], sort_keys=True)
    stamp = build / "node_modules" / ".zero-installed.json"
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return
    _run([npm, "install", *NPM_FLAGS], build, "npm install")
    stamp.write_text(wanted, encoding="utf-8")


def package(out: Path | None = None, cache: Path | None = None) -> Path:
    """Build the .vsix and return its path.

    `cache`: a folder to build in and keep the npm packages in between runs
    (else a temporary folder, removed afterwards).
    """
    npm = _require("npm")
    _require("node")
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    target = (out or ROOT / "dist" / f"{manifest['name']}-{manifest['version']}.vsix").resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="zero-vsix-") as temporary:
        build = (cache if cache is not None else Path(temporary)) / "extension"
        _copy_extension(build)
        _install(build, npm)
        vsce = build / "node_modules" / ".bin" / "vsce"
        _run(
            [str(vsce), "package", "--allow-missing-repository", "--out", str(target)], build, "vsce package"
        )
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="where to write the .vsix (default: dist/NAME-VERSION.vsix)")
    parser.add_argument(
        "--cache", type=Path, help="keep the installed npm packages in this folder and reuse them next time"
    )
    arguments = parser.parse_args()
    try:
        path = package(arguments.out, arguments.cache)
    except PackagingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    print(f"install it: code --install-extension {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
