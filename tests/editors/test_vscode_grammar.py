"""The VS Code extension: its manifest, and its grammar run for real by the engine VS Code uses.

`tokenize.js` runs `vscode-textmate` with `vscode-oniguruma` (installed from
npm into a cache folder outside the repository, reused across runs) over the
examples and compares every token's scopes with `golden/<stem>.scopes`. It
skips, saying why, where `node` or `npm` is missing or the install fails.
After a deliberate grammar change, regenerate the golden files and review:

    ZERO_UPDATE_GOLDEN=1 python -m pytest tests/editors
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from tests.editors.common import GOLDEN, HERE, ROOT, SOURCES, UPDATE
from zerolang.catalog import NODE_TYPES, OPS

VSCODE = ROOT / "editors" / "vscode"

# Pinned: a new engine release must not change the golden files under us.
NPM_PACKAGES = ("vscode-textmate@9.3.2", "vscode-oniguruma@2.0.1")


def build_grammars() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_grammars", ROOT / "editors" / "build_grammars.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_grammars_are_up_to_date_with_the_catalog() -> None:
    stale = build_grammars().stale()
    assert stale == [], "run `python editors/build_grammars.py` and commit the result"


def test_grammar_lists_exactly_the_catalog() -> None:
    grammar = json.loads((VSCODE / "syntaxes" / "zero.tmLanguage.json").read_text(encoding="utf-8"))
    repository = grammar["repository"]

    def known(entry: str, scope: str) -> set[str]:
        (pattern,) = [p["match"] for p in repository[entry]["patterns"] if p.get("name") == scope]
        alternation = re.search(r"\(\?:([A-Za-z|]+)\)", pattern)
        assert alternation is not None
        return set(alternation.group(1).split("|"))

    assert known("node-type", "support.class.node-type.zero") == set(NODE_TYPES)
    assert known("node-op", "support.function.op.zero") == set(OPS)


def test_manifest_is_ready_to_package() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    for field in ("name", "displayName", "description", "publisher", "version", "license", "engines"):
        assert manifest.get(field), field
    assert manifest["engines"]["vscode"].startswith("^")
    assert "Programming Languages" in manifest["categories"]
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "zero"
    assert set(language["extensions"]) == {".0", ".0c"}
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar == {
        "language": "zero",
        "scopeName": "source.zero",
        "path": "./syntaxes/zero.tmLanguage.json",
    }
    for path in (language["configuration"], grammar["path"], "README.md", "CHANGELOG.md", "LICENSE"):
        assert (VSCODE / path).is_file(), path
    assert (VSCODE / ".vscodeignore").is_file()


def test_language_configuration() -> None:
    config = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    assert config["comments"] == {"lineComment": "#"}
    assert ["{", "}"] in config["brackets"] and ["[", "]"] in config["brackets"]
    closing = {pair["open"]: pair["close"] for pair in config["autoClosingPairs"]}
    assert closing == {"{": "}", "[": "]", '"': '"'}
    assert ['"', '"'] in config["surroundingPairs"]


@pytest.fixture(scope="session")
def node_modules() -> Path:
    """vscode-textmate and vscode-oniguruma, installed once into a cache folder outside the repository."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip(f"node is not installed: {'node' if node is None else 'npm'} is not on PATH")
    folder = Path(os.environ.get("ZERO_TEST_NODE_DIR") or Path.home() / ".cache" / "zerolang-test-node")
    stamp = folder / "installed.txt"
    wanted = " ".join(NPM_PACKAGES)
    if stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return folder / "node_modules"
    folder.mkdir(parents=True, exist_ok=True)
    command = [npm, "install", "--no-audit", "--no-fund", "--no-package-lock", "--prefix", str(folder)]
    command += [
        "--fetch-retries=1",
        "--fetch-retry-mintimeout=2000",
        "--fetch-retry-maxtimeout=5000",
        "--fetch-timeout=30000",
    ]
    try:
        result = subprocess.run(
            [*command, *NPM_PACKAGES], capture_output=True, text=True, timeout=300, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.skip("npm install of vscode-textmate timed out (no network?)")
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        tail = [line for line in lines if "npm error" in line and line.strip() != "npm error"][:2] or lines[
            -2:
        ]
        pytest.skip(f"npm install of vscode-textmate failed (no network?): {' | '.join(tail)}")
    stamp.write_text(wanted, encoding="utf-8")
    return folder / "node_modules"


@pytest.fixture(scope="session")
def scopes(node_modules: Path) -> dict[str, str]:
    """Every source tokenized by VS Code's engine, in one node process."""
    result = subprocess.run(
        [
            "node",
            str(HERE / "tokenize.js"),
            str(VSCODE / "syntaxes" / "zero.tmLanguage.json"),
            *map(str, SOURCES),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "NODE_PATH": str(node_modules)},
    )
    assert result.returncode == 0, result.stderr
    output: dict[str, str] = json.loads(result.stdout)
    return output


@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_vscode_scopes_match_golden(source: Path, scopes: dict[str, str]) -> None:
    actual = scopes[str(source)]
    golden = GOLDEN / f"{source.stem}.scopes"
    if UPDATE:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), "no golden file: run `ZERO_UPDATE_GOLDEN=1 python -m pytest tests/editors`"
    assert actual == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs: if the grammar change is intended, "
        "run `ZERO_UPDATE_GOLDEN=1 python -m pytest tests/editors` and review the diff"
    )


