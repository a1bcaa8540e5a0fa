"""The Vim files: filetype detection, `commentstring`, and the syntax groups Vim really assigns.

`vim -es` loads `editors/vim` and `vim_dump.vim` writes the syntax group of
every run of text, compared with `golden/<stem>.vim-groups`. Skips where
`vim` (with +syntax) is missing. After a deliberate change:

    ZERO_UPDATE_GOLDEN=1 python -m pytest tests/editors
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.editors.common import COMPACT_SAMPLES, GOLDEN, HERE, ROOT, SOURCES, UPDATE
from zerolang.runtime.catalog import NODE_TYPES, OPS

TOUR = ROOT / "tests" / "tools" / "highlight" / "tour.0"


def vim_groups(sources: list[Path]) -> dict[str, str]:
    """Vim's syntax group for every non-blank run of text, through `vim -es` and `vim_dump.vim`."""
    vim = shutil.which("vim")
    if vim is None:
        pytest.skip("vim is not installed")
    version = subprocess.run([vim, "--version"], capture_output=True, text=True, timeout=30, check=False)
    if "+syntax" not in version.stdout:
        pytest.skip("this vim is built without syntax highlighting (+syntax)")
    output: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        for source in sources:
            out = Path(folder) / f"{source.stem}.out"
            result = subprocess.run(
                [
                    vim,
                    *("-Nu", "NONE", "-i", "NONE", "-es"),
                    *("-c", "execute 'set rtp^=' . fnameescape($ZERO_VIM_RTP)"),
                    *("-c", "filetype plugin on", "-c", "syntax on"),
                    *("-c", "execute 'edit ' . fnameescape($ZERO_VIM_IN)"),
                    *("-c", "execute 'source ' . fnameescape($ZERO_VIM_DUMP)", "-c", "qa!"),
                ],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
                env={
                    **os.environ,
                    "ZERO_VIM_RTP": str(ROOT / "editors" / "vim"),
                    "ZERO_VIM_IN": str(source),
                    "ZERO_VIM_DUMP": str(HERE / "vim_dump.vim"),
                    "ZERO_VIM_OUT": str(out),
                },
            )
            assert out.exists(), f"vim wrote nothing for {source}: {result.stdout}{result.stderr}"
            output[str(source)] = out.read_text(encoding="utf-8")
    return output


@pytest.mark.slow
def test_vim_groups_match_golden() -> None:
    actual = vim_groups(SOURCES)
    mismatched = []
    for source in SOURCES:
        golden = GOLDEN / f"{source.stem}.vim-groups"
        if UPDATE:
            golden.write_text(actual[str(source)], encoding="utf-8")
        if not golden.exists() or golden.read_text(encoding="utf-8") != actual[str(source)]:
            mismatched.append(golden.name)
    assert mismatched == [], "run `ZERO_UPDATE_GOLDEN=1 python -m pytest tests/editors` and review the diff"


@pytest.mark.slow
def test_vim_marks_what_matters() -> None:
    lines = vim_groups([TOUR])[str(TOUR)]
    pairs = {tuple(line.split("\t")[1:]) for line in lines.splitlines()[1:]}
    assert lines.splitlines()[0] == "filetype=zerolang commentstring=# %s"
    for expected in [
        ("zerolangType", "Constant"),
        ("zerolangType", '"Operation"'),
        ("zerolangOp", "GetField"),
        ("zerolangUnknownType", "Aggregate"),
        ("zerolangUnknownType", '"Input"'),
        ("zerolangUnknownOp", "Eq"),
        ("zerolangBare", "Hash"),
        ("zerolangStruct", "HaltingProof"),
        ("zerolangEscape", "\\u00e9"),
        ("zerolangNumber", "6.02E+23"),
        ("zerolangConstant", "null"),
        ("zerolangKey", "description"),
        ("zerolangQuotedKey", '"version"'),
    ]:
        assert expected in pairs, expected


