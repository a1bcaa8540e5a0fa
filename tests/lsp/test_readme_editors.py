"""The editor set-up for the language server (docs/editors.md) says what works: real commands, valid settings."""

from __future__ import annotations

import json
import re
import tomllib

from tests.lsp.samples import ROOT

PAGE = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
SECTION = PAGE.split("\n## The language server\n", 1)[1].split("\n## ", 1)[0]


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", SECTION, flags=re.DOTALL)


def test_helix_configuration_is_valid_toml_that_starts_zero_lsp() -> None:
    (block,) = blocks("toml")
    config = tomllib.loads(block)
    assert config["language-server"]["zerolang"] == {"command": "zero", "args": ["lsp"]}
    file_types = {language["name"]: language["file-types"] for language in config["language"]}
    assert file_types == {"zerolang": ["0"], "zerolangc": ["0c"]}
    assert all(language["language-servers"] == ["zerolang"] for language in config["language"])
    scopes = {language["scope"] for language in config["language"]}
    assert scopes == {"source.zerolang", "source.zerolang-compact"}  # the VS Code grammars' own


def test_neovim_configuration_starts_zero_lsp_for_both_filetypes() -> None:
    (block,) = blocks("lua")
    assert 'cmd = { "zero", "lsp" }' in block
    assert 'filetypes = { "zerolang", "zerolangc" }' in block
    assert '["0"] = "zerolang", ["0c"] = "zerolangc"' in block
    assert block.count("(") == block.count(")") and block.count("{") == block.count("}")


def test_the_vsix_the_docs_install_is_the_one_the_script_writes() -> None:
    manifest = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    name = f"dist/{manifest['name']}-{manifest['version']}.vsix"
    bash = "\n".join(blocks("bash"))
    assert f"python editors/package_vscode.py          # wrote {name}" in bash
    assert f"code --install-extension {name}" in bash
    assert 'python -m pip install ".[lsp]"' in bash
