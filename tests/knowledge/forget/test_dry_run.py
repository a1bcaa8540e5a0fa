"""`--dry-run` on forget, purge and restore (issue 40, point 2): the plan the act applies, reported;
the store's bytes are the same before and after. The Python API and the adapters' MCP `forget`
preview the same way (`Memory.forget(dry_run=True)`, which the MCP `forget` tool calls)."""

from __future__ import annotations

import json
from pathlib import Path

from syrupy.assertion import SnapshotAssertion
from typer.testing import CliRunner

from zerolang import storage
from zerolang.cli.app import app
from zerolang.memory.api import Memory

RECORD = {
    "tuples": [
        {"subject": "Zelda Quux", "predicate": "knows", "object": "Mo", "confidence": 0.9},
        {"subject": "Mo", "predicate": "likes", "object": "chess", "confidence": 0.8},
    ],
    "context": {"event_time": "2026-02-08T02:30:00Z", "source": "chat", "scope": "talk with Zelda Quux"},
}


def _bytes(path: Path) -> bytes:
    """The store's file and WAL, once a plain read has opened and closed it (which checkpoints what
    the last write left in the WAL: a change of form, not of content)."""
    result = CliRunner().invoke(app, ["memory", "tombstones", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return b"".join(
        p.read_bytes() for p in sorted(path.parent.glob(path.name + "*")) if not p.name.endswith("-shm")
    )


def test_dry_runs_report_the_plan_and_change_nothing(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    runner = CliRunner()
    db = tmp_path / "m.db"
    source = tmp_path / "in.json"
    source.write_text(json.dumps(RECORD))

    def zero(*args: str) -> str:
        result = runner.invoke(app, ["memory", *args, "--db", str(db)])
        assert result.exit_code == 0, result.output
        return result.output

    zero("ingest", str(source), "--now", "2026-02-10T00:00:00Z")
    before = _bytes(db)
    outputs = [
        zero("forget", "Zelda Quux", "--dry-run", "--now", "2026-03-01T00:00:00Z"),
        zero("forget", "Zelda Quux", "--purge", "--dry-run", "--json", "--now", "2026-03-01T00:00:00Z"),
    ]
    assert _bytes(db) == before
    assert zero("forget", "Zelda Quux", "--dry-run", "--now", "2026-03-01T00:00:00Z") == outputs[0]
    done = json.loads(zero("forget", "Zelda Quux", "--json", "--now", "2026-03-01T00:00:00Z"))
    preview = json.loads(outputs[1])
    assert (done["removed"], done["redacted"]) == (preview["removed"], preview["redacted"])
    kept = zero("get", "Mo")  # the case: `mo likes chess` stays, its record redacted
    assert "mo --likes--> chess" in kept and "talk with […]" in kept and "Zelda" not in kept
    before = _bytes(db)
    outputs += [
        zero("restore", "Zelda Quux", "--dry-run"),
        zero("restore", "Zelda Quux", "--dry-run", "--json"),
        zero("purge", "Zelda Quux", "--dry-run"),
        zero("purge", "Zelda Quux", "--dry-run", "--json"),
    ]
    assert _bytes(db) == before
    assert json.loads(outputs[3])["restored_episodes"] == 1
    assert outputs == snapshot


def test_the_python_api_previews(tmp_path: Path) -> None:
    from zerolang.knowledge.ingest import ingest, parse_inputs

    store = storage.open_store(str(tmp_path / "m.db"))
    ingest(store, parse_inputs(json.dumps(RECORD)), now="2026-02-10T00:00:00.000Z")
    memory = Memory(store)
    counts = store.counts()
    report = memory.forget("concept", "Zelda Quux", purge=True, dry_run=True)
    assert store.counts() == counts and report.dry_run
    assert (report.redacted, report.labels, report.removed.facts) == (1, ("zelda quux",), 1)
    assert memory.forget("concept", "Zelda Quux", purge=True).removed == report.removed
    store.close()


def test_a_preview_counts_what_the_other_stores_hold(tmp_path: Path) -> None:
    """Beside the facts' plan, a preview counts what the forget would hide (or a purge erase) in the
    memory's conversations: a label only a captured turn holds is previewed too, and nothing changes."""
    import zerolang.memory

    db = tmp_path / "m.db"
    with zerolang.memory.open(db) as memory:
        memory.remember([("mo", "likes", "chess")])
        memory.capture(session="s", user_said="Zorblax Quux called about the vault", agent_said="Noted.")
    runner = CliRunner()
    before = _bytes(db)
    result = runner.invoke(
        app, ["memory", "forget", "Zorblax Quux", "--purge", "--dry-run", "--json", "--db", str(db)]
    )
    assert result.exit_code == 0, result.output
    preview = json.loads(result.output)
    assert preview["dry_run"] is True and preview["removed"]["facts"] == 0
    assert preview["elsewhere"]["experiences"] > 0
    text = runner.invoke(app, ["memory", "forget", "Zorblax Quux", "--dry-run", "--db", str(db)])
    assert text.exit_code == 0, text.output
    assert "mentioned beside the facts (hidden):" in text.output and "experiences" in text.output
    assert _bytes(db) == before
    with zerolang.memory.open(db) as memory:
        assert "Zorblax" in memory.recall("who called about the vault?").text