@pytest.mark.slow
def test_vim_marks_the_parts_of_0c_lines() -> None:
    groups = vim_groups(COMPACT_SAMPLES)
    pairs: set[tuple[str, ...]] = set()
    for source in COMPACT_SAMPLES:
        lines = groups[str(source)].splitlines()
        assert lines[0] == "filetype=zerolangc commentstring=# %s"
        pairs |= {tuple(line.split("\t")[1:]) for line in lines[1:]}
    for expected in [
        ("zerolangcHeaderMark", "0M:1.0"),
        ("zerolangcLevel", "L0"),
        ("zerolangcLevel", "delta"),
        ("zerolangcLabel", "long-term-memory"),
        ("zerolangcAlias", "LTM"),
        ("zerolangcConceptConfidence", "30"),
        ("zerolangcContextMark", "X:"),
        ("zerolangcEvent", "2026-02-18T00:00:00Z"),
        ("zerolangcSource", "user_prompt"),
        ("zerolangcScope", "0-memory_design"),
        ("zerolangcFieldValue", "openclaw-1"),
        ("zerolangcKey", '"run"'),
        ("zerolangcNone", "-"),
        ("zerolangcTimeMark", "@"),
        ("zerolangcTime", "2026-02-20T10:00:00.000Z"),
        ("zerolangcSubject", "1"),
        ("zerolangcRelation", "includes"),
        ("zerolangcObject", "4"),
        ("zerolangcConfidence", "85"),
        ("zerolangcConfidence", ".955"),
        ("zerolangcEscape", "\\t"),
        ("zerolangcShortId", "a"),
        ("zerolangcDeclarationMark", "!"),
        ("zerolangcDeclarationMark", "!-"),
        ("zerolangcSetting", "single-valued"),
        ("zerolangcSettingValue", "works_at"),
        ("zerolangcSettingQuotedValue", '"lives in"'),
        ("zerolangcDeclarationTimeMark", "@"),
        ("zerolangcTime", "2026-03-01T00:00:00.000Z"),
        ("zerolangcLabel", "!important"),
        ("zerolangcLabel", "!single-valued works_at"),
        ("zerolangcLabel", "!single-valued works_at @2026-02-01T00:00:00.000Z and more"),
    ]:
        assert expected in pairs, expected
    assert not [pair for pair in pairs if pair[0] in ("zerolangcIllegal", "zerolangcBadEscape")]


def test_vim_files_exist() -> None:
    vim = ROOT / "editors" / "vim"
    assert "setfiletype zerolang" in (vim / "ftdetect" / "zerolang.vim").read_text(encoding="utf-8")
    assert "*.0c setfiletype zerolangc" in (vim / "ftdetect" / "zerolangc.vim").read_text(encoding="utf-8")
    assert 'b:current_syntax = "zerolangc"' in (vim / "syntax" / "zerolangc.vim").read_text(encoding="utf-8")
    assert "commentstring=#" in (vim / "ftplugin" / "zerolangc.vim").read_text(encoding="utf-8")
    syntax = (vim / "syntax" / "zerolang.vim").read_text(encoding="utf-8")
    for name in (*NODE_TYPES, *OPS):
        assert re.search(rf"\b{name}\b", syntax), name
    assert "commentstring=#" in (vim / "ftplugin" / "zerolang.vim").read_text(encoding="utf-8")


@pytest.mark.slow
def test_vim_leaves_the_other_dot_0_language_alone(tmp_path: Path) -> None:
    """A `.0` file of vercel-labs/zerolang's language is not given our filetype; ours (and a new one) are."""
    theirs = tmp_path / "theirs.0"
    theirs.write_text("// the other language\npub fn main() {\n  let x = 1;\n}\n", encoding="utf-8")
    ours = tmp_path / "ours.0"
    ours.write_text('# a comment\n\nGraph {\n    name: "x",\n}\n', encoding="utf-8")
    keyed = tmp_path / "keyed.0"  # a graph whose first key is a word their language uses
    keyed.write_text("Graph {\n  type: 1,\n}\n", encoding="utf-8")
    groups = vim_groups([theirs, ours, keyed])
    assert groups[str(theirs)].splitlines()[0].startswith("filetype= ")
    assert groups[str(ours)].splitlines()[0].startswith("filetype=zerolang ")
    assert groups[str(keyed)].splitlines()[0].startswith("filetype=zerolang ")
