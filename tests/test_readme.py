"""The README tells the truth: its example commands print what it shows, and CI runs its test line."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from tests import forked

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


DB = "/tmp/memory.db"  # README examples use this database; tests give each block a fresh one
ARCHIVE = "/tmp/archive"  # ... and this archive folder: its blocks run as sessions too
DAYS = re.compile(r"\bt=[+-]\d+\b")  # the archive's time axis is days from today
EXPERIENCE_DB = "/tmp/experiences.db"  # the same for `zero capture`, `zero recall`, `zero convo`
NOW = re.compile(
    r"(created_at\": \"|created  +|updated_at\": \"|updated  +|last at )\d{4}-\d\d-\d\dT[\d:.]+Z"
)
KEY = re.compile(
    r"(public key |signed by |from |signer )[0-9a-f]{16,64}"
)  # a fresh `zero keygen` key each run


def console_blocks() -> list[list[tuple[str, str]]]:
    """Each console block: its `$ zero ...` commands, each with the output shown under it."""
    blocks: list[list[tuple[str, str]]] = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.DOTALL):
        examples: list[tuple[str, str]] = []
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


def console_examples() -> list[tuple[str, str]]:
    return [example for block in console_blocks() if not _uses_db(block) for example in block]


def _uses_db(block: list[tuple[str, str]]) -> bool:
    return any(db in command for command, _ in block for db in (DB, ARCHIVE, EXPERIENCE_DB))


def quick_start() -> list[str]:
    section = README.split("## Quick start", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, flags=re.DOTALL)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


EXAMPLES = console_examples()


def test_readme_has_examples_for_every_command() -> None:
    commands = {shlex.split(command)[1] for block in console_blocks() for command, _ in block}
    assert {
        "run",
        "check",
        "fmt",
        "lint",
        "viz",
        "keygen",
        "memory",
        "ops",
        "completion",
        "archive",
        "capture",
        "recall",
        "convo",
    } <= commands


def run_readme_command(command: str, tmp_path: Path) -> str:
    """Run a README `$ zero ...` line as a user would; `/tmp/...` paths become files under `tmp_path`.

    Returns stdout and stderr as a terminal would show them, with the README's paths put back.
    """
    arguments = shlex.split(command)
    assert arguments[0] == "zero"
    if arguments[1] == "keygen":
        arguments[2] = str(tmp_path / arguments[2])
    scratch = {a: str(tmp_path / Path(a).name) for a in arguments if a.startswith("/tmp/")}
    arguments = [scratch.get(argument, argument) for argument in arguments]
    environment = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    _, stdout, stderr = forked.run(arguments[1:], cwd=ROOT, env=environment)
    printed = (stdout + stderr).decode("utf-8").rstrip("\n")
    for readme_path, real_path in scratch.items():
        printed = printed.replace(real_path, readme_path)
    return "\n".join(line.rstrip() for line in printed.splitlines())


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[command for command, _ in EXAMPLES])
def test_readme_example_output(command: str, expected: str, tmp_path: Path) -> None:
    actual = run_readme_command(command, tmp_path)
    if command.startswith("zero keygen"):
        actual = re.sub(r"\S*signer\.pem", "signer.pem", actual)
        actual = re.sub(r"[0-9a-f]{64}", "<hex>", actual)
        expected = re.sub(r"[0-9a-f]{64}", "<hex>", expected)
    assert actual == expected.rstrip("\n")


MEMORY_BLOCKS = [block for block in console_blocks() if _uses_db(block)]


@pytest.mark.parametrize("block", MEMORY_BLOCKS, ids=[block[0][0] for block in MEMORY_BLOCKS])
def test_readme_memory_session(block: list[tuple[str, str]], tmp_path: Path) -> None:
    """A block of `zero memory` commands runs in order on a fresh database; times of day are masked."""
    for command, expected in block:
        actual = run_readme_command(command, tmp_path)
        assert _mask(actual) == _mask(expected.rstrip("\n")), command


def _mask(text: str) -> str:
    return KEY.sub(r"\1<key>", DAYS.sub("t=<days>", NOW.sub(r"\1<now>", text)))


def test_quick_start_has_two_lines_and_ci_runs_the_test_line() -> None:
    install_and_run, install_and_test = quick_start()
    assert "zero run" in install_and_run and "pip install" in install_and_run
    assert "pytest" in install_and_test and "pip install" in install_and_test
    for check in ("ruff check", "ruff format --check", "mypy --strict"):
        assert f"&& {check}" in install_and_test, f"the test line should also run `{check}`"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert install_and_test in ci.splitlines()


def test_package_hygiene_files() -> None:
    """A license matching pyproject, pre-commit hooks for fmt and lint, private keys never committed."""
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "entry: zero fmt" in hooks and "entry: zero lint" in hooks
    assert "*.pem" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert (ROOT / "zerolang" / "py.typed").exists()


def test_the_readme_lists_exactly_the_builtins() -> None:
    from zerolang.runtime.catalog import OPS

    match = re.search(r"The (\d+) builtins: `([^`]+)`", README)
    assert match is not None
    assert int(match.group(1)) == len(OPS)
    assert match.group(2).split() == list(OPS)
