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

from tests.editors.common import GOLDEN, HERE, ROOT, SOURCES, UPDATE
from zerolang.catalog import NODE_TYPES, OPS

TOUR = ROOT / "tests" / "highlight" / "tour.0"


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


def test_vim_files_exist() -> None:
    vim = ROOT / "editors" / "vim"
    assert "*.0,*.0c" in (vim / "ftdetect" / "zero.vim").read_text(encoding="utf-8")
    syntax = (vim / "syntax" / "zero.vim").read_text(encoding="utf-8")
    for name in (*NODE_TYPES, *OPS):
        assert re.search(rf"\b{name}\b", syntax), name
    assert "commentstring=#" in (vim / "ftplugin" / "zero.vim").read_text(encoding="utf-8")
