"""One option spec (`zerolang.cli.options`) feeds both typer and the fast path.

Every command's options that a spec declares are as the spec says (flags, help, metavar, environment
variable, default, bounds); no command declares such an option by hand; the fast path reads the very
specs typer declares, with their defaults and environment variables, and a changed spec changes it.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zerolang.cli import options
from zerolang.cli.commands import COMMANDS
from zerolang.cli.fast import accepted, read_check, read_query, read_run
from zerolang.cli.options import OptionSpec
from zerolang.cli.typer_app import load_command

ROOT = Path(__file__).resolve().parents[2]
SPECS: list[OptionSpec[Any]] = [value for value in vars(options).values() if isinstance(value, OptionSpec)]
FLAGS = {flag for spec in SPECS for flag in spec.flags}
# Flags a spec declares that one command uses for something else: (command, flag).
OTHER_MEANINGS = {("lint", "--explain")}  # a rule's explanation, not `zero query`'s plan


def commands() -> Iterator[tuple[str, Any]]:
    """Every leaf command of `zero` as click builds it: ("memory ingest", command), ..."""

    def walk(path: str, command: Any) -> Iterator[tuple[str, Any]]:
        if getattr(command, "commands", None):
            for name, sub in command.commands.items():
                yield from walk(f"{path} {name}", sub)
        else:
            yield path, command

    for name in COMMANDS:
        yield from walk(name, load_command(name))


def declared(name: str, command: Any) -> list[Any]:
    """A command's options that share a flag with some spec (and mean what it means)."""
    flags = FLAGS - {flag for other, flag in OTHER_MEANINGS if other == name}
    return [param for param in command.params if flags & set(getattr(param, "opts", []))]


def follows(option: Any, spec: OptionSpec[Any]) -> bool:
    """Whether a click option is `spec` as `typer_options.option` declares it (a command may add a
    sentence to the help: `OptionSpec.detailed`)."""
    return (
        tuple(option.opts) == spec.flags
        and (option.help == spec.help or option.help.startswith(f"{spec.help} "))
        and option.metavar == spec.metavar
        and option.envvar == spec.envvar
        and option.default == spec.default
        and option.is_flag == spec.is_flag
        and option.multiple == spec.multiple
        and getattr(option.type, "min", None) == spec.minimum
        and getattr(option.type, "max", None) == spec.maximum
    )


def test_every_option_a_spec_declares_is_the_spec_s() -> None:
    wrong = [
        (name, option.opts, option.help)
        for name, command in commands()
        for option in declared(name, command)
        if not any(follows(option, spec) for spec in SPECS)
    ]
    assert wrong == []


def test_the_shared_options_are_declared_by_many_commands_and_every_spec_is_used() -> None:
    used = [
        spec
        for name, command in commands()
        for option in declared(name, command)
        for spec in SPECS
        if follows(option, spec)
    ]
    for shared in (options.DB, options.SPACE, options.JSON, options.NOW, options.ROOT, options.EXPERIENCES):
        assert used.count(shared) > 2, shared.name
    assert [spec.name for spec in SPECS if spec not in used] == []


def test_no_command_declares_a_spec_s_flag_by_hand() -> None:
    """typer.Option("--db", ...) in a command would be a second declaration, even if it agreed today."""
    by_hand = re.compile(r'typer\.Option\(\s*"(-[-a-z]+)"')
    found = [
        (path.name, flag)
        for path in sorted((ROOT / "zerolang" / "cli").glob("*.py"))
        for flag in by_hand.findall(path.read_text(encoding="utf-8"))
        if flag in FLAGS and (path.stem.removesuffix("_cmd"), flag) not in OTHER_MEANINGS
    ]
    assert found == []


@pytest.mark.parametrize("name", ["run", "check", "query"])
def test_the_fast_path_reads_the_options_typer_declares(name: str) -> None:
    command = load_command(name)
    for spec in accepted(name):
        matching = [option for option in command.params if spec.name in getattr(option, "opts", [])]
        assert len(matching) == 1 and follows(matching[0], spec), spec.name


def test_the_fast_path_defaults_are_the_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    for spec in accepted("query"):
        if spec.envvar is not None:
            monkeypatch.delenv(spec.envvar, raising=False)
    read = read_query(["recall a"])
    assert read is not None
    assert read[1] == {spec.name: spec.default for spec in accepted("query")}
    monkeypatch.setenv("ZERO_MEMORY_SPACE", "")  # empty: as typer, the default
    assert read_query(["recall a"]) == read
    monkeypatch.setenv("ZERO_MEMORY_SPACE", "elsewhere")
    monkeypatch.setenv("ZERO_MEMORY_DB", "m.db")
    read = read_query(["recall a"])
    assert read is not None and (read[1]["--space"], read[1]["--db"]) == ("elsewhere", "m.db")
    read = read_query(["recall a", "--space", "given"])
    assert read is not None and read[1]["--space"] == "given"


def test_a_changed_spec_changes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options, "JSON", dataclasses.replace(options.JSON, flags=("--as-json",)))
    monkeypatch.setattr(
        options, "SPACE", dataclasses.replace(options.SPACE, default="elsewhere", envvar=None)
    )
    assert read_check(["a.0", "--as-json"]) == (["a.0"], {"--as-json": True})
    assert read_check(["a.0", "--json"]) is None
    read = read_query(["recall a"])
    assert read is not None and read[1]["--space"] == "elsewhere"


def test_the_run_the_fast_path_starts_has_the_specs_defaults() -> None:
    """The fast path leaves out what `zero run` reads only under typer: `run_exec.execute`'s defaults."""
    from zerolang.cli.run_exec import execute

    defaults = {name: p.default for name, p in inspect.signature(execute).parameters.items()}
    assert defaults["max_steps"] == options.MAX_STEPS.default
    for name, spec in (("max_value_bytes", options.MAX_VALUE_SIZE), ("max_run_bytes", options.MAX_MEMORY)):
        assert spec.parse is not None and defaults[name] == spec.parse(spec.default)
    assert (defaults["db"], defaults["space"], defaults["now"]) == (
        options.RUN_DB.default,
        options.RUN_SPACE.default,
        options.NOW.default,
    )
    assert read_run(["x.0"]) == ("x.0", {"--input": None, "--json": False, "--trace": False})


def test_the_axes_are_the_archive_s() -> None:
    from zerolang.archive.index import AXIS_MAX, AXIS_MIN

    assert (options.AXIS_MIN, options.AXIS_MAX) == (AXIS_MIN, AXIS_MAX)


@pytest.mark.parametrize(("text", "size"), [("64M", 64 << 20), ("1G", 1 << 30), ("1536K", 1536 << 10)])
def test_size_text_is_what_parse_size_reads(text: str, size: int) -> None:
    assert options.size_text(size) == text and options.positive_size(text) == size
    with pytest.raises(ValueError, match="more than 0"):
        options.positive_size("0")
