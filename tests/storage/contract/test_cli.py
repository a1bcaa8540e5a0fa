"""The CLI on every backend: `--db` (or `$ZERO_MEMORY_DB`) and `--space` reach every memory command."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tests.storage.contract.helpers import EXAMPLE
from zerolang.cli.app import app

runner = CliRunner()


def test_every_command_takes_the_store_and_the_space(location: str, space: str) -> None:
    env = {"ZERO_MEMORY_DB": location}
    mine, theirs = f"{space}-mine", f"{space}-theirs"
    ingest = runner.invoke(
        app,
        ["memory", "ingest", str(EXAMPLE), "--space", mine, "--json", "--now", "2026-03-01T12:00:00Z"],
        env=env,
    )
    assert ingest.exit_code == 0, ingest.output
    assert json.loads(ingest.stdout)["new_episodes"] == 9
    stats = runner.invoke(app, ["memory", "stats", "--db", location, "--space", theirs, "--json"])
    assert json.loads(stats.stdout) == {"concepts": 0, "facts": 0, "episodes": 0, "contexts": 0}
    got = runner.invoke(app, ["memory", "get", "agent", "--space", mine], env=env)
    assert got.exit_code == 0 and "agent --needs--> long-term-memory" in got.stdout
    missing = runner.invoke(app, ["memory", "get", "agent", "--space", theirs], env=env)
    assert missing.exit_code == 1 and "no concept `agent`" in missing.stderr
    # asked (and so used) when learned: by the real clock, months ago
    query = runner.invoke(
        app,
        ["query", "match (agent ?p ?o)", "--space", mine, "--json", "--now", "2026-03-01T12:00:00Z"],
        env=env,
    )
    assert [row["bindings"]["o"] for row in json.loads(query.stdout)] == ["long-term-memory"]
    assert (
        runner.invoke(app, ["query", "match (agent ?p ?o)", "--space", theirs], env=env).stdout
        == "no results\n"
    )
    check = runner.invoke(app, ["memory", "check", "--space", mine], env=env)
    assert check.exit_code == 0 and "9 episodes" in check.stdout
    point = runner.invoke(app, ["memory", "checkpoint", "--space", mine], env=env)
    assert point.stdout.startswith("051f2997cd13")
    exported = runner.invoke(app, ["memory", "export", "--space", mine, "--format", "json"], env=env)
    assert exported.exit_code == 0
    dry = runner.invoke(
        app, ["memory", "consolidate", "--space", mine, "--min-episodes", "2", "--dry-run", "--json"], env=env
    )
    document = json.loads(dry.stdout)
    assert document["dry_run"] is True and document["pruned"] == 9
    assert document["promoted_facts"] == []  # learned months ago by the real clock: nothing survives decay
    sweep = runner.invoke(app, ["memory", "sweep", "--space", mine, "--dry-run"], env=env)
    assert sweep.stdout.endswith("dry run: 9 decayed episodes would be pruned; nothing changed\n")
    assert (
        json.loads(runner.invoke(app, ["memory", "stats", "--space", mine, "--json"], env=env).stdout)[
            "episodes"
        ]
        == 9
    )
    done = runner.invoke(app, ["memory", "consolidate", "--space", mine, "--min-episodes", "2"], env=env)
    assert (
        done.stdout
        == "0 facts promoted to semantic memory, 0 reinforced, 9 decayed episodes pruned (facts and concepts kept)\n"
    )
    after = json.loads(runner.invoke(app, ["memory", "stats", "--space", mine, "--json"], env=env).stdout)
    assert after == {"concepts": 8, "facts": 8, "episodes": 0, "contexts": 3}
    imported = runner.invoke(
        app, ["memory", "import", "-", "--space", theirs], env=env, input=exported.stdout
    )
    assert imported.exit_code == 0, imported.output
    assert "checkpoint 051f2997cd13" in imported.stdout


def test_a_bad_space_name_is_one_line(location: str) -> None:
    result = runner.invoke(app, ["memory", "stats", "--db", location, "--space", "no spaces please"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: not a space name: 'no spaces please'")
    assert "Traceback" not in result.output
