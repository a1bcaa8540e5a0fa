"""The README and the docs tell the truth: their example commands print what they show, and CI runs the test line.

Every ```console block of README.md and of each page under docs/ is collected: each `$ ...` line is
a command, the lines under it what it prints.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import forked

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
# Pages whose console blocks another test replays, by rules of its own (one database for the whole page).
REPLAYED_ELSEWHERE = {"docs/query.md": "tests/knowledge/query/test_docs.py"}
# What else a console line may run besides `zero`, and the extra a script needs.
PROGRAMS = {"python", "pygmentize"}
NEEDS = {
    "examples/mcp_session.py": "mcp",
    "examples/agents/openai_agents_session.py": "agents",
    "examples/agents/langgraph_store.py": "langgraph",
}

DB = "/tmp/memory.db"  # examples use this database; tests give each block a fresh one
ARCHIVE = "/tmp/archive"  # ... and this archive folder: its blocks run as sessions too
DAYS = re.compile(r"\bt=[+-]\d+\b")  # the archive's time axis is days from today
EXPERIENCE_DB = "/tmp/experiences.db"  # the same for `zero capture`, `zero recall`, `zero convo`
NOW = re.compile(
    r"(created_at\": \"|created  +|updated_at\": \"|updated  +|last at )\d{4}-\d\d-\d\dT[\d:.]+Z"
)
KEY = re.compile(
    r"(public key |signed by |from |signer )[0-9a-f]{16,64}"
)  # a fresh `zero keygen` key each run

Example = tuple[str, str]  # a command and the output shown under it


def page_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def console_blocks(text: str) -> list[list[Example]]:
    """Each console block of a page: its `$ ...` commands, each with the output shown under it."""
    blocks: list[list[Example]] = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.DOTALL):
        examples: list[Example] = []
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    examples.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            examples.append((command, "\n".join(output)))
        blocks.append(examples)
    return blocks


def page_blocks() -> list[tuple[str, list[Example]]]:
    """(page, block) for every console block of the README and the docs that this module runs."""
    return [
        (page_name(path), block)
        for path in PAGES
        if page_name(path) not in REPLAYED_ELSEWHERE
        for block in console_blocks(path.read_text(encoding="utf-8"))
    ]


def _uses_db(block: list[Example]) -> bool:
    return any(db in command for command, _ in block for db in (DB, ARCHIVE, EXPERIENCE_DB))


BLOCKS = page_blocks()
# Blocks on no shared file run one command at a time; the others as one session each, in order.
EXAMPLES = [(page, *example) for page, block in BLOCKS if not _uses_db(block) for example in block]
MEMORY_BLOCKS = [(page, block) for page, block in BLOCKS if _uses_db(block)]


def quick_start() -> list[str]:
    section = README.split("## Quick start", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, flags=re.DOTALL)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


def readme_sections() -> dict[str, str]:
    """The README's `## ` sections by heading."""
    return {
        part.split("\n", 1)[0]: part.split("\n", 1)[1] for part in README.split("\n## ")[1:] if "\n" in part
    }


def test_the_docs_have_examples_for_every_command() -> None:
    from zerolang.cli.commands import COMMANDS

    shown = {
        shlex.split(command)[1]
        for path in PAGES
        for block in console_blocks(path.read_text(encoding="utf-8"))
        for command, _ in block
        if command.startswith("zero ")
    }
    # they serve a protocol (stdin, HTTP): their pages show set-ups, sessions and pictures
    servers = {"lsp", "mcp", "explore"}
    assert set(COMMANDS) - servers <= shown


# Each area of the README: its section, and the commands its console example must run.
README_AREAS = {
    "The `.0` language": ["zero run"],
    "Check, format, lint": ["zero check", "zero fmt", "zero lint"],
    "Memory": ["zero memory"],
    "Query": ["zero query"],
    "Archive": ["zero archive"],
    "Conversations": ["zero capture", "zero recall", "zero convo"],
    "Agent tools: MCP": ["python examples/mcp_session.py"],
    "Editors": ["pygmentize"],
}


