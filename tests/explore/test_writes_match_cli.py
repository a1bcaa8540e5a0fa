"""`zero explore --write` and `zero memory forget|retract|restore` change a store alike: the same
action at the same time leaves the same rows, event log included, in the memory and its experiences."""

from __future__ import annotations

import re
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from tests.explore.conftest import open_worker
from tests.explore.stores import Demo, make_demo
from zerolang.cli.app import app
from zerolang.explore.app import build_app
from zerolang.util import times

MOMENTS = ("2025-01-02T03:04:05.006Z", "2025-01-03T00:00:00.000Z", "2025-01-04T12:00:00.000Z")


def copy(demo: Demo, folder: Path) -> Demo:
    shutil.copytree(demo.db.parent, folder)
    return Demo(folder / demo.db.name, folder / demo.experiences.name, folder / demo.archive.name)


def rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of a SQLite file, sorted, by table."""
    with sqlite3.connect(path) as db:
        tables = [name for (name,) in db.execute("select name from sqlite_master where type = 'table'")]
        return {table: sorted(db.execute(f'select * from "{table}"'), key=repr) for table in tables}


def zero(*arguments: str) -> str:
    result = CliRunner().invoke(app, list(arguments))
    assert result.exit_code == 0, result.output
    return result.output


def test_explore_writes_what_the_cli_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "original").mkdir()
    original = make_demo(tmp_path / "original", hostile=False)
    by_cli, by_explore = copy(original, tmp_path / "cli"), copy(original, tmp_path / "explore")

    with open_worker(by_explore, write=True) as worker:
        client = TestClient(build_app(worker, ["testserver"]))
        page = client.get("/concept", params={"c": "alice"}).text
        token = re.search(r"name=token value='([^']+)'", page)
        fact = re.search(r"name='fact' value='([0-9a-f]{64})'", page)
        assert token is not None and fact is not None

        def post(path: str, at: str, **fields: str) -> None:
            moment = datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(UTC)
            monkeypatch.setattr(times, "system_clock", lambda: moment)
            done = client.post(path, data={**fields, "token": token.group(1)}, follow_redirects=False)
            assert done.status_code == 303, done.text

        post("/forget", MOMENTS[0], label="bob")
        stones = client.get("/tombstones").text
        tombstone = re.search(r"name='tombstone' value='([0-9a-f]{64})'", stones)
        assert tombstone is not None
        post("/retract", MOMENTS[1], fact=fact.group(1))
        post("/restore", MOMENTS[2], tombstone=tombstone.group(1))
    monkeypatch.undo()

    common = ("--db", str(by_cli.db), "--experiences", str(by_cli.experiences))
    assert f"tombstone {tombstone.group(1)}" in zero("memory", "forget", "bob", *common, "--now", MOMENTS[0])
    zero("memory", "retract", fact.group(1), "--db", str(by_cli.db), "--now", MOMENTS[1])
    zero("memory", "restore", tombstone.group(1), *common, "--now", MOMENTS[2])

    for made in (lambda demo: demo.db, lambda demo: demo.experiences):
        expected, found = rows(made(by_cli)), rows(made(by_explore))
        assert found == expected
    log = rows(by_cli.db)["space_log"]
    assert [entry for entry in log if any(moment in map(str, entry) for moment in MOMENTS)]
    assert rows(by_cli.db) != rows(original.db)  # the actions changed the store
