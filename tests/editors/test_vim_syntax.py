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
    assert lines.splitlines()[0] == "filetype=zero commentstring=# %s"
    for expected in [
        ("zeroType", "Constant"),
        ("zeroType", '"Operation"'),
        ("zeroOp", "GetField"),
        ("zeroUnknownType", "Aggregate"),
        ("zeroUnknownType", '"Input"'),
        ("zeroUnknownOp", "Eq"),
        ("zeroBare", "Hash"),
        ("zeroStruct", "HaltingProof"),
        ("zeroEscape", "\\u00e9"),
        ("zeroNumber", "6.02E+23"),
        ("zeroConstant", "null"),
        ("zeroKey", "description"),
        ("zeroQuotedKey", '"version"'),
    ]:
        assert expected in pairs, expected


@pytest.mark.slow
def test_vim_marks_the_parts_of_0c_lines() -> None:
    groups = vim_groups(COMPACT_SAMPLES)
    pairs: set[tuple[str, ...]] = set()
    for source in COMPACT_SAMPLES:
        lines = groups[str(source)].splitlines()
        assert lines[0] == "filetype=zeroc commentstring=# %s"
        pairs |= {tuple(line.split("\t")[1:]) for line in lines[1:]}
    for expected in [
        ("zerocHeaderMark", "0M:1.0"),
        ("zerocLevel", "L0"),
        ("zerocLevel", "delta"),
        ("zerocLabel", "long-term-memory"),
        ("zerocAlias", "LTM"),
        ("zerocConceptConfidence", "30"),
        ("zerocContextMark", "X:"),
        ("zerocEvent", "2026-02-18T00:00:00Z"),
        ("zerocSource", "user_prompt"),
        ("zerocScope", "0-memory_design"),
        ("zerocFieldValue", "openclaw-1"),
        ("zerocKey", '"run"'),
        ("zerocNone", "-"),
        ("zerocTimeMark", "@"),
        ("zerocTime", "2026-02-20T10:00:00.000Z"),
        ("zerocSubject", "1"),
        ("zerocRelation", "includes"),
        ("zerocObject", "4"),
        ("zerocConfidence", "85"),
        ("zerocConfidence", ".955"),
        ("zerocEscape", "\\t"),
        ("zerocShortId", "a"),
        ("zerocDeclarationMark", "!"),
        ("zerocDeclarationMark", "!-"),
        ("zerocSetting", "single-valued"),
        ("zerocSettingValue", "works_at"),
        ("zerocSettingQuotedValue", '"lives in"'),
        ("zerocDeclarationTimeMark", "@"),
        ("zerocTime", "2026-03-01T00:00:00.000Z"),
        ("zerocLabel", "!important"),
        ("zerocLabel", "!single-valued works_at"),
        ("zerocLabel", "!single-valued works_at @2026-02-01T00:00:00.000Z and more"),
    ]:
        assert expected in pairs, expected
    assert not [pair for pair in pairs if pair[0] in ("zerocIllegal", "zerocBadEscape")]


def test_vim_files_exist() -> None:
    vim = ROOT / "editors" / "vim"
    assert "*.0 setfiletype zero" in (vim / "ftdetect" / "zero.vim").read_text(encoding="utf-8")
    assert "*.0c setfiletype zeroc" in (vim / "ftdetect" / "zeroc.vim").read_text(encoding="utf-8")
    assert 'b:current_syntax = "zeroc"' in (vim / "syntax" / "zeroc.vim").read_text(encoding="utf-8")
    assert "commentstring=#" in (vim / "ftplugin" / "zeroc.vim").read_text(encoding="utf-8")
    syntax = (vim / "syntax" / "zero.vim").read_text(encoding="utf-8")
    for name in (*NODE_TYPES, *OPS):
        assert re.search(rf"\b{name}\b", syntax), name
    assert "commentstring=#" in (vim / "ftplugin" / "zero.vim").read_text(encoding="utf-8")
