"""A store carries its own meaning: what a write stores never depends on the working folder.

Single-valued predicates are declared in the store (`zero memory single-valued`, the Python API),
recorded in its log with their time; a `pyproject.toml` is read only when a new store is first
written, with a one-line notice.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import zerolang.memory

ROOT = Path(__file__).resolve().parents[2]
TIMELINE = [("Acme", "2019"), ("Initech", "2021"), ("Globex", "2023"), ("Acme", "2025")]


def zero(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ZERO_")}
    environment.update({"NO_COLOR": "1", "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(folder / "data")})
    done = subprocess.run(
        [sys.executable, "-m", "zerolang", *arguments],
        capture_output=True,
        text=True,
        cwd=folder,
        env=environment,
    )
    assert done.returncode == 0, done.stderr
    return done


def inputs(folder: Path) -> list[Path]:
    paths = []
    for number, (employer, year) in enumerate(TIMELINE):
        record = {
            "tuples": [{"subject": "Bob", "predicate": "works at", "object": employer, "confidence": 0.9}],
            "context": {"event_time": f"{year}-01-01T00:00:00Z", "source": "hr", "scope": "people"},
        }
        path = folder / f"b{number}.json"
        path.write_text(json.dumps([record]))
        paths.append(path)
    return paths


def session(folder: Path, db: str, *, declare: bool) -> dict[str, object]:
    """The same commands, from `folder`; what they leave in the store."""
    if declare:
        zero(folder, "memory", "single-valued", "works at", "--db", db, "--now", "2026-01-01T00:00:00Z")
    for number, path in enumerate(inputs(folder)):
        zero(folder, "memory", "ingest", str(path), "--db", db, "--now", f"2026-0{number + 2}-01T00:00:00Z")
    zero(folder, "memory", "retract", "bob|works_at|globex", "--valid-to", "2024-06-01", "--db", db,
         "--now", "2026-07-01T00:00:00Z")  # fmt: skip
    asked = {
        clause: zero(
            folder,
            "query",
            f"match (bob works_at ?x) {clause}",
            "--db",
            db,
            "--now",
            "2026-08-01T00:00:00Z",
            "--json",
        ).stdout
        for clause in ("", "as of 2020-06-01", "as of 2024-01-01", "as of 2024-09-01", "known at 2026-03-15")
    }
    return {
        "checkpoint": zero(folder, "memory", "checkpoint", "--db", db, "--json").stdout,
        "single_valued": zero(folder, "memory", "single-valued", "--db", db, "--json").stdout,
        "history": zero(folder, "memory", "history", "bob", "--db", db, "--json").stdout,
        "answers": asked,
    }


def folders(tmp_path: Path) -> list[Path]:
    """A folder whose pyproject.toml declares nothing, one that declares `works_at`, one with none."""
    found = []
    for name, text in (
        ("plain", "[tool.zero]\nline-width = 88\n"),
        ("declaring", '[tool.zero.memory]\nsingle-valued = ["works_at", "lives_in"]\n'),
        ("bare", None),
    ):
        folder = tmp_path / name
        folder.mkdir()
        if text is not None:
            (folder / "pyproject.toml").write_text(text)
        found.append(folder)
    return found


def test_the_same_commands_store_the_same_from_any_folder(tmp_path: Path) -> None:
    results = [
        session(folder, str(tmp_path / f"{folder.name}.db"), declare=True) for folder in folders(tmp_path)
    ]
    assert results[0] == results[1] == results[2]
    answers = results[0]["answers"]
    assert isinstance(answers, dict)
    assert [row["bindings"]["x"] for row in json.loads(answers["as of 2020-06-01"])] == ["acme"]
    assert json.loads(answers["as of 2024-09-01"]) == []  # Globex retracted from 2024-06-01
    assert json.loads(str(results[0]["single_valued"])) == ["works_at"]


def test_one_store_written_from_two_folders_applies_its_own_rules(tmp_path: Path) -> None:
    plain, declaring, _ = folders(tmp_path)
    db = str(tmp_path / "shared.db")
    paths = inputs(plain)
    zero(plain, "memory", "ingest", str(paths[0]), "--db", db, "--now", "2026-02-01T00:00:00Z")
    for number, path in enumerate(paths[1:], 1):
        done = zero(
            declaring, "memory", "ingest", str(path), "--db", db, "--now", f"2026-0{number + 2}-01T00:00:00Z"
        )
        assert "pyproject" not in done.stderr  # not a new store: the folder's settings do not apply
    current = zero(plain, "query", "match (bob works_at ?x)", "--db", db, "--json").stdout
    assert sorted(row["bindings"]["x"] for row in json.loads(current)) == ["acme", "globex", "initech"]
    assert json.loads(zero(declaring, "memory", "single-valued", "--db", db, "--json").stdout) == []


def test_a_new_store_takes_the_folders_declarations_once_and_says_so(tmp_path: Path) -> None:
    _, declaring, _ = folders(tmp_path)
    paths = inputs(declaring)
    first = zero(
        declaring, "memory", "ingest", str(paths[0]), "--db", "new.db", "--now", "2026-02-01T00:00:00Z"
    )
    notice = [line for line in first.stderr.splitlines() if "pyproject.toml" in line]
    assert len(notice) == 1 and "lives_in, works_at" in notice[0]
    second = zero(
        declaring, "memory", "ingest", str(paths[1]), "--db", "new.db", "--now", "2026-03-01T00:00:00Z"
    )
    assert "pyproject" not in second.stderr
    assert json.loads(zero(declaring, "memory", "single-valued", "--db", "new.db", "--json").stdout) == [
        "lives_in",
        "works_at",
    ]
    log = json.loads(zero(declaring, "memory", "log", "--db", "new.db", "--json").stdout)
    assert [entry["kind"] for entry in log][:2] == ["declare", "declare"]


@pytest.mark.parametrize("where", ["file", ":memory:"])
def test_the_python_api_declares_retracts_and_tells_the_history(tmp_path: Path, where: str) -> None:
    location = str(tmp_path / "api.db") if where == "file" else ":memory:"
    with zerolang.memory.open(location) as memory:
        assert memory.declare_single_valued(["works at"], now="2026-01-01") == ["works_at"]
        assert memory.declare_single_valued(["works_at"], now="2026-01-02") == []
        for number, (employer, year) in enumerate(TIMELINE):
            memory.ingest(
                {
                    "tuples": [{"subject": "Bob", "predicate": "works at", "object": employer}],
                    "context": {"event_time": f"{year}-01-01T00:00:00Z", "source": "hr", "scope": "people"},
                },
                now=f"2026-0{number + 2}-01T00:00:00Z",
            )
        assert memory.single_valued() == frozenset({"works_at"})
        rows = memory.query("match (bob works_at ?x) as of 2020-06-01").rows
        assert [row["bindings"]["x"] for row in rows] == ["acme"]  # type: ignore[index]
        retired = memory.retract("bob|works_at|acme", now="2026-07-01T00:00:00Z")
        assert retired.retired_by == "retracted" and retired.valid_to == "2026-07-01T00:00:00.000Z"
        (acme,) = (entry for entry in memory.history("bob") if entry.text == "bob|works_at|acme")
        assert [(p.valid_from[:4], (p.valid_to or "")[:4]) for p in acme.current] == [
            ("2019", "2021"),
            ("2025", "2026"),
        ]
        assert memory.declare_single_valued(["works at"], remove=True, now="2026-08-01") == ["works_at"]
        assert memory.single_valued() == frozenset()
