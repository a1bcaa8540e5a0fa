"""The VS Code extension starts `zero lsp`, and packages into one `.vsix` with its language client.

`extension.js` runs under Node against stand-ins for the `vscode` API and the
language client (`vscode_stub/run_extension.js`), which record what it asks
for. The packaging test runs `editors/package_vscode.py` for real (npm install,
`vsce package`) and reads the `.vsix`; it skips, saying why, without node or npm
or when npm cannot reach its registry.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.locks import held
from tests.lsp.samples import ROOT

VSCODE = ROOT / "editors" / "vscode"
STUB = Path(__file__).resolve().parent / "vscode_stub" / "run_extension.js"
MANIFEST: dict[str, Any] = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))


def test_the_manifest_declares_the_client() -> None:
    assert MANIFEST["main"] == "./extension.js"
    assert (VSCODE / "extension.js").is_file()
    assert set(MANIFEST["activationEvents"]) == {"onLanguage:zerolang", "onLanguage:zerolang-compact"}
    assert "vscode-languageclient" in MANIFEST["dependencies"]
    assert "@vscode/vsce" in MANIFEST["devDependencies"]
    settings = MANIFEST["contributes"]["configuration"]["properties"]
    assert settings["zerolang.server.path"]["default"] == "zero"
    assert settings["zerolang.server.args"]["default"] == ["lsp"]
    ignored = (VSCODE / ".vscodeignore").read_text(encoding="utf-8").split()
    assert "node_modules/**" not in ignored  # the language client must go into the .vsix


def run_extension(*arguments: str) -> dict[str, Any]:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    result = subprocess.run(
        ["node", str(STUB), str(VSCODE / "extension.js"), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    calls: dict[str, Any] = json.loads(result.stdout)
    return calls


def test_the_extension_starts_zero_lsp_for_both_languages() -> None:
    calls = run_extension()
    (client,) = calls["clients"]
    assert client["serverOptions"] == {"command": "zero", "args": ["lsp"], "transport": 0}  # stdio
    languages = {selector["language"] for selector in client["clientOptions"]["documentSelector"]}
    assert languages == {"zerolang", "zerolang-compact"}
    assert calls["started"] == 1 and calls["stopped"] == 1
    assert calls["commands"] == ["zerolang.restartServer"]
    assert calls["errors"] == []


def test_the_server_command_is_a_setting_and_a_failure_says_how_to_install() -> None:
    calls = run_extension(json.dumps({"zerolang.server.path": "/opt/venv/bin/zero"}), "fail")
    assert calls["clients"][0]["serverOptions"]["command"] == "/opt/venv/bin/zero"
    (error,) = calls["errors"]
    assert "could not start `/opt/venv/bin/zero lsp`" in error
    assert 'python -m pip install ".[lsp]"' in error  # as docs/editors.md installs it
    assert calls["stopped"] == 0


@pytest.mark.slow
def test_the_extension_packages_as_one_vsix(tmp_path: Path) -> None:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node or npm is not installed")
    out = tmp_path / "zero.vsix"
    # npm packages are kept outside the repository between runs, like the grammar tests' (tests/editors).
    cache = (
        Path(os.environ.get("ZERO_TEST_NODE_DIR") or Path.home() / ".cache" / "zerolang-test-node") / "vsix"
    )
    with held(cache):  # one packaging at a time in the shared folder (xdist workers, other runs)
        result = subprocess.run(
            [
                sys.executable,
                str(ROOT / "editors" / "package_vscode.py"),
                "--out",
                str(out),
                "--cache",
                str(cache),
            ],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    if result.returncode != 0 and "npm install failed" in result.stderr:
        pytest.skip(f"npm could not install the extension's dependencies (no network?): {result.stderr}")
    assert result.returncode == 0, result.stderr
    assert "install it: code --install-extension" in result.stdout
    with zipfile.ZipFile(out) as vsix:
        names = set(vsix.namelist())
        packaged = json.loads(vsix.read("extension/package.json"))
        manifest = vsix.read("extension.vsixmanifest").decode("utf-8")
    for name in (
        "extension/extension.js",
        "extension/syntaxes/zero.tmLanguage.json",
        "extension/syntaxes/zeroc.tmLanguage.json",
        "extension/language-configuration.json",
        "extension/node_modules/vscode-languageclient/node.js",
        "extension/node_modules/vscode-jsonrpc/package.json",
    ):
        assert name in names, name
    assert not any("@vscode/vsce" in name for name in names)  # a dev dependency stays out
    assert packaged["version"] == MANIFEST["version"]
    assert f'Version="{MANIFEST["version"]}"' in manifest
    assert not (VSCODE / "node_modules").exists()  # packaging leaves the repository clean

    # The packaged extension loads with only what is inside the .vsix (`vscode` is VS Code's own).
    with zipfile.ZipFile(out) as vsix:
        vsix.extractall(tmp_path / "unzipped")
    loaded = subprocess.run(
        ["node", str(STUB.parent / "load_packaged.js"), str(tmp_path / "unzipped")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout) == {
        "LanguageClient": "function",
        "stdio": 0,
        "activate": "function",
        "deactivate": "function",
    }
