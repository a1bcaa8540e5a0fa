"""Every `zero ...` a message or docstring points at is a real command with real options."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer

from zerolang.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
POINTER = re.compile(r"`zero ((?:[a-z][a-z-]*)(?: [a-z][a-z-]*)?)((?: [^`]*)?)`")
COMMANDS: Any = typer.main.get_command(app)


def problem(pointer: str) -> str | None:
    """What is wrong with a `zero ...` pointer, or None when it names a real command and options."""
    words = pointer.strip("`").split()[1:]
    if not words or words[0].startswith("-"):
        return None  # `zero --help`, `zero --version`: options of the root
    command, rest = COMMANDS, list(words)
    # Groups are asked (not their `commands` dict): the root loads its commands lazily.
    while rest and hasattr(command, "get_command") and rest[0] in command.list_commands(None):
        command = command.get_command(None, rest.pop(0))
    if command is COMMANDS:
        return "no such command"
    options = {name for param in command.params for name in getattr(param, "opts", [])} | {"--help", "-h"}
    for word in rest:
        flag = word.split("=", 1)[0]
        if flag.startswith("--") and flag not in options:
            return f"no option {flag}"
    return None


def pointers() -> list[tuple[str, str]]:
    found = []
    for path in sorted((ROOT / "zerolang").rglob("*.py")):
        for match in POINTER.finditer(path.read_text(encoding="utf-8")):
            found.append((f"{path.relative_to(ROOT)}", match.group(0)))
    return found


def test_the_checker_catches_unreal_pointers() -> None:
    assert problem("`zero frobnicate`") == "no such command"
    assert problem("`zero check --nope`") == "no option --nope"
    assert problem("`zero lint --explain Z008`") is None
    assert problem("`zero memory export --format 0`") is None


def test_every_pointer_names_a_real_command_and_options() -> None:
    found = pointers()
    assert len(found) > 20
    assert [(where, pointer, problem(pointer)) for where, pointer in found if problem(pointer)] == []
