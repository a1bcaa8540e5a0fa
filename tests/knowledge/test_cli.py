"""`zero memory ...` end to end through typer's test runner: every command, its output and exit codes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.cli.stores import default_store
from zerolang.knowledge.hashing import concept_hash, fact_hash
from zerolang.storage import open_store

from .conftest import AGENT, EXAMPLE_INPUT, FACT, LTM

runner = CliRunner()


def zero(
    *arguments: str, db: Path | None = None, input: str | None = None, env: dict[str, str] | None = None
) -> Any:
    extra = ["--db", str(db)] if db is not None else []
    return runner.invoke(app, ["memory", *arguments, *extra], input=input, env=env)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    result = zero("ingest", str(EXAMPLE_INPUT), db=path)
    assert result.exit_code == 0, result.output
    return path


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["memory", "--help"])
    assert result.exit_code == 0
    for command in ("ingest", "compile", "get", "stats", "check"):
        assert command in result.stdout
    assert "memory" in runner.invoke(app, ["--help"]).stdout


def test_ingest(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    result = zero("ingest", str(EXAMPLE_INPUT), db=path)
    assert result.exit_code == 0
    assert result.stdout == (
        f"Ingested 3 records (9 tuples) from {EXAMPLE_INPUT} into {path}:\n"
        "  8 new concepts, 8 new facts, 9 new episodes, 0 duplicates\n"
    )
    again = zero("ingest", str(EXAMPLE_INPUT), "--json", db=path)
    assert again.exit_code == 0
    assert json.loads(again.stdout) == {"new_concepts": 0, "new_facts": 0, "new_episodes": 0, "duplicates": 9}


def test_an_interrupted_ingest_says_what_is_committed_and_how_to_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C: exit 130, one line with the records committed so far; the rerun completes the rest."""
    from importlib import import_module

    from zerolang.knowledge.store import Progress

    ingest_module = import_module("zerolang.knowledge.ingest")  # the package's `ingest` is the function

    real = ingest_module.ingest

    def interrupted(store: Any, inputs: Any, **options: Any) -> Any:
        real(store, list(inputs)[:2], **options)  # the first two records committed
        options["progress"](Progress(2, 2, store.counts()))
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest_module, "ingest", interrupted)
    path = tmp_path / "memory.db"
    result = zero("ingest", str(EXAMPLE_INPUT), db=path)
    assert result.exit_code == 130
    assert "interrupted: 2 of 3 records committed; the same command again stores the rest" in result.output
    assert "Traceback" not in result.output
    monkeypatch.undo()
    rerun = zero("ingest", str(EXAMPLE_INPUT), db=path)
    assert rerun.exit_code == 0 and "duplicates" in rerun.output
    assert zero("check", db=path).exit_code == 0


def test_ingest_from_stdin_as_json_lines(tmp_path: Path) -> None:
    lines = "\n".join(json.dumps(item) for item in json.loads(EXAMPLE_INPUT.read_text(encoding="utf-8")))
    result = zero("ingest", "-", "--json", db=tmp_path / "m.db", input=lines)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "new_concepts": 8,
        "new_facts": 8,
        "new_episodes": 9,
        "duplicates": 0,
    }


