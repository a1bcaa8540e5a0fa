"""A store's declarations travel with its memory: export/import (.0c, JSON), deltas and signed bundles."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from zerolang.knowledge.formats import checkpoint as checkpoints
from zerolang.knowledge.formats.bundle import make, receive
from zerolang.knowledge.formats.exchange import Format, export, import_text
from zerolang.knowledge.ingest import ingest, parse_inputs
from zerolang.knowledge.query.executor import run_query
from zerolang.memory import MemoryStore
from zerolang.runtime.signing import Ed25519Signer

from .conftest import inputs

ALICE = Ed25519Signer.generate()
JOBS = [
    ("2019-01-01T00:00:00Z", "Acme"),
    ("2021-01-01T00:00:00Z", "Initech"),
    ("2025-01-01T00:00:00Z", "Acme"),
]


def day(number: int) -> str:
    return f"2026-01-{number:02d}T00:00:00.000Z"


def job(index: int) -> str:
    when, employer = JOBS[index]
    return inputs((when, "hr", "cv", [("Bob", "works at", employer, 0.9)]))


def build(store: MemoryStore) -> None:
    """Bob at Acme (2019), Initech (2021), Acme again (2025); `works at` declared single-valued
    after the second ingest, undeclared and declared again after the third."""
    ingest(store, parse_inputs(job(0)), now=day(1))
    ingest(store, parse_inputs(job(1)), now=day(2))
    assert store.declare_single_valued(["works at"], at=day(3)) == ["works_at"]
    ingest(store, parse_inputs(job(2)), now=day(4))
    store.declare_single_valued(["works at"], at=day(5), remove=True)
    store.declare_single_valued(["works at"], at=day(6))


CLAUSES = [
    f"{as_of} {known}".strip()
    for as_of in ("", "as of 2020-06-01", "as of 2022-01-01", "as of 2025-06-01", "as of 2018-01-01")
    for known in ("", *(f"known at 2026-01-{d:02d}T12:00:00Z" for d in range(1, 8)))
]


def answers(store: MemoryStore) -> dict[str, list[str]]:
    found = {}
    for clause in CLAUSES:
        rows = run_query(store, f"match (bob works_at ?x) {clause}", touch=False).rows
        found[clause] = sorted(str(row["bindings"]["x"]) for row in rows)  # type: ignore[index]
    return found


def same_meaning(source: MemoryStore, target: MemoryStore) -> None:
    assert target.single_valued == source.single_valued == frozenset({"works_at"})
    assert target.backend.declarations() == source.backend.declarations()
    assert checkpoints.of_store(target) == checkpoints.of_store(source)
    assert answers(target) == answers(source)
    assert target.check().ok


def test_the_scenario_answers_as_the_issue_says(store: MemoryStore) -> None:
    build(store)
    found = answers(store)
    assert found["as of 2020-06-01"] == ["acme"]
    assert found["as of 2022-01-01"] == ["initech"]
    assert found["as of 2025-06-01"] == ["acme"]
    assert found["known at 2026-01-02T12:00:00Z"] == ["acme", "initech"]  # before the declaration
    assert found["known at 2026-01-03T12:00:00Z"] == ["initech"]


@pytest.mark.parametrize(("form", "name"), [(Format.COMPACT, "m.0c"), (Format.JSON, "m.json")])
def test_export_then_import_gives_the_same_declarations_and_answers(
    open_store: Callable[..., MemoryStore], space: str, form: Format, name: str
) -> None:
    source, target = open_store(), open_store(space + "-copy")
    build(source)
    text = export(source, form)
    import_text(target, text, name)
    same_meaning(source, target)
    import_text(target, text, name)  # again: nothing is declared twice
    same_meaning(source, target)


def test_a_bundle_and_its_deltas_carry_the_declarations(
    open_store: Callable[..., MemoryStore], space: str
) -> None:
    source, target = open_store(), open_store(space + "-r")
    ingest(source, parse_inputs(job(0)), now=day(1))
    ingest(source, parse_inputs(job(1)), now=day(2))
    receive(target, make(source, ALICE), [ALICE.public_key_bytes])
    assert target.single_valued == frozenset()

    # a declaration alone leaves the checkpoint as it was: a delta since it still carries it
    base = checkpoints.of_store(source).hash
    source.declare_single_valued(["works at"], at=day(3))
    delta = make(source, ALICE, since=base)
    assert "!single-valued works_at @2026-01-03T00:00:00.000Z" in json.loads(delta)["content"]
    receive(target, delta, [ALICE.public_key_bytes])
    assert target.single_valued == frozenset({"works_at"})

    # new relations and more declarations since
    base = checkpoints.of_store(source).hash
    ingest(source, parse_inputs(job(2)), now=day(4))
    source.declare_single_valued(["works at"], at=day(5), remove=True)
    source.declare_single_valued(["works at"], at=day(6))
    receive(target, make(source, ALICE, since=base), [ALICE.public_key_bytes])
    same_meaning(source, target)

    # a full bundle into a new store
    fresh = open_store(space + "-full")
    receive(fresh, make(source, ALICE), [ALICE.public_key_bytes])
    same_meaning(source, fresh)


def test_an_import_keeps_the_documents_meaning_whatever_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A document that declares its settings is imported under them, not under the folder's
    pyproject.toml (which a new store would otherwise adopt on its first write)."""
    from typer.testing import CliRunner

    from zerolang.cli.app import app
    from zerolang.util.config import _load

    runner = CliRunner()

    def zero(*args: str) -> str:
        result = runner.invoke(app, list(args) if args[0] == "query" else ["memory", *args])
        assert result.exit_code == 0, result.output
        return result.output

    monkeypatch.chdir(tmp_path)
    (tmp_path / "jobs.json").write_text(
        inputs(*[(when, "hr", "cv", [("Bob", "works at", e, 0.9)]) for when, e in JOBS])
    )
    zero("single-valued", "works at", "--db", str(tmp_path / "a.db"))
    zero("ingest", str(tmp_path / "jobs.json"), "--db", str(tmp_path / "a.db"))
    zero("export", "--db", str(tmp_path / "a.db"), "-o", str(tmp_path / "m.0c"))
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "pyproject.toml").write_text('[tool.zero.memory]\nsingle-valued = ["lives in"]\n')
    monkeypatch.chdir(folder)
    _load.cache_clear()
    try:
        out = zero("import", str(tmp_path / "m.0c"), "--db", "b.db")
        assert "pyproject" not in out
        assert zero("single-valued", "--db", "b.db") == zero("single-valued", "--db", str(tmp_path / "a.db"))
        same = [
            zero("query", "match (bob works_at ?x) as of 2022-01-01", "--db", db)
            for db in ("b.db", str(tmp_path / "a.db"))
        ]
        assert same[0] == same[1] and "initech" in same[0]
    finally:
        _load.cache_clear()


def test_an_older_declaration_received_does_not_override_a_later_one_held(
    open_store: Callable[..., MemoryStore], space: str
) -> None:
    """Replicas that declared in turn agree on what holds now, whoever receives first: the later
    declaration about a predicate decides, and an older one received after it is not recorded."""
    first, second = open_store(), open_store(space + "-2")
    for store in (first, second):
        ingest(store, parse_inputs(job(0)), now=day(1))
    first.declare_single_valued(["works at"], at=day(2))
    first.declare_single_valued(["works at"], at=day(3), remove=True)
    second.declare_single_valued(["works at"], at=day(4))
    from_first, from_second = make(first, ALICE), make(second, ALICE)
    receive(second, from_first, [ALICE.public_key_bytes])
    receive(first, from_second, [ALICE.public_key_bytes])
    for store in (first, second):
        assert store.single_valued == frozenset({"works_at"})
        rows = store.backend.declarations()
        assert [row.at for row in rows] == sorted(row.at for row in rows)
        assert store.check().ok
