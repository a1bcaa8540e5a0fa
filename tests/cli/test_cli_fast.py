"""The fast path (`zerolang.cli.fast`) and the plain outputs table print what typer and rich print."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import forked
from tests.budget import scaled
from tests.memory_stores import experiences_of
from zerolang.cli.fast import read_check, read_query, read_run
from zerolang.cli.output import draw_result, plain_result
from zerolang.storage import open_experiences
from zerolang.util.spaces import DEFAULT_SPACE

ROOT = Path(__file__).resolve().parents[2]
HELLO = str(ROOT / "examples" / "hello.0")


def rich_result(rows: list[tuple[str, str, str]], confidence: float, digest: str, trace: str | None) -> str:
    """The table as rich draws it in a pipe (`draw_result`, what `print_result` does on a terminal)."""
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, highlight=False, no_color=True, color_system=None, width=1_000_000)
    draw_result(console, rows, confidence, digest, trace)
    return out.getvalue()


TEXT = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30) | st.sampled_from(
    ["", " lead", "trail ", "[bold]x", "a\\[b", ":smile:", "x: y", "[1, 2]", "Ада", "two\nlines", "\t"]
)
ROWS = st.lists(st.tuples(TEXT, st.sampled_from(["String", "Int", "Map", "Null"]), TEXT), max_size=4)


@settings(max_examples=scaled(300), deadline=None)
@given(ROWS, st.floats(min_value=0, max_value=1), st.lists(TEXT, min_size=1, max_size=3) | st.none())
def test_plain_table_is_what_rich_draws_or_declines(
    rows: list[tuple[str, str, str]], confidence: float, trace: list[str] | None
) -> None:
    digest = "ab" * 32
    joined = " → ".join(trace) if trace is not None else None
    plain = plain_result(rows, confidence, digest, joined)
    if plain is not None:
        assert plain == rich_result(rows, confidence, digest, joined)


def test_plain_table_draws_the_common_cases() -> None:
    rows = [("greeting", "String", "Hello, Ada"), ("n", "Map", '{"a": 1, "b": [1, 2]}')]
    assert plain_result(rows, 1.0, "0" * 64, "a → b") is not None
    assert plain_result([], 1.0, "0" * 64, None) is not None
    markup = [("[red]x", "String", "[link=http://evil]click[/link] :smile:")]
    assert plain_result(markup, 1.0, "0" * 64, None) == rich_result(markup, 1.0, "0" * 64, None)
    assert "[link=http://evil]click[/link] :smile:" in rich_result(markup, 1.0, "0" * 64, "[red]x")
    assert plain_result([("x", "String", "Ада")], 1.0, "0" * 64, None) is None


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["x.0"], ("x.0", None, False, False)),
        (
            ["x.0", "-i", "a=1", "--input", "b:=2", "--input=c=3", "--json", "--trace"],
            ("x.0", ["a=1", "b:=2", "c=3"], True, True),
        ),
        (["-", "--json"], ("-", None, True, False)),
        ([], None),
        (["x.0", "y.0"], None),
        (["x.0", "--help"], None),
        (["x.0", "-i"], None),
        (["x.0", "-i", "--json"], None),
        (["x.0", "--max-steps", "3"], None),
        (["x.0", "--"], None),
        (["x.0", "-ia=1"], None),
        (["x.0", "--json", "--json"], None),
        (["x.0", "--json=1"], None),
    ],
)
def test_run_fast_path_takes_only_plain_command_lines(
    arguments: list[str], expected: tuple[str, list[str] | None, bool, bool] | None
) -> None:
    read = read_run(arguments)
    if expected is None:
        assert read is None
        return
    assert read is not None
    file, values = read
    assert (file, values["--input"], values["--json"], values["--trace"]) == expected


def test_check_fast_path_takes_only_plain_command_lines() -> None:
    assert read_check(["a.0", "b", "--json"]) == (["a.0", "b"], {"--json": True})
    assert read_check(["-"]) == (["-"], {"--json": False})
    for declined in ([], ["-", "a.0"], ["a.0", "-h"], ["--json"]):
        assert read_check(declined) is None


def zero(*arguments: str, fast: bool, stdin: str = "", **variables: str) -> tuple[int, str, str]:
    """`zero ARGUMENTS` in a process of its own (tests/forked.py), by the fast path or (fast=False) by typer."""
    environment = {**os.environ, "NO_COLOR": "1", **variables}
    environment.pop("FORCE_COLOR", None)
    code, stdout, stderr = forked.run(
        list(arguments), stdin=stdin.encode(), env=environment, cwd=ROOT, typer=not fast
    )
    return code, stdout.decode(), stderr.decode()


@pytest.mark.slow
@pytest.mark.parametrize(
    "arguments",
    [
        ["run", HELLO, "--input", "name=Ada"],
        ["run", HELLO, "-i", "name=Ada", "--json", "--trace"],
        ["run", HELLO, "--trace", "-i", "name=[b]Ada"],
        ["run", HELLO, "-i", "name"],
        ["run", "missing.0"],
        ["run", "-"],
        ["check", HELLO, str(ROOT / "examples")],
        ["check", HELLO, "--json"],
        ["check", "missing.0"],
        ["check", "-"],
    ],
)
def test_fast_path_prints_what_typer_prints(arguments: list[str], tmp_path: Path) -> None:
    stdin = Path(HELLO).read_text(encoding="utf-8")
    assert read_run(arguments[1:]) is not None or read_check(arguments[1:]) is not None
    assert zero(*arguments, fast=True, stdin=stdin) == zero(*arguments, fast=False, stdin=stdin)


def test_query_fast_path_takes_only_plain_command_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ZERO_MEMORY_DB", raising=False)
    monkeypatch.delenv("ZERO_MEMORY_SPACE", raising=False)
    read = read_query(["recall a", "--db", "x.db", "--space=s", "--json", "--now", "2026-01-01"])
    assert read == (
        "recall a",
        {"--db": "x.db", "--space": "s", "--now": "2026-01-01", "--json": True}
        | {"--explain": False, "--no-touch": False},
    )
    assert read_query(["--explain", "match (?a b c)", "--no-touch"]) == (
        "match (?a b c)",
        {"--db": None, "--space": DEFAULT_SPACE, "--now": None, "--json": False}
        | {"--explain": True, "--no-touch": True},
    )
    declined = (
        [],
        ["a", "b"],
        ["recall a", "--help"],
        ["recall a", "--db"],
        ["recall a", "--db", "--json"],
        ["recall a", "--json", "--json"],
        ["recall a", "--db", "x", "--db=y"],
        ["recall a", "--"],
        ["-"],
        ["-x"],
    )
    for arguments in declined:
        assert read_query(arguments) is None, arguments


@pytest.fixture(scope="module")
def example_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The example facts in a store, ingested by the CLI at a fixed time."""
    db = str(tmp_path_factory.mktemp("store") / "memory.db")
    example = str(ROOT / "examples" / "memory_input.json")
    code, _, error = zero("memory", "ingest", example, "--db", db, "--now", "2026-03-01T12:00:00Z", fast=True)
    assert code == 0, error
    return db


