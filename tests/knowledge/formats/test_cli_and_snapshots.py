"""`zero memory export/import/checkpoint` end to end, and the example memory in every format (syrupy)."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from typer.testing import CliRunner

from tests.knowledge.formats.conftest import example_records
from zerolang.cli.app import app
from zerolang.knowledge.formats import jsonform
from zerolang.knowledge.formats.exchange import Format, export, verbose
from zerolang.knowledge.formats.levels import Level, render
from zerolang.knowledge.formats.model import Snapshot, read_store
from zerolang.storage import open_store

runner = CliRunner()


def _example_store(path: Path) -> Path:
    with open_store(path) as store:
        store.insert_records(example_records())
    return path


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("level", list(Level))
def test_the_example_at_every_level(level: Level, snapshot: SnapshotAssertion) -> None:
    with open_store() as store:
        store.insert_records(example_records())
        assert render(read_store(store), level) == snapshot


def test_the_example_record_in_every_format(snapshot: SnapshotAssertion) -> None:
    record = example_records()[0]
    one = Snapshot.of_record(record)
    assert {
        "0c": render(record, Level.L2),
        "L0": render(record, Level.L0),
        "L1": render(record, Level.L1),
        "json": jsonform.dumps(one),
        "0": verbose(one),
    } == snapshot


def test_export_import_round_trip_through_files(tmp_path: Path) -> None:
    db = _example_store(tmp_path / "a.db")
    for form in ("0c", "json"):
        out = tmp_path / f"out.{form}"
        _run("memory", "export", "--db", str(db), "--format", form, "-o", str(out))
        copy = tmp_path / f"copy-{form}.db"
        said = _run("memory", "import", str(out), "--db", str(copy))
        assert "9 relations" in said
        with open_store(db) as a, open_store(copy) as b:
            assert read_store(a) == read_store(b)
    assert _run("memory", "checkpoint", "--db", str(db)) == _run("memory", "checkpoint", "--db", str(copy))


def test_a_delta_since_a_checkpoint_brings_a_copy_up_to_date(tmp_path: Path) -> None:
    records = example_records()
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    with open_store(old) as store:
        store.insert_records(records[:1])
    with open_store(new) as store:
        store.insert_records(records)
    base = _run("memory", "checkpoint", "--db", str(old)).split()[0]
    patch = tmp_path / "delta.0c"
    _run("memory", "export", "--db", str(new), "--since", base, "-o", str(patch))
    assert patch.read_text().startswith(f"0M:1.1 delta base={base}")
    assert "delta on" in _run("memory", "import", str(patch), "--db", str(old))
    assert _run("memory", "checkpoint", "--db", str(old)) == _run("memory", "checkpoint", "--db", str(new))
    refused = runner.invoke(app, ["memory", "import", str(patch), "--db", str(old)])
    assert refused.exit_code == 1
    assert "applies on checkpoint" in refused.output


def test_levels_print_and_bad_options_are_refused(tmp_path: Path) -> None:
    db = _example_store(tmp_path / "a.db")
    assert _run("memory", "export", "--db", str(db), "--level", "L1").startswith("0M:1.0 L1")
    for args in (["--level", "L5"], ["--format", "xml"], ["--format", "json", "--level", "L0"]):
        result = runner.invoke(app, ["memory", "export", "--db", str(db), *args])
        assert result.exit_code == 1, result.output
    lossy = tmp_path / "l0.0c"
    _run("memory", "export", "--db", str(db), "--level", "L0", "-o", str(lossy))
    result = runner.invoke(app, ["memory", "import", str(lossy), "--db", str(tmp_path / "b.db")])
    assert result.exit_code == 1
    assert "leaves information out" in result.output


def test_a_bad_0c_file_is_reported_with_its_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.0c"
    bad.write_text("0M:1.0\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 uses9\n")
    result = runner.invoke(app, ["memory", "import", str(bad), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 1
    assert "bad.0c:5:3: there is no concept 9" in result.output
    with open_store(tmp_path / "x.db") as store:
        assert store.counts().episodes == 0


def test_export_of_the_verbose_graphs_is_one_valid_graph(tmp_path: Path) -> None:
    """`--format 0` writes one graph that its own `zero check` accepts and `zero run` runs."""
    from zerolang.runtime.interpreter import run
    from zerolang.runtime.validator import validate
    from zerolang.syntax.parser import parse

    db = _example_store(tmp_path / "a.db")
    with open_store(db) as store:
        text = export(store, Format.ZERO)
    assert text.count("Graph {") == 1
    graph = parse(text, "memory.0")
    assert validate(graph, "memory.0") == []
    outputs = run(graph).outputs
    assert list(outputs) == ["r1_memory_record", "r2_memory_record", "r3_memory_record"]
    out = tmp_path / "memory.0"
    _run("memory", "export", "--db", str(db), "--format", "0", "-o", str(out))
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0 and checked.stdout.endswith(": ok (120 nodes)\n")
