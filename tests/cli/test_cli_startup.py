"""Start-up: what each command imports (never how long it takes: that is benches/bench_core.py).

Each case runs `zero` in a fresh interpreter and reads `sys.modules` at exit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zerolang.cli.app import app, load_command
from zerolang.cli.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
HELLO = str(ROOT / "examples" / "hello.0")
COMMAND_MODULES = {target.partition(":")[0] for target, _ in COMMANDS.values()}

PROBE = """
import atexit, json, sys
out = sys.argv[1]
sys.argv = ["zero", *sys.argv[2:]]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from zerolang.cli.app import main
main()
"""


def imported(tmp_path: Path, *arguments: str) -> set[str]:
    """The modules `zero ARGUMENTS` had imported when it exited (stdout is a pipe, as in a script)."""
    out = tmp_path / "modules.json"
    environment = {**os.environ, "ZERO_CACHE_DIR": str(tmp_path / "cache")}
    # The first call builds the parser cache; the second is the one measured, loading from it.
    for _ in range(2):
        subprocess.run(
            [sys.executable, "-c", PROBE, str(out), *arguments],
            capture_output=True,
            env=environment,
            check=False,
            cwd=ROOT,
        )
    return set(json.loads(out.read_text()))


def loaded_commands(modules: set[str]) -> set[str]:
    return modules & COMMAND_MODULES


@pytest.mark.slow
@pytest.mark.parametrize("arguments", [["--help"], ["--version"], []])
def test_help_and_version_import_no_command(tmp_path: Path, arguments: list[str]) -> None:
    modules = imported(tmp_path, *arguments)
    assert not loaded_commands(modules)
    for heavy in (
        "lark",
        "rich",
        "cryptography",
        "sqlite3",
        "zerolang.runtime.interpreter",
        "zerolang.syntax.ast",
    ):
        assert heavy not in modules, f"zero {' '.join(arguments)} imports {heavy}"


# What the fast path (zerolang.cli.fast) of `zero run` and `zero check` must never import: no CLI
# framework, no parser generator (lark's tables come from the cache: zerolang.syntax.lalr), no table drawing
# in a pipe, no memory store, no SQLite, no real signing, no optional regex.
NOT_ON_THE_FAST_PATH = (
    "typer",
    "lark",
    "click",
    "zerolang.cli.typer_app",
    "rich",
    "zerolang.memory",
    "sqlite3",
    "cryptography",
    "regex",
)

# What a plain `zero run` and `zero check` of a graph that reads no clock and misspells nothing never
# import (start-up, issue 43 point 2): the clock's types come with the ops that read it, difflib with a
# suggestion, platformdirs and tempfile only when the parser tables are not found (tests/syntax/
# test_parser_cache.py runs that case without ZERO_CACHE_DIR, which `imported` sets), and the inputs'
# findings (zerolang.runtime.fit_findings) only when there is one.
NOT_ON_A_PLAIN_RUN = ("datetime", "difflib", "platformdirs", "tempfile", "zerolang.runtime.fit_findings")


# What `zero run` without a database, `zero check`, `zero fmt` and `zero lint` never import: memory in
# any form (`zero run` imported the query executor, recall and the store for every graph, issue 43).
NO_MEMORY = (
    "zerolang.knowledge",
    "zerolang.storage",
    "zerolang.memory",
    "zerolang.experience",
    "zerolang.archive",
    "zerolang.convo",
    "sqlite3",
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "arguments",
    [
        ["run", HELLO, "--input", "name=Ada"],
        ["run", HELLO, "--input", "name=Ada", "--json"],
        ["run", HELLO, "--input", "name=Ada", "--max-steps", "99"],
        ["check", HELLO],
        ["fmt", "--check", HELLO],
        ["lint", HELLO],
    ],
)
def test_the_language_commands_import_no_memory(tmp_path: Path, arguments: list[str]) -> None:
    modules = imported(tmp_path, *arguments)
    assert "zerolang.syntax.parser" in modules
    loaded = sorted(name for name in modules if any(name == m or name.startswith(m + ".") for m in NO_MEMORY))
    assert not loaded, f"zero {' '.join(arguments[:1])} imports {loaded}"


@pytest.mark.slow
def test_run_json_imports_only_what_it_uses(tmp_path: Path) -> None:
    modules = imported(tmp_path, "run", HELLO, "--input", "name=Ada", "--json")
    assert "zerolang.runtime.interpreter" in modules and "zerolang.cli.run_exec" in modules
    assert not loaded_commands(modules)  # the typer command modules: the fast path needs none
    # No tables, no memory, no grammar analysis from scratch: the parser comes from the cache.
    for unused in (*NOT_ON_THE_FAST_PATH, *NOT_ON_A_PLAIN_RUN):
        assert unused not in modules, f"zero run --json imports {unused}"


@pytest.mark.slow
def test_run_table_in_a_pipe_imports_no_rich(tmp_path: Path) -> None:
    modules = imported(tmp_path, "run", HELLO, "--input", "name=Ada")
    assert not loaded_commands(modules)
    # a plain table is drawn without rich (zerolang.cli.output)
    for unused in (*NOT_ON_THE_FAST_PATH, *NOT_ON_A_PLAIN_RUN):
        assert unused not in modules, f"zero run imports {unused}"


@pytest.mark.slow
def test_run_with_other_options_goes_through_typer(tmp_path: Path) -> None:
    modules = imported(tmp_path, "run", HELLO, "--input", "name=Ada", "--max-steps", "9")
    assert loaded_commands(modules) == {"zerolang.cli.run_cmd"}
    assert "typer" in modules and "rich" not in modules


@pytest.mark.slow
def test_check_needs_neither_interpreter_nor_rich(tmp_path: Path) -> None:
    modules = imported(tmp_path, "check", HELLO)
    assert not loaded_commands(modules) and "zerolang.cli.check_exec" in modules
    for unused in (*NOT_ON_THE_FAST_PATH, *NOT_ON_A_PLAIN_RUN, "zerolang.runtime.interpreter"):
        assert unused not in modules, f"zero check imports {unused}"


@pytest.mark.slow
@pytest.mark.parametrize("output", [[], ["--json"]])
def test_query_imports_only_what_a_recall_uses(tmp_path: Path, output: list[str]) -> None:
    """`zero query` in a pipe: no CLI framework, no lark (the query tables come from the cache), no
    rich (a plain table), no archive (a recall reads no documents), no settings file, no .0 AST."""
    db = str(tmp_path / "memory.db")
    example = str(ROOT / "examples" / "memory_input.json")
    subprocess.run(
        [sys.executable, "-m", "zerolang", "memory", "ingest", example, "--db", db],
        capture_output=True,
        check=True,
        cwd=ROOT,
    )
    modules = imported(tmp_path, "query", 'recall "0-memory" depth 2 limit 5', "--db", db, *output)
    assert "zerolang.cli.query_exec" in modules and "zerolang.knowledge.recall" in modules
    assert not loaded_commands(modules)
    not_needed = ("zerolang.memory", "sqlite3")  # what the run path avoids and a query needs
    # the settings' home (zerolang.util.config) names the space; no settings file is read here (tomllib)
    for unused in (*NOT_ON_THE_FAST_PATH, "zerolang.archive", "tomllib", "zerolang.syntax.ast"):
        if unused not in not_needed:
            assert unused not in modules, f"zero query imports {unused}"


@pytest.mark.slow
def test_query_with_other_options_goes_through_typer(tmp_path: Path) -> None:
    modules = imported(tmp_path, "query", "recall a", "--db", str(tmp_path / "none.db"), "--help")
    assert "zerolang.cli.query_cmd" in loaded_commands(modules) and "typer" in modules


@pytest.mark.slow
def test_sub_app_help_loads_only_its_module(tmp_path: Path) -> None:
    modules = imported(tmp_path, "memory", "--help")
    assert loaded_commands(modules) == {"zerolang.cli.memory_app"}
    assert "lark" not in modules and "rich" not in modules


@pytest.mark.parametrize("name", list(COMMANDS))
def test_table_summary_is_the_commands_own_help(name: str) -> None:
    """`zero --help` shows the table's summary without importing: it must say what the command says."""
    command = load_command(name)
    first_paragraph = " ".join((command.help or "").split("\n\n")[0].split())
    assert COMMANDS[name].summary == first_paragraph


def test_every_command_is_listed_and_runs_its_help() -> None:
    runner = CliRunner()
    listing = runner.invoke(app, ["--help"])
    assert listing.exit_code == 0
    listed = [line.split()[0] for line in listing.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == list(COMMANDS)
    for name in COMMANDS:
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, result.output
        assert f" {name} " in result.stdout.splitlines()[0]


def test_unknown_command_suggests_the_nearest() -> None:
    result = CliRunner().invoke(app, ["rn", "x.0"])
    assert result.exit_code == 2
    assert "No such command 'rn'. Did you mean 'run'?" in result.output
