"""`zero query`, `zero memory consolidate` and `zero memory sweep` end to end through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.knowledge.query.conftest import EXAMPLE
from zerolang.cli.app import app

runner = CliRunner()


def ingested(tmp_path: Path) -> str:
    db = str(tmp_path / "memory.db")
    result = runner.invoke(app, ["memory", "ingest", str(EXAMPLE), "--db", db])
    assert result.exit_code == 0, result.output
    return db


def test_query_table_json_and_explain(tmp_path: Path) -> None:
    db = ingested(tmp_path)
    table = runner.invoke(app, ["query", 'recall "agent" depth 2 limit 10', "--db", db])
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["#", "concept", "depth", "score", "via"]
    assert lines[1].split()[:3] == ["1", "long-term-memory", "1"]
    document = json.loads(runner.invoke(app, ["query", "match (?x needs ?y)", "--db", db, "--json"]).stdout)
    assert document == [
        {
            "bindings": {"x": "agent", "y": "long-term-memory"},
            "confidence": 0.985,
            "facts": ["agent needs long-term-memory"],
        }
    ]
    explained = runner.invoke(app, ["query", "recall agent rank by activation", "--db", db, "--explain"])
    assert explained.exit_code == 0
    assert "plan:" in explained.stdout and "spreading activation" in explained.stdout
    assert "connectivity  activation" in explained.stdout.splitlines()[-5]


def test_query_as_levels_prints_the_result_facts_as_a_document(tmp_path: Path) -> None:
    from zerolang.knowledge.formats.compact import parse as parse_compact

    db = ingested(tmp_path)
    query = "match (?x needs ?y) as {}"
    l0 = runner.invoke(app, ["query", query.format("L0"), "--db", db])
    assert l0.exit_code == 0, l0.output
    assert l0.stdout.startswith("0M:1.0 L0 concepts=2 relations=2")
    l1 = runner.invoke(app, ["query", query.format("L1"), "--db", db]).stdout
    assert l1.splitlines()[0] == "0M:1.0 L1 concepts=2 facts=1"
    assert l1.splitlines()[1].startswith("# L1: left out: confidences")
    assert "agent" in l1 and "long-term-memory" in l1
    l2 = runner.invoke(app, ["query", query.format("L2"), "--db", db]).stdout
    snapshot = parse_compact(l2)
    assert sorted(c.label for c in snapshot.concepts) == ["agent", "long-term-memory"]
    assert {r.predicate for r in snapshot.relations} == {"needs"} and len(snapshot.relations) == 2
    as_json = json.loads(runner.invoke(app, ["query", query.format("L1"), "--db", db, "--json"]).stdout)
    assert as_json["level"] == "L1" and as_json["document"] == l1
    assert as_json["results"][0]["bindings"] == {"x": "agent", "y": "long-term-memory"}


def test_query_errors_have_a_caret_and_exit_1(tmp_path: Path) -> None:
    db = ingested(tmp_path)
    result = runner.invoke(app, ["query", "recall agent depht 2", "--db", db])
    assert result.exit_code == 1
    assert "<query>:1:14: expected" in result.stderr
    assert "  |              ^^^^^" in result.stderr


def test_query_needs_an_existing_database(tmp_path: Path) -> None:
    result = runner.invoke(app, ["query", "recall agent", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 1
    assert "no memory database here" in result.stderr


def test_consolidate_and_sweep(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    learned = runner.invoke(app, ["memory", "ingest", str(EXAMPLE), "--db", db, "--now", "2026-03-01"])
    assert learned.exit_code == 0, learned.output
    # learned in March 2026: by now every episode has decayed below 0.01
    sweep = runner.invoke(app, ["memory", "sweep", "--db", db, "--json", "--half-life-days", "100000"])
    assert json.loads(sweep.stdout) == {"removed": 0, "episodes": []}
    promoted = runner.invoke(
        app,
        ["memory", "consolidate", "--db", db, "--min-episodes", "2", "--half-life-days", "100000", "--json"],
    )
    assert json.loads(promoted.stdout) == {"promoted": 1, "reinforced": 0, "pruned": 0}
    text = runner.invoke(app, ["memory", "sweep", "--db", db])
    assert text.exit_code == 0
    # of 9: the semantic fact keeps its two; the other facts and every concept stay
    assert text.stdout == "7 decayed episodes pruned (facts and concepts kept)\n"
    stats = json.loads(runner.invoke(app, ["memory", "stats", "--db", db, "--json"]).stdout)
    assert stats == {"concepts": 8, "facts": 8, "episodes": 2, "contexts": 3}
    assert runner.invoke(app, ["memory", "check", "--db", db]).exit_code == 0


def test_now_pins_the_clock(tmp_path: Path) -> None:
    db = ingested(tmp_path)
    args = ["query", "recall agent depth 1", "--db", db, "--json", "--now", "2026-02-26T13:30:00Z"]
    (row,) = json.loads(runner.invoke(app, args).stdout)
    assert row["factors"]["recency"] == 0.5  # newest episode 2026-02-19T14:30+01:00: one half-life
    sweep = runner.invoke(app, ["memory", "sweep", "--db", db, "--now", "2026-02-21", "--json"])
    assert json.loads(sweep.stdout)["removed"] == 0
    bad = runner.invoke(app, ["query", "recall agent", "--db", db, "--now", "yesterday"])
    assert bad.exit_code == 1
    assert "--now: not an ISO 8601 time: 'yesterday'" in bad.stderr