def token_scopes(text: str) -> list[tuple[str, str]]:
    """(token text, innermost scope) pairs of a golden `.scopes` file."""
    pairs = []
    for line in text.splitlines():
        _, token, scope_list = line.split("\t")
        pairs.append((json.loads(token), scope_list.split()[-1]))
    return pairs


@pytest.mark.slow
def test_vscode_marks_what_matters(scopes: dict[str, str]) -> None:
    tour = token_scopes(scopes[str(ROOT / "tests" / "highlight" / "tour.0")])
    for expected in [
        ("Graph", "entity.name.type.graph.zero"),
        ("HaltingProof", "entity.name.type.struct.zero"),
        ("Constant", "support.class.node-type.zero"),
        ('"Operation"', "support.class.node-type.zero"),
        ("GetField", "support.function.op.zero"),
        ('"ToUpper"', "support.function.op.zero"),
        ("Aggregate", "invalid.deprecated.unknown-type.zero"),
        ('"Input"', "invalid.deprecated.unknown-type.zero"),
        ("Eq", "invalid.deprecated.unknown-op.zero"),
        ("Hash", "string.unquoted.identifier.zero"),  # `op: Hash` in metadata is not a node's op
        ("description", "support.type.property-name.zero"),
        ('"version"', "support.type.property-name.zero"),
        ("\\u00e9", "constant.character.escape.zero"),
        ("6.02E+23", "constant.numeric.float.zero"),
        ("-42", "constant.numeric.integer.zero"),
        ("null", "constant.language.zero"),
        ("some-bare_identifier", "string.unquoted.identifier.zero"),
        (" a quoted key", "comment.line.number-sign.zero"),
    ]:
        assert expected in tour, expected
    errors = token_scopes(scopes[str(HERE / "samples" / "lexical_errors.0")])
    assert (";", "invalid.illegal.character.zero") in errors
    assert ("\\w", "invalid.illegal.unrecognized-escape.zero") in errors
    assert (".", "invalid.illegal.character.zero") in errors
    assert ("after", "support.type.property-name.zero") in errors  # an open string ends with its line


@pytest.mark.slow
def test_vscode_marks_nothing_invalid_in_valid_files(scopes: dict[str, str]) -> None:
    unknown_on_purpose = {"tour.0", "legacy.0"}
    for source in SOURCES:
        if source.name == "lexical_errors.0":
            continue
        used = {scope for _, scope in token_scopes(scopes[str(source)])}
        assert not [scope for scope in used if scope.startswith("invalid.illegal")], source
        if source.name not in unknown_on_purpose:
            assert not [scope for scope in used if scope.startswith("invalid")], source
