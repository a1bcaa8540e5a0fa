"""What a purge erased stays out of the explorer, even in an experience database the purge never
reached; and reading writes nothing there (as `zero recall`, the explorer reads without carrying)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from starlette.testclient import TestClient

import zerolang.memory
from tests.explore.conftest import open_worker
from tests.explore.stores import make_demo
from zerolang.explore.app import build_app
from zerolang.storage import open_experiences

SECRET = "Zanzibar"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def shown(client: TestClient) -> str:
    """Every page that shows experiences: recall, the context, each conversation."""
    pages = [
        client.get("/experiences", params={"q": "holiday lovely"}).text,
        client.get("/context", params={"q": "holiday lovely", "budget": 400}).text,
    ]
    listing = client.get("/experiences").text
    pages += [client.get(path).text for path in re.findall(r'href="(/session\?s=[^"]+)"', listing)]
    return "\n".join(pages)


def test_a_purge_that_never_reached_the_experiences_shows_nothing(tmp_path: Path) -> None:
    demo = make_demo(tmp_path, hostile=False)
    with zerolang.memory.open(demo.db, experiences=demo.experiences, archive=demo.archive) as memory:
        memory.remember([("Alice", "spent a holiday in", SECRET)])
        memory.capture(session="trip", user_said=f"My holiday in {SECRET} was lovely.", agent_said="Noted.")
    with open_worker(demo) as worker:
        before = shown(TestClient(build_app(worker, ["testserver"])))
    assert SECRET in before and "left out" not in before

    # the purge: this memory's experiences are elsewhere, so it never reaches the database above
    with zerolang.memory.open(demo.db, experiences=":memory:", archive=tmp_path / "none") as memory:
        memory.forget("concept", SECRET, purge=True)
    with open_experiences(demo.experiences, create=False) as store:
        assert store.forgotten_terms() == []  # not carried: the text is still in the file
    unread = digest(demo.experiences)

    with open_worker(demo) as worker:
        after = shown(TestClient(build_app(worker, ["testserver"])))
    assert SECRET.lower() not in after.lower()
    assert "1 layer left out: they mention something forgotten" in after
    assert "Noted." in after  # the turn's other layer mentions nothing forgotten
    assert digest(demo.experiences) == unread  # the explorer read; it wrote nothing
