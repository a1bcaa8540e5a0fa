"""CONTRIBUTING.md tells the truth: its layer picture is the import-linter contract, and the
paths it tells a contributor to edit exist."""

from __future__ import annotations

import itertools
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def layers() -> list[list[str]]:
    """The layers contract's levels, top first, each a list of its packages' last names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    return [
        [name.strip().rpartition(".")[2] for name in re.split(r"[|:]", level)] for level in contract["layers"]
    ]


def picture() -> str:
    """A Mermaid flowchart of the levels: every package, an arrow to each one on the next level down."""
    levels = layers()
    lines = ["flowchart TD"]
    lines += [f'    {name}["{name}"]' for level in levels for name in level]
    lines += [
        f"    {upper} --> {lower}"
        for above, below in itertools.pairwise(levels)
        for upper in above
        for lower in below
    ]
    return "\n".join(lines)


def test_the_layer_picture_is_the_contract() -> None:
    drawn = re.search(r"<!-- layers:[^\n]*-->\n```mermaid\n(.*?)\n```\n<!-- /layers -->", GUIDE, re.DOTALL)
    assert drawn is not None
    assert drawn.group(1) == picture(), f"CONTRIBUTING.md's picture should be:\n{picture()}"


def test_every_package_has_a_line_in_the_table() -> None:
    for level in layers():
        for name in level:
            assert f"| `{name}` |" in GUIDE, f"CONTRIBUTING.md does not say what {name} holds"


def test_the_paths_it_names_exist() -> None:
    for path in set(re.findall(r"`((?:zerolang|tests|editors|docs)/[\w./<>-]+?)`", GUIDE)):
        if "<" in path:
            continue
        assert (ROOT / path).exists(), f"CONTRIBUTING.md names {path}, which does not exist"
