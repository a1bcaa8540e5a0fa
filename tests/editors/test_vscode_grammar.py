"""The VS Code extension: its manifest, and its grammar run for real by the engine VS Code uses.

`tokenize.js` runs `vscode-textmate` with `vscode-oniguruma` (installed from
npm into a cache folder outside the repository, reused across runs) over the
examples (`.0` with `zero.tmLanguage.json`, the `.0c` samples with
`zeroc.tmLanguage.json`) and compares every token's scopes with `golden/<stem>.scopes`. It
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

from tests.editors.common import COMPACT_SAMPLES, GOLDEN, HERE, ROOT, SOURCES, UPDATE
from tests.locks import held
from zerolang.runtime.catalog import NODE_TYPES, OPS

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

    assert known("node-type", "support.class.node-type.zerolang") == set(NODE_TYPES)
    assert known("node-op", "support.function.op.zerolang") == set(OPS)


def test_manifest_is_ready_to_package() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    for field in ("name", "displayName", "description", "publisher", "version", "license", "engines"):
        assert manifest.get(field), field
    assert manifest["engines"]["vscode"].startswith("^")
    assert "Programming Languages" in manifest["categories"]
    language, compact = manifest["contributes"]["languages"]
    assert language["id"] == "zerolang"
    assert language["extensions"] == [".0"]
    assert compact["id"] == "zerolang-compact"
    assert compact["extensions"] == [".0c"]
    grammar, compact_grammar = manifest["contributes"]["grammars"]
    assert grammar == {
        "language": "zerolang",
        "scopeName": "source.zerolang",
        "path": "./syntaxes/zero.tmLanguage.json",
    }
    assert compact_grammar == {
        "language": "zerolang-compact",
        "scopeName": "source.zerolang-compact",
        "path": "./syntaxes/zeroc.tmLanguage.json",
    }
    for path in (compact["configuration"], compact_grammar["path"]):
        assert (VSCODE / path).is_file(), path
    assert (
        json.loads((VSCODE / compact_grammar["path"]).read_text(encoding="utf-8"))["scopeName"]
        == "source.zerolang-compact"
    )
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
    """vscode-textmate and vscode-oniguruma, installed once into a cache folder outside the repository.

    The folder is shared by every run of this user (xdist workers, other checkouts): the check and
    the install happen under its lock, so one process installs and the others reuse it.
    """
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip(f"node is not installed: {'node' if node is None else 'npm'} is not on PATH")
    folder = Path(os.environ.get("ZERO_TEST_NODE_DIR") or Path.home() / ".cache" / "zerolang-test-node")
    with held(folder):
        _install_node_packages(folder, npm)
    return folder / "node_modules"


def _install_node_packages(folder: Path, npm: str) -> None:
    stamp = folder / "installed.txt"
    wanted = " ".join(NPM_PACKAGES)
    if stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return
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


def tokenize(node_modules: Path, grammar: str, sources: list[Path]) -> dict[str, str]:
    result = subprocess.run(
        ["node", str(HERE / "tokenize.js"), str(VSCODE / "syntaxes" / grammar), *map(str, sources)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "NODE_PATH": str(node_modules)},
    )
    assert result.returncode == 0, result.stderr
    output: dict[str, str] = json.loads(result.stdout)
    return output


@pytest.fixture(scope="session")
def scopes(node_modules: Path) -> dict[str, str]:
    """Every source tokenized by VS Code's engine with its language's grammar, one node process each."""
    graphs = [source for source in SOURCES if source.suffix != ".0c"]
    return {
        **tokenize(node_modules, "zero.tmLanguage.json", graphs),
        **tokenize(node_modules, "zeroc.tmLanguage.json", COMPACT_SAMPLES),
    }


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
    tour = token_scopes(scopes[str(ROOT / "tests" / "tools" / "highlight" / "tour.0")])
    for expected in [
        ("Graph", "entity.name.type.graph.zerolang"),
        ("HaltingProof", "entity.name.type.struct.zerolang"),
        ("Constant", "support.class.node-type.zerolang"),
        ('"Operation"', "support.class.node-type.zerolang"),
        ("GetField", "support.function.op.zerolang"),
        ('"ToUpper"', "support.function.op.zerolang"),
        ("Aggregate", "invalid.deprecated.unknown-type.zerolang"),
        ('"Input"', "invalid.deprecated.unknown-type.zerolang"),
        ("Eq", "invalid.deprecated.unknown-op.zerolang"),
        ("Hash", "string.unquoted.identifier.zerolang"),  # `op: Hash` in metadata is not a node's op
        ("description", "support.type.property-name.zerolang"),
        ('"version"', "support.type.property-name.zerolang"),
        ("\\u00e9", "constant.character.escape.zerolang"),
        ("6.02E+23", "constant.numeric.float.zerolang"),
        ("-42", "constant.numeric.integer.zerolang"),
        ("null", "constant.language.zerolang"),
        ("some-bare_identifier", "string.unquoted.identifier.zerolang"),
        (" a quoted key", "comment.line.number-sign.zerolang"),
    ]:
        assert expected in tour, expected
    errors = token_scopes(scopes[str(HERE / "samples" / "lexical_errors.0")])
    assert (";", "invalid.illegal.character.zerolang") in errors
    assert ("\\w", "invalid.illegal.unrecognized-escape.zerolang") in errors
    assert (".", "invalid.illegal.character.zerolang") in errors
    assert ("after", "support.type.property-name.zerolang") in errors  # an open string ends with its line


@pytest.mark.slow
def test_vscode_marks_the_parts_of_0c_lines(scopes: dict[str, str]) -> None:
    samples = HERE.parent / "tools" / "highlight" / "samples"
    l2 = token_scopes(scopes[str(samples / "memory_l2.0c")])
    for expected in [
        ("0M", "keyword.control.header.zerolang-compact"),
        ("1.0", "constant.numeric.version.zerolang-compact"),
        ("long-term-memory", "entity.name.type.concept.zerolang-compact"),
        ("LTM", "variable.other.alias.zerolang-compact"),
        ("|", "punctuation.separator.zerolang-compact"),
        ("X", "keyword.other.context.zerolang-compact"),
        ("2026-02-18T00:00:00Z", "constant.other.date.event.zerolang-compact"),
        ("user_prompt", "entity.name.tag.source.zerolang-compact"),
        ("0-memory_design", "entity.name.namespace.scope.zerolang-compact"),
        ("s", "variable.parameter.field.zerolang-compact"),
        ("design-review-1", "string.unquoted.field.zerolang-compact"),
        ('"run"', "support.type.property-name.zerolang-compact"),
        ('"bench_memory"', "string.quoted.double.zerolang-compact"),
        ("@", "keyword.other.time.zerolang-compact"),
        ("2026-02-20T10:00:00.000Z", "constant.other.date.zerolang-compact"),
        ("1", "constant.other.id.subject.zerolang-compact"),
        ("includes", "entity.name.function.predicate.zerolang-compact"),
        ("4", "constant.other.id.object.zerolang-compact"),
        ("85", "constant.numeric.confidence.percent.zerolang-compact"),
        (
            " memory_l2.0c: the store of examples/memory_input.json at L2 (docs/0c-format.md)",
            "comment.line.number-sign.zerolang-compact",
        ),
    ]:
        assert expected in l2, expected
    quoted = token_scopes(scopes[str(samples / "memory_quoted.0c")])
    for expected in [
        ('\\"', "constant.character.escape.zerolang-compact"),
        ("\\t", "constant.character.escape.zerolang-compact"),
        ("30", "constant.numeric.confidence.percent.zerolang-compact"),
        (".955", "constant.numeric.confidence.fraction.zerolang-compact"),
        ("1e-09", "constant.numeric.confidence.fraction.zerolang-compact"),
        ("2026-01-01T00:00:00.000Z", "constant.other.date.zerolang-compact"),
        ("-", "constant.language.none.zerolang-compact"),
        ("; ", "punctuation.separator.relation.zerolang-compact"),
    ]:
        assert expected in quoted, expected
    declarations = token_scopes(scopes[str(samples / "memory_declarations.0c")])
    for expected in [
        ("!", "keyword.other.declaration.zerolang-compact"),
        ("!-", "keyword.other.declaration.zerolang-compact"),
        ("single-valued", "support.constant.setting.zerolang-compact"),
        ("works_at", "entity.name.function.predicate.zerolang-compact"),
        ('"lives in"', "string.quoted.double.predicate.zerolang-compact"),
        ("@", "keyword.other.time.zerolang-compact"),
        ("2026-03-01T00:00:00.000Z", "constant.other.date.zerolang-compact"),
        ("\\u005a", "constant.character.escape.zerolang-compact"),
        ("!important", "entity.name.type.concept.zerolang-compact"),
        ("!single-valued works_at", "entity.name.type.concept.zerolang-compact"),
        (
            "!single-valued works_at @2026-02-01T00:00:00.000Z and more",
            "entity.name.type.concept.zerolang-compact",
        ),
    ]:
        assert expected in declarations, expected
    l0 = token_scopes(scopes[str(samples / "memory_l0.0c")])
    assert ("L0", "keyword.other.level.zerolang-compact") in l0
    assert ("8", "constant.numeric.integer.count.zerolang-compact") in l0
    assert ("a", "constant.numeric.hex.id.zerolang-compact") in l0
    delta = token_scopes(scopes[str(samples / "memory_delta.0c")])
    assert ("delta", "keyword.other.level.zerolang-compact") in delta
    assert (
        "c97467cd9ebe7ebf1764d734203b50f5244c4e4d8b8e930161a6f619532e542c",
        "constant.numeric.hex.checkpoint.zerolang-compact",
    ) in delta


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
