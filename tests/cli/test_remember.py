"""`zero remember SUBJECT PREDICATE OBJECT`: one fact from the shell."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import zerolang.memory
from zerolang.cli.app import app


def zero(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(arguments), env={"ZERO_MEMORY_DB": "", "ZERO_MEMORY_SPACE": ""})
    return result.exit_code, result.output


def test_a_fact_is_stored_from_the_cli_now(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    code, out = zero("remember", "Carol Diaz", "works_at", "Acme Corp", "--db", db)
    assert (code, out) == (0, "remembered Carol Diaz works_at Acme Corp: a new fact\n")
    with zerolang.memory.open(db, experiences=":memory:") as memory:
        view = memory.get("carol diaz")
        assert view is not None
        (fact,) = view.facts
        assert (fact.subject, fact.fact.predicate, fact.object) == (
            "carol diaz",
            "works_at",
            "acme corp",
        )
        episodes = memory.store.backend.provenance_of([fact.fact.fact_hash.digest])
        assert [(e.source, e.scope) for e in episodes] == [("cli", "general")]


def test_options_say_the_rest(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    arguments = ["remember", "bob", "lives_in", "oslo", "--db", db, "--space", "team", "--source", "hr"]
    code, out = zero(*arguments, "--scope", "people", "--confidence", "0.6", "--at", "2021-03-01", "--json")
    assert code == 0 and json.loads(out)["new_facts"] == 1
    with zerolang.memory.open(db, space="team", experiences=":memory:") as memory:
        (fact,) = memory.get("bob").facts  # type: ignore[union-attr]
        (episode,) = memory.store.backend.provenance_of([fact.fact.fact_hash.digest])
        assert (episode.source, episode.scope, episode.confidence) == ("hr", "people", 0.6)
        assert episode.event_time.startswith("2021-03-01")
    with zerolang.memory.open(db, experiences=":memory:") as memory:
        assert memory.get("bob") is None  # another space
    assert zero(*arguments, "--scope", "people", "--confidence", "0.6", "--at", "2021-03-01")[1].endswith(
        "already stated so\n"
    )


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    code, out = zero("remember", "a", "b", "c", "--db", db, "--at", "yesterday-ish")
    assert code == 1 and out.strip().count("\n") == 0 and "--at" in out and "Traceback" not in out
    code, out = zero("remember", "a", "b", "c", "--db", db, "--confidence", "2")
    assert code == 2 and "Traceback" not in out
    code, out = zero("remember", " ", "b", "c", "--db", db)
    assert code == 1 and "Traceback" not in out