@pytest.mark.slow
@pytest.mark.parametrize(
    "arguments",
    [
        ['recall "0-memory" depth 2 limit 5', "--no-touch"],
        ['recall "0-memory" limit 3', "--json", "--explain", "--no-touch", "--now", "2026-03-02T00:00:00Z"],
        ["match (?x ?p ?y) limit 4", "--explain", "--no-touch"],
        ['recall "0-memory" as L1', "--no-touch"],
        ["recall nothing-here", "--no-touch"],
        ["recall a depth 99", "--no-touch"],
        ["recall a where", "--no-touch"],
        ["recall a", "--now", "yesterday", "--no-touch"],
        ["recall a", "--space", "other", "--no-touch"],
    ],
)
def test_query_fast_path_prints_what_typer_prints(arguments: list[str], example_db: str) -> None:
    arguments = ["query", *arguments, "--db", example_db]
    assert read_query(arguments[1:]) is not None
    assert zero(*arguments, fast=True) == zero(*arguments, fast=False)


@pytest.mark.slow
@pytest.mark.parametrize("space", ["", "other", "default"])
def test_query_reads_the_environment_as_typer_does(space: str, example_db: str) -> None:
    """`$ZERO_MEMORY_DB` names the store, `$ZERO_MEMORY_SPACE` the space (empty: the default)."""
    arguments = ["query", 'recall "0-memory" limit 2', "--no-touch"]
    variables = {"ZERO_MEMORY_DB": example_db, "ZERO_MEMORY_SPACE": space}
    fast = zero(*arguments, fast=True, **variables)
    assert fast == zero(*arguments, fast=False, **variables)
    assert (fast[0] == 1 and "no concept '0-memory'" in fast[2]) == (space == "other"), fast


