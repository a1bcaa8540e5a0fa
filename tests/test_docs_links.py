"""Issue 41.4: the docs stand on their own. Every link in docs/ (and the README, CONTRIBUTING.md and
examples/README.md) stays inside the repository and reaches a file that exists; no page points at a
document outside it (the runtime's semantics are described in docs/semantics.md, in our words); and
every "install the X extra" hint, in code and in docs, installs the way the README does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    ROOT / "CONTRIBUTING.md",
    ROOT / "examples" / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
]
LINK = re.compile(r"\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
FENCE = re.compile(r"```.*?```", re.DOTALL)
OUTSIDE_MENTION = re.compile(r"`(\.\./[^`\s]+\.md)[^`]*`")


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [first or second for first, second in LINK.findall(text)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_link_stays_in_the_repository(page: Path) -> None:
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a web address or an anchor on the page
        file = (page.parent / target.split("#", 1)[0]).resolve()
        assert file.is_relative_to(ROOT), f"{page.name}: `{target}` leaves the repository"
        assert file.exists(), f"{page.name}: `{target}` names no file"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_no_page_points_at_a_document_outside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "shared/spec" not in text
    for mentioned in OUTSIDE_MENTION.findall(text):
        file = (page.parent / mentioned).resolve()
        assert file.is_relative_to(ROOT) and file.exists(), f"{page.name} mentions `{mentioned}`"


def test_the_checker_finds_a_link_that_leaves(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "see [the spec](../shared/spec/runtime.md) and [web](https://example.org)\n", encoding="utf-8"
    )
    assert links(page) == ["../shared/spec/runtime.md", "https://example.org"]


def test_the_semantics_page_is_in_the_nav_and_linked_from_the_language_page() -> None:
    language = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert "(semantics.md" in language
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "first-graph.md" in config and "semantics.md" in config


OLD_HINT = re.compile(r"pip install ['\"]?zerolang\[|pip install zerolang\b")


def test_install_hints_install_as_the_readme_does() -> None:
    files = [*PAGES, *sorted((ROOT / "zerolang").rglob("*.py")), ROOT / "editors" / "vscode" / "extension.js"]
    for path in files:
        assert not OLD_HINT.search(path.read_text(encoding="utf-8")), path.relative_to(ROOT)
    from zerolang.util.extras import install_hint

    editors = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    assert install_hint("lsp").startswith('python -m pip install ".[lsp]"')
    assert 'python -m pip install ".[lsp]"' in editors
