"""`check` is right after every operation (issue 28, point 3), on both backends.

A healthy store never fails `check`: after any sequence of ingests, forgets, restores, retractions,
sweeps, declarations and imports (each through the CLI, with its own clock, refused or not),
`zero memory check` exits 0.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.memory import MemoryStore

runner = CliRunner()
NAMES = ("ann", "bob", "tea", "jam", "cat")
PREDICATES = ("likes", "owns", "is")
SCOPES = ("home", "work")


def _day(n: int) -> str:
    return f"2026-01-{1 + n:02}T00:00:00Z"


def _record(subject: int, predicate: int, obj: int, day: int, scope: int, confidence: float) -> str:
    relation = {
        "subject": NAMES[subject],
        "predicate": PREDICATES[predicate],
        "object": NAMES[obj],
        "confidence": confidence,
    }
    context = {"event_time": _day(day), "source": "user", "scope": SCOPES[scope]}
    return json.dumps({"tuples": [relation], "context": context})


_name = st.integers(0, len(NAMES) - 1)
_predicate = st.integers(0, len(PREDICATES) - 1)
_day_number = st.integers(0, 9)
OPERATIONS = st.one_of(
    st.tuples(
        st.just("ingest"),
        _name,
        _predicate,
        _name,
        _day_number,
        st.integers(0, 1),
        st.sampled_from([0.3, 0.6, 0.9]),
    ),
    st.tuples(st.just("forget"), _name, _day_number),
    st.tuples(st.just("forget-fact"), _name, _predicate, _name, _day_number),
    st.tuples(st.just("restore"), _name, _day_number),
    st.tuples(st.just("retract"), _name, _predicate, _name, _day_number),
    st.tuples(st.just("sweep"), st.sampled_from([0.2, 0.5, 0.95]), _day_number),
    st.tuples(st.just("declare"), _predicate, st.booleans()),
    st.tuples(st.just("import"), _name, _predicate, _name, _day_number),
)


def _run(arguments: list[str], given_input: str | None = None) -> Any:
    result = runner.invoke(app, arguments, input=given_input)
    assert result.exit_code in (0, 1), (arguments, result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output, result.output
    return result


def _apply(operation: tuple[Any, ...], at: list[str], other: list[str], folder: Path) -> None:
    kind = operation[0]
    if kind == "ingest":
        _, s, p, o, day, scope, confidence = operation
        file = folder / "record.json"
        file.write_text(_record(s, p, o, day, scope, confidence), "utf-8")
        _run(["memory", "ingest", str(file), *at, "--now", _day(day)])
    elif kind == "forget":
        _run(["memory", "forget", NAMES[operation[1]], *at, "--now", _day(operation[2])])
    elif kind == "forget-fact":
        _, s, p, o, day = operation
        fact = f"{NAMES[s]}|{PREDICATES[p]}|{NAMES[o]}"
        _run(["memory", "forget", "--fact", fact, *at, "--now", _day(day)])
    elif kind == "restore":
        _run(["memory", "restore", NAMES[operation[1]], *at, "--now", _day(operation[2])])
    elif kind == "retract":
        _, s, p, o, day = operation
        _run(["memory", "retract", f"{NAMES[s]}|{PREDICATES[p]}|{NAMES[o]}", *at, "--now", _day(day)])
    elif kind == "sweep":
        _, floor, day = operation
        _run(["memory", "sweep", "--min-confidence", str(floor), *at, "--now", _day(day)])
    elif kind == "declare":
        _, p, remove = operation
        _run(["memory", "single-valued", PREDICATES[p], *(["--remove"] if remove else []), *at])
    else:  # import: what another space learned, exported and loaded here
        _, s, p, o, day = operation
        file = folder / "other.json"
        file.write_text(_record(s, p, o, day, 0, 0.7), "utf-8")
        _run(["memory", "ingest", str(file), *other, "--now", _day(day)])
        exported = _run(["memory", "export", *other])
        if exported.exit_code == 0:
            _run(["memory", "import", "-", *at], exported.stdout)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(OPERATIONS, min_size=1, max_size=8))
def test_any_sequence_of_operations_leaves_a_store_that_checks(
    operations: list[tuple[Any, ...]],
    open_store: Callable[..., MemoryStore],
    location: str,
    backend: str,
    tmp_path: Path,
) -> None:
    run = secrets.token_hex(4)
    folder = tmp_path / run
    folder.mkdir()
    where = location if backend != "sqlite" else str(folder / "memory.db")
    space = f"p-{run}"
    at, other = ["--db", where, "--space", space], ["--db", where, "--space", f"{space}-o"]
    for operation in operations:
        _apply(operation, at, other, folder)
        checked = _run(["memory", "check", *at])
        if "no memory database here" not in checked.output:  # nothing stored yet (SQLite)
            assert checked.exit_code == 0, (operations, operation, checked.output)


def test_forgetting_the_first_of_a_contexts_episodes_leaves_a_store_that_checks(
    location: str, space: str, tmp_path: Path
) -> None:
    """The known bug: `ann likes tea`, then `bob likes jam` the next day (the same context), forget `ann`."""
    at = ["--db", location, "--space", space]
    for day, (s, o) in enumerate([(0, 2), (1, 3)]):
        file = tmp_path / f"{day}.json"
        file.write_text(_record(s, 0, o, 0, 0, 0.9), "utf-8")
        assert _run(["memory", "ingest", str(file), *at, "--now", _day(day)]).exit_code == 0
    assert _run(["memory", "forget", "ann", *at, "--now", _day(2)]).exit_code == 0
    checked = _run(["memory", "check", *at])
    assert checked.exit_code == 0, checked.output
    assert _run(["memory", "restore", "ann", *at, "--now", _day(3)]).exit_code == 0
    checked = _run(["memory", "check", *at])
    assert checked.exit_code == 0, checked.output