@pytest.mark.slow
def test_query_of_a_missing_store_fails_alike(tmp_path: Path) -> None:
    arguments = ["query", "recall a", "--db", str(tmp_path / "missing.db")]
    fast = zero(*arguments, fast=True)
    assert fast[0] == 1 and fast == zero(*arguments, fast=False)


TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"


def test_capture_fast_path_takes_only_plain_command_lines() -> None:
    from zerolang.cli.fast import read_capture

    assert read_capture(["a.jsonl", "b.jsonl", "--db", "e.db", "--json"]) == (
        ["a.jsonl", "b.jsonl"],
        {"--db": "e.db", "--json": True, "--space": None, "--experiences": None},
    )
    for declined in (
        [],
        ["--json"],
        ["a.jsonl", "--user", "ada"],
        ["a.jsonl", "--format", "openai"],
        ["a.jsonl", "--help"],
        ["-"],
        ["a.jsonl", "--db"],
    ):
        assert read_capture(declined) is None, declined


@pytest.mark.slow
@pytest.mark.parametrize("json_output", [False, True])
def test_capture_fast_path_prints_what_typer_prints(json_output: bool, tmp_path: Path) -> None:
    files = [str(path) for path in sorted(TRANSCRIPTS.iterdir())]
    outputs = []
    for fast in (True, False):
        db = str(tmp_path / f"{fast}.db")
        arguments = ["capture", *files, "--db", db, *(["--json"] if json_output else [])]
        first = zero(*arguments, fast=fast)
        again = zero(*arguments, fast=fast)  # nothing new
        missing = zero("capture", str(tmp_path / "missing.jsonl"), "--db", db, fast=fast)
        outputs.append((first, again, missing))
    assert outputs[0] == outputs[1]
    (first, again, missing) = outputs[0]
    assert first[0] == again[0] == 0 and missing[0] == 1, outputs[0]


@pytest.mark.slow
def test_hook_lean_path_does_what_typer_does(tmp_path: Path) -> None:
    """A Stop event captures the same turns by the lean path (`zerolang.cli.hook_client`, read before
    the fast path; tests/cli/test_hook_lean.py) and by typer; bad input is one line on stderr, exit 0."""
    transcript = TRANSCRIPTS / "claude_code.jsonl"
    stop = json.dumps({"hook_event_name": "Stop", "session_id": "s", "transcript_path": str(transcript)})
    home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "ZERO_MEMORY_DB": ""}
    outputs = []
    for fast in (True, False):
        db = str(tmp_path / f"{fast}.db")
        captured = zero("hook", "claude-code", "--db", db, fast=fast, stdin=stop, **home)
        again = zero("hook", "claude-code", "--db", db, fast=fast, stdin=stop, **home)
        broken = zero("hook", "claude-code", "--db", db, fast=fast, stdin="{not json", **home)
        with open_experiences(experiences_of(db), create=False) as store:
            outputs.append((captured, again, broken, store.counts()))
    assert outputs[0] == outputs[1]
    captured, _, broken, counts = outputs[0]
    assert captured == (0, "", "") and counts["turns"] > 0
    assert broken[0] == 0 and broken[2].startswith("zero hook: the hook's input is not JSON")