def test_the_readme_has_an_example_for_every_area_and_links_to_its_docs() -> None:
    sections = readme_sections()
    for heading, commands in README_AREAS.items():
        section = sections[heading]
        shown = [command for block in console_blocks(section) for command, _ in block]
        for command in commands:
            assert any(line.startswith(command) for line in shown), f"README `{heading}`: no `{command}`"
        assert "](docs/" in section, f"README `{heading}` links to no docs page"
    python = sections["Python"]
    assert "```python\n" in python and "```text\n" in python and "](docs/python-api.md)" in python


def test_the_readme_is_short_and_quotes_no_test_counts_or_timings() -> None:
    assert len(README.splitlines()) <= 300
    prose = re.sub(r"```.*?```", "", README, flags=re.DOTALL)
    for stale in (r"\d[\d,]* (passed|skipped|tests)\b", r"\d+(\.\d+)? ?(ms|µs|s|min|seconds|minutes)\b"):
        assert re.search(stale, prose) is None, f"the README quotes {re.search(stale, prose)}"


def test_every_console_block_is_collected() -> None:
    """No console block is lost to the parser, and the pages that had examples still have them."""
    collected: dict[str, int] = {}
    for page, _ in BLOCKS:
        collected[page] = collected.get(page, 0) + 1
    for path in PAGES:
        fences = len(re.findall(r"^```console$", path.read_text(encoding="utf-8"), flags=re.MULTILINE))
        if page_name(path) in REPLAYED_ELSEWHERE:
            test = REPLAYED_ELSEWHERE[page_name(path)]
            assert page_name(path) in (ROOT / test).read_text(encoding="utf-8"), f"{test} replays it"
            continue
        assert collected.get(page_name(path), 0) == fences, page_name(path)
    at_least = {
        "README.md": 8,
        "docs/commands.md": 17,
        "docs/memory.md": 8,
        "docs/0c-format.md": 1,
        "docs/forgetting.md": 3,
        "docs/archive.md": 3,
        "docs/conversations.md": 2,
    }
    for page, blocks in at_least.items():
        assert collected.get(page, 0) >= blocks, page
    commands = sum(len(block) for _, block in BLOCKS)
    docs_commands = sum(len(block) for page, block in BLOCKS if page != "README.md")
    assert docs_commands >= 115 and commands >= 130, (docs_commands, commands)


def test_every_docs_page_is_in_the_nav() -> None:
    """mkdocs.yml lists every page under docs/ once, and nothing else (`mkdocs build --strict` agrees)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config.split("\nnav:\n", 1)[1]
    listed = re.findall(r"^\s+- (?:[^:\n]+: )?(\S+\.md)$", nav, flags=re.MULTILINE)
    pages = [path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")]
    assert sorted(listed) == sorted(pages)
    assert re.search(r"^theme:\n  name: material$", config, flags=re.MULTILINE)


def run_readme_command(command: str, tmp_path: Path) -> str:
    """Run a `$ ...` line of a page as a user would; `/tmp/...` paths become files under `tmp_path`.

    Returns stdout and stderr as a terminal would show them, with the page's paths put back.
    """
    arguments = shlex.split(command)
    if arguments[:2] == ["zero", "keygen"]:
        arguments[2] = str(tmp_path / arguments[2])
    scratch = {a: str(tmp_path / Path(a).name) for a in arguments if a.startswith("/tmp/")}
    arguments = [scratch.get(argument, argument) for argument in arguments]
    environment = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    if arguments[0] == "zero":
        _, stdout, stderr = forked.run(arguments[1:], cwd=ROOT, env=environment)
    else:
        stdout, stderr = _run_program(arguments, environment, tmp_path)
    printed = (stdout + stderr).decode("utf-8").rstrip("\n")
    for readme_path, real_path in scratch.items():
        printed = printed.replace(real_path, readme_path)
    return "\n".join(line.rstrip() for line in printed.splitlines())


def _run_program(arguments: list[str], environment: dict[str, str], tmp_path: Path) -> tuple[bytes, bytes]:
    """A `python SCRIPT` or `pygmentize` line: this interpreter and its environment's scripts."""
    assert arguments[0] in PROGRAMS, f"a page runs `{arguments[0]}`: the tests run only zero and {PROGRAMS}"
    if arguments[0] == "python":
        if arguments[1] in NEEDS:
            pytest.importorskip(NEEDS[arguments[1]])
        program = sys.executable
    else:
        scripts = os.pathsep.join([str(Path(sys.executable).parent), environment.get("PATH", "")])
        found = shutil.which(arguments[0], path=scripts)
        assert found is not None, arguments[0]
        program = found
    python_path = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH")]))
    environment = {**environment, "PYTHONPATH": python_path, "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run(
        [program, *arguments[1:]], capture_output=True, cwd=ROOT, env=environment, timeout=300, check=False
    )
    return done.stdout, done.stderr


