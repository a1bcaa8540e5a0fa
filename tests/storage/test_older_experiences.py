"""An experience database an older release wrote opens and reads back as it did, and keeps working.

The fixtures in tests/fixtures/stores were written by the release their name gives
(`make_experiences.py` says how): a SQLite file holding experiences and conversation
entries, and a `pg_dump` of a PostgreSQL database holding the same; one of experience schema 1
(no spaces) and one of schema 2 (hashes in every edge, before turns and concepts were numbered). Reading one with
today's zerolang must give what that release read (`expected-experiences-*.json`); a
capture, a purge and a conversation write must then work on it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backends import restored
from tests.fixtures.stores.make_experiences import ENTRIES, NOW, read
from zerolang.experience.capture import capture_files
from zerolang.experience.forgotten import apply_forget
from zerolang.experience.ranking import full_text
from zerolang.storage import open_conversations, open_experiences

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "stores"
RELEASES = {"experiences-2026-11-28": "experiences", "experiences-2026-12-07": "experiences-2026-12-07"}
"""Each release's database, by the name of what reading it gave (`expected-NAME-ENGINE.json`)."""


def expected(name: str, engine: str) -> dict[str, object]:
    return dict(json.loads((FIXTURES / f"expected-{name}-{engine}.json").read_text(encoding="utf-8")))


@pytest.fixture(params=[(engine, release) for release in RELEASES for engine in ("sqlite", "postgres")])
def older(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    """(engine, location, expected name) of a copy of a release's database."""
    engine, release = request.param
    if engine == "sqlite":
        copy = tmp_path / "experiences.db"
        shutil.copyfile(FIXTURES / f"{release}.db", copy)
        yield "sqlite", str(copy), RELEASES[release]
        return
    with restored(FIXTURES / f"{release}.pg.sql") as url:
        yield "postgres", url, RELEASES[release]


RANKED = ("search", "search_turns")
OF_THE_BEST_TURN = ("layers", "neighbours", "mentions")


def _experiences(result: dict[str, object]) -> dict[str, object]:
    experiences = result["experiences"]
    assert isinstance(experiences, dict)
    return experiences


def _found(result: dict[str, object]) -> list[list[str]]:
    """Each query's hits (`read`'s searches), as sorted ids."""
    experiences = _experiences(result)
    return [sorted(ident for ident, _ in hits) for key in RANKED for hits in experiences[key]]  # type: ignore[attr-defined]


def test_an_older_experience_database_reads_as_it_did(older: tuple[str, str, str]) -> None:
    """As the release read it, but for the full text's ranking, which is recall's own now
    (`zerolang.experience.ranking`, its terms indexed on opening): on both engines it finds what the
    release found on SQLite (PostgreSQL's `english` stemmer found fewer), ranked alike, so the best
    turn for "compost" is the one the release's SQLite ranked first."""
    engine, location, name = older
    got, want, sqlite = read(location), expected(name, engine), expected(name, "sqlite")
    assert _found(got) == _found(sqlite)
    mine, theirs = _experiences(got), _experiences(want)
    for key in RANKED:
        del mine[key], theirs[key]
    for key in OF_THE_BEST_TURN:
        theirs[key] = _experiences(sqlite)[key]
    assert got == want


def test_an_older_experience_database_keeps_working(older: tuple[str, str, str]) -> None:
    _, location, _ = older
    with open_experiences(location, create=False) as store:
        before = store.counts()
        assert capture_files(store, sorted((FIXTURES.parent / "transcripts").iterdir())).added.turns == 0
        assert full_text(store, ["compost"], 5).experiences
        assert apply_forget(store, "t-compost", ["compost"], purge=True) >= 1
        assert (
            full_text(store, ["compost"], 5).experiences == []
            and full_text(store, ["compost"], 5).turns == []
        )
        assert store.counts()["experiences"] < before["experiences"]
        assert full_text(store, ["tomatoes"], 5).experiences
    with open_conversations(location, create=False) as entries:
        key, value, text, _ = ENTRIES[1]
        entries.put(key, {**value, "note": "again"}, text=text + " vacuum", expires_at=None)
        assert entries.get(key, now=NOW) == {**value, "note": "again"}
        assert [hit for hit, _ in entries.search("coder:", ["vacuum"], 5, now=NOW)] == [key]
        assert entries.cleanup("", now=NOW + 120) == 2  # one expired before NOW, one a minute after
        assert entries.delete("writer:") == 1
        assert entries.keys("", now=NOW) == ["coder:conversation", "coder:turn:1"]
