"""benches/docs_tables.py: the docs' benchmark blocks are replaced by their commands' output."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benches"))

import docs_tables  # noqa: E402


def test_each_block_gets_its_commands_output_and_the_rest_stays() -> None:
    text = (
        "intro\n<!-- bench: python benches/a.py --x 1 -->\nold a\n<!-- /bench -->\nmiddle\n"
        "<!-- bench: python benches/b.py -->\nold b\nmore\n<!-- /bench -->\nend\n"
    )
    assert docs_tables.commands(text) == ["python benches/a.py --x 1", "python benches/b.py"]
    out = docs_tables.replace_blocks(text, lambda command: f"ran {command}\n" if "a.py" in command else None)
    assert out == (
        "intro\n<!-- bench: python benches/a.py --x 1 -->\nran python benches/a.py --x 1\n<!-- /bench -->\n"
        "middle\n<!-- bench: python benches/b.py -->\nold b\nmore\n<!-- /bench -->\nend\n"
    )
    assert docs_tables.replace_blocks(out, lambda command: None) == out


def test_the_docs_blocks_name_scripts_that_exist() -> None:
    marked = docs_tables.commands((ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8"))
    assert marked, "docs/benchmarks.md has no regenerated block"
    for command in marked:
        arguments = shlex.split(command)
        assert arguments[0] == "python", command
        assert (ROOT / arguments[1]).is_file(), command