def test_ingest_errors_exit_1_with_the_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    document = json.loads(EXAMPLE_INPUT.read_text(encoding="utf-8"))[0]
    broken = json.loads(json.dumps(document))
    broken["tuples"][1]["confidence"] = 1.5
    bad.write_text(json.dumps(document) + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    path = tmp_path / "m.db"
    result = zero("ingest", str(bad), db=path)
    assert result.exit_code == 1
    assert f"{bad}:2:1: record 2: tuples[1].confidence: must be between 0 and 1, not 1.5" in result.stderr
    assert not path.exists()  # validated before anything was written
    missing = zero("ingest", str(tmp_path / "nope.json"), db=path)
    assert missing.exit_code == 1 and "no such input file" in missing.stderr
    nodir = zero("ingest", str(EXAMPLE_INPUT), db=tmp_path / "no" / "such" / "m.db")
    assert nodir.exit_code == 1 and "no such directory" in nodir.stderr


def test_ingest_with_an_alias_file(tmp_path: Path) -> None:
    aliases = tmp_path / "aliases.json"
    aliases.write_text('{"agent": "autonomous-agent"}', encoding="utf-8")
    path = tmp_path / "m.db"
    assert zero("ingest", str(EXAMPLE_INPUT), "--aliases", str(aliases), db=path).exit_code == 0
    result = zero("get", "agent", "--json", "--aliases", str(aliases), db=path)
    assert json.loads(result.stdout)["concept"]["label"] == "autonomous-agent"


def test_compile_to_stdout_and_to_a_file_that_zero_run_reproduces(tmp_path: Path) -> None:
    single = tmp_path / "one.json"
    single.write_text(json.dumps(json.loads(EXAMPLE_INPUT.read_text(encoding="utf-8"))[0]), encoding="utf-8")
    result = zero("compile", str(single))
    assert result.exit_code == 0
    assert result.stdout.startswith("# Compiled by zerolang.memory")
    out = tmp_path / "one.0"
    written = zero("compile", str(single), "-o", str(out))
    assert written.exit_code == 0 and f"Wrote {out}" in written.stderr
    assert out.read_text(encoding="utf-8") == result.stdout
    run = runner.invoke(app, ["run", str(out), "--json"])
    assert run.exit_code == 0, run.output
    record = json.loads(run.stdout)["outputs"]["memory_record"]
    assert record["concepts"]["agent"] == AGENT
    assert record["concepts"]["long-term-memory"] == LTM
    assert record["relations"]["agent|needs|long-term-memory"]["fact_hash"] == FACT
    lint = runner.invoke(app, ["lint", str(out)])
    assert lint.exit_code == 0, lint.output


def test_compile_wants_exactly_one_input() -> None:
    result = zero("compile", str(EXAMPLE_INPUT))
    assert result.exit_code == 1
    assert "holds 3 inputs; `compile` takes one" in result.stderr


def test_get_by_label_alias_hash_and_prefix(db: Path) -> None:
    by_label = zero("get", "LTM", "--json", db=db)
    assert by_label.exit_code == 0, by_label.output
    document = json.loads(by_label.stdout)
    for query in ("long-term-memory", "Long_Term_Memory", LTM, LTM[:10]):
        assert json.loads(zero("get", query, "--json", db=db).stdout) == document, query
    concept = document["concept"]
    assert list(concept) == ["hash", "label", "aliases", "confidence", "created_at", "updated_at"]
    assert (concept["hash"], concept["label"]) == (LTM, "long-term-memory")
    assert concept["aliases"] == ["LTM", "long_term_memory", "Long_Term.Memory", "long term memory"]
    facts = {(f["subject"], f["predicate"], f["object"]): f for f in document["facts"]}
    assert len(facts) == 5
    needs = facts[("agent", "needs", "long-term-memory")]
    assert list(needs) == [
        "fact_hash",
        "subject",
        "predicate",
        "object",
        "confidence",
        "observations",
        "valid_to",
        "retired_at",
        "retired_by",
        "episodes",
    ]
    assert needs["fact_hash"] == FACT == str(fact_hash("agent", "needs", "long-term-memory"))
    assert needs["observations"] == 2
    assert needs["confidence"] == pytest.approx(1 - 0.05 * 0.3)
    episode = needs["episodes"][0]
    assert list(episode) == ["episode_hash", "context_hash", "confidence", "event_time", "source", "scope"]
    assert [e["event_time"] for e in needs["episodes"]] == [
        "2026-02-18T00:00:00Z",
        "2026-02-19T14:30:00+01:00",
    ]


def test_get_human_output(db: Path) -> None:
    result = zero("get", "agent", db=db)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "concept     agent"
    assert lines[1] == f"hash        {AGENT}"
    assert "  agent --needs--> long-term-memory" in lines


def test_get_not_found(db: Path) -> None:
    result = zero("get", "Unknown_Thing", db=db)
    assert result.exit_code == 1
    assert f"no concept `Unknown_Thing` (looked up as `unknown-thing`) in {db}" in result.stderr


def test_reading_commands_never_create_a_database(tmp_path: Path) -> None:
    path = tmp_path / "typo.db"
    for command in (["get", "agent"], ["stats"], ["check"]):
        result = zero(*command, db=path)
        assert result.exit_code == 1
        assert "no memory database here" in result.stderr
    assert not path.exists()


def test_stats(db: Path) -> None:
    result = zero("stats", "--json", db=db)
    assert json.loads(result.stdout) == {"concepts": 8, "facts": 8, "episodes": 9, "contexts": 3}
    human = zero("stats", db=db)
    assert (
        human.stdout
        == f"database  {db}\nspace     default\nconcepts  8\nfacts     8\nepisodes  9\ncontexts  3\n"
    )


def test_check_ok_and_failing(db: Path) -> None:
    ok = zero("check", db=db)
    assert ok.exit_code == 0
    assert ok.stdout == f"ok: {db}: 8 concepts, 8 facts, 9 episodes, 3 contexts verified\n"
    connection = sqlite3.connect(db)
    connection.execute("UPDATE concepts SET label = 'agnet' WHERE label = 'agent'")
    connection.commit()
    connection.close()
    bad = zero("check", db=db)
    assert bad.exit_code == 1
    agent = str(concept_hash("agent"))
    assert f"concept {agent}: hash does not match its label 'agnet'" in bad.stdout
    assert "1 problem in 8 concepts" in bad.stderr
    as_json = zero("check", "--json", db=db)
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["problems"][0]["hash"] == agent


def test_the_database_comes_from_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "env.db"
    env = {"ZERO_MEMORY_DB": str(path)}
    assert zero("ingest", str(EXAMPLE_INPUT), env=env).exit_code == 0
    assert path.exists()
    assert json.loads(zero("stats", "--json", env=env).stdout)["facts"] == 8
    other = tmp_path / "other.db"
    zero("ingest", str(EXAMPLE_INPUT), db=other, env=env)  # --db wins over the environment
    assert other.exists()


def test_the_per_user_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("ZERO_MEMORY_DB", raising=False)
    assert default_store() == tmp_path / "data" / "zerolang" / "memory.db"
    result = zero("ingest", str(EXAMPLE_INPUT), "--json")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "data" / "zerolang" / "memory.db").exists()


def test_the_progress_bar_path(tmp_path: Path) -> None:
    """The terminal-only code path: a transient rich bar on stderr, same totals."""
    from zerolang.cli.memory_cmd import _ingest_with_progress
    from zerolang.memory import AliasTable, load_inputs

    with open_store() as store:
        totals = _ingest_with_progress(store, load_inputs(EXAMPLE_INPUT), AliasTable.default(), 2)
    assert totals.to_json() == {"new_concepts": 8, "new_facts": 8, "new_episodes": 9, "duplicates": 0}