@pytest.mark.parametrize(
    ("page", "command", "expected"), EXAMPLES, ids=[f"{page}: {command}" for page, command, _ in EXAMPLES]
)
def test_readme_example_output(page: str, command: str, expected: str, tmp_path: Path) -> None:
    actual = run_readme_command(command, tmp_path)
    if command.startswith("zero keygen"):
        actual = re.sub(r"\S*signer\.pem", "signer.pem", actual)
        actual = re.sub(r"[0-9a-f]{64}", "<hex>", actual)
        expected = re.sub(r"[0-9a-f]{64}", "<hex>", expected)
    assert actual == expected.rstrip("\n")


@pytest.mark.parametrize(
    ("page", "block"), MEMORY_BLOCKS, ids=[f"{page}: {block[0][0]}" for page, block in MEMORY_BLOCKS]
)
def test_readme_memory_session(page: str, block: list[Example], tmp_path: Path) -> None:
    """A block of memory commands runs in order on fresh files; times of day are masked."""
    for command, expected in block:
        actual = run_readme_command(command, tmp_path)
        assert _mask(actual) == _mask(expected.rstrip("\n")), f"{page}: {command}"


def _mask(text: str) -> str:
    return KEY.sub(r"\1<key>", DAYS.sub("t=<days>", NOW.sub(r"\1<now>", text)))


def test_the_readme_language_example_is_hello_without_its_comments() -> None:
    section = readme_sections()["The `.0` language"]
    block = re.search(r"```\n(.*?)```", section, flags=re.DOTALL)
    assert block is not None
    hello = (ROOT / "examples" / "hello.0").read_text(encoding="utf-8")
    lines = [line for line in hello.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert block.group(1).splitlines() == lines


def test_the_readme_python_example_prints_what_it_shows() -> None:
    section = readme_sections()["Python"]
    code = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL)
    shown = re.search(r"```text\n(.*?)```", section, flags=re.DOTALL)
    assert code is not None and shown is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), "README.md", "exec"), {"__name__": "readme_example"})
    assert out.getvalue() == shown.group(1)


def test_quick_start_has_two_lines_and_ci_runs_the_test_line() -> None:
    install_and_run, install_and_test = quick_start()
    assert install_and_run == "python -m pip install . && zero run examples/hello.0 --input name=Ada"
    assert "pytest" in install_and_test and "pip install" in install_and_test
    assert '".[test,docs]"' in install_and_test, "the test line installs the docs extra for mkdocs"
    for check in (
        "ruff check",
        "ruff format --check",
        "mypy --strict",
        "lint-imports",
        "mkdocs build --strict",
    ):
        assert f"&& {check}" in install_and_test, f"the test line should also run `{check}`"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip("\n").splitlines()[-1] == install_and_test
    assert (DOCS / "index.md").read_text(encoding="utf-8").count(install_and_test) == 1


def test_package_hygiene_files() -> None:
    """A license matching pyproject, pre-commit hooks for fmt and lint, private keys never committed."""
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "entry: zero fmt" in hooks and "entry: zero lint" in hooks
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "*.pem" in ignored and "site/" in ignored
    assert (ROOT / "zerolang" / "py.typed").exists()


def test_the_docs_list_exactly_the_builtins() -> None:
    from zerolang.runtime.catalog import OPS

    language = (DOCS / "language.md").read_text(encoding="utf-8")
    match = re.search(r"The (\d+) builtins: `([^`]+)`", language)
    assert match is not None
    assert int(match.group(1)) == len(OPS)
    assert match.group(2).split() == list(OPS)
