"""`zerolang.memory.settings.resolve_stores`: one resolution of every store's location."""

from __future__ import annotations

from pathlib import Path

import pytest

import zerolang.memory
from zerolang.archive.archiving import archive_and_index
from zerolang.archive.document import make_document
from zerolang.archive.store import Archive
from zerolang.experience.ranking import full_text
from zerolang.memory.settings import (
    beside,
    default_experiences,
    default_memory,
    experiences_of,
    resolve_stores,
)
from zerolang.storage import open_index
from zerolang.util.errors import ZeroError
from zerolang.util.locations import parse_location

URL = "postgresql://user@db.example/agent"


def test_given_beats_the_environment_which_beats_the_default(tmp_path: Path) -> None:
    environ = {"ZERO_MEMORY_DB": "env.db", "ZERO_MEMORY_SPACE": "envspace", "ZERO_ARCHIVE": "envarchive"}
    given = resolve_stores(
        tmp_path / "m.db", space="s", archive=tmp_path / "a", environ=environ, cwd=tmp_path
    )
    assert (str(given.memory), given.space, given.archive) == (str(tmp_path / "m.db"), "s", tmp_path / "a")
    from_env = resolve_stores(environ=environ, cwd=tmp_path)
    assert (str(from_env.memory), from_env.space, from_env.archive) == (
        "env.db",
        "envspace",
        Path("envarchive"),
    )
    empty = resolve_stores("", space="", environ={"ZERO_MEMORY_DB": ""}, cwd=tmp_path)  # empty: not given
    assert (empty.memory.path, empty.space, empty.memory_named) == (default_memory(), "default", False)


def test_experiences_live_beside_the_memory(tmp_path: Path) -> None:
    assert beside(parse_location(tmp_path / "agent.db")).path == tmp_path / "agent.experiences.db"
    assert beside(parse_location(default_memory())).path == default_experiences()
    assert beside(parse_location(":memory:")).in_memory
    assert str(beside(parse_location(URL))) == URL  # the same database: exp_* tables beside the memory
    named = resolve_stores(tmp_path / "agent.db", environ={"ZERO_EXPERIENCE_DB": "e.db"}, cwd=tmp_path)
    assert str(named.experiences) == "e.db"


def test_the_index_is_in_the_memory_store_unless_configured(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.zero.memory.index.sql]\nenabled = true\ndsn = "index-home.db"\n', encoding="utf-8"
    )
    named = resolve_stores(tmp_path / "m.db", environ={}, cwd=tmp_path)
    assert named.index == named.memory and named.index_in_memory_store
    configured = resolve_stores(environ={}, cwd=tmp_path)
    assert configured.index.path == tmp_path / "index-home.db"


def test_a_bad_space_is_refused() -> None:
    with pytest.raises(ZeroError):
        resolve_stores(space="no spaces allowed here!", environ={})


def test_an_older_archive_index_file_is_absorbed(tmp_path: Path) -> None:
    """The Python API and `zero mcp` once kept the index in ROOT/index.db: its rows move to the memory
    store the first time the index is opened, and the file goes."""
    root = tmp_path / "archive"
    document = make_document(
        [{"role": "user", "content": "an old note"}], channel="dm:alice", consent_scope="personal"
    )
    archive = Archive(root, create=True)
    legacy = open_index(f"sqlite:///{root / 'index.db'}")
    archive_and_index(archive, legacy, document, summary="an old note")
    legacy.close()
    with zerolang.memory.open(tmp_path / "m.db", space="alice", archive=root) as memory:
        found = memory.index.get(document.hash)
        assert found is not None and found.summary == "an old note"
    assert not (root / "index.db").exists()
    with zerolang.memory.open(tmp_path / "m.db", space="alice", archive=root) as memory:
        assert memory.index.count() == 1
    assert "an old note" in zero_search(tmp_path, root)


def zero_search(tmp_path: Path, root: Path) -> str:
    """`zero archive search` reads the same index (the memory store, its space)."""
    from typer.testing import CliRunner

    from zerolang.cli.typer_app import app

    policy = tmp_path / "policy.toml"
    policy.write_text(
        'version = 1\n[scopes.personal]\nuses = ["summary"]\nchannels = ["dm:*"]\n'
        '[channels."dm:alice"]\nreads = ["dm:alice"]\nclearance = 10\n',
        encoding="utf-8",
    )
    arguments = ["archive", "search", "old", "--as", "dm:alice", "--policy", str(policy)]
    arguments += ["--root", str(root), "--db", str(tmp_path / "m.db"), "--space", "alice"]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0, result.output
    return result.output


def test_one_location_holds_a_memory_and_its_conversations(tmp_path: Path) -> None:
    from zerolang.experience.capture import capture_files
    from zerolang.storage import open_experiences

    memory = tmp_path / "agent.db"
    stores = resolve_stores(memory, environ={}, cwd=tmp_path)
    assert stores.experiences.path == memory  # the memory's own file
    assert experiences_of(parse_location(URL)) == parse_location(URL)
    assert experiences_of(parse_location(":memory:")).in_memory
    # an older release's file beside it is used while it holds turns, not when it is empty
    older = tmp_path / "agent.experiences.db"
    open_experiences(older).close()
    assert resolve_stores(memory, environ={}, cwd=tmp_path).experiences.path == memory
    with open_experiences(older) as store:
        capture_files(
            store, [Path(__file__).resolve().parents[1] / "fixtures" / "transcripts" / "pi_v1.jsonl"]
        )
    assert resolve_stores(memory, environ={}, cwd=tmp_path).experiences.path == older
    named = resolve_stores(memory, environ={"ZERO_EXPERIENCE_DB": str(tmp_path / "e.db")}, cwd=tmp_path)
    assert named.experiences.path == tmp_path / "e.db"  # the override still wins


def test_the_space_is_given_else_the_environment_else_the_project(tmp_path: Path) -> None:
    from zerolang.util.config import configured_space, load_memory_settings

    assert configured_space(environ={}, cwd=tmp_path) == "default"  # one memory per user
    (tmp_path / "pyproject.toml").write_text('[tool.zero.memory]\nspace = "proj-a"\n', encoding="utf-8")
    load_memory_settings.cache_clear()
    assert configured_space(environ={}, cwd=tmp_path) == "proj-a"  # one per project, when configured
    assert configured_space(environ={"ZERO_MEMORY_SPACE": "env"}, cwd=tmp_path) == "env"
    assert configured_space("given", environ={"ZERO_MEMORY_SPACE": "env"}, cwd=tmp_path) == "given"
    assert resolve_stores(tmp_path / "m.db", environ={}, cwd=tmp_path).space == "proj-a"
    (tmp_path / "pyproject.toml").write_text('[tool.zero.memory]\nspace = "no spaces!"\n', encoding="utf-8")
    load_memory_settings.cache_clear()
    with pytest.raises(ZeroError, match=r"memory\.space"):
        configured_space(environ={}, cwd=tmp_path)
    load_memory_settings.cache_clear()


def test_an_older_separate_file_moves_into_the_memory(tmp_path: Path) -> None:
    from zerolang.experience.capture import capture_files
    from zerolang.memory.opening import move_conversations
    from zerolang.storage import open_conversations, open_experiences

    memory, older = tmp_path / "agent.db", tmp_path / "agent.experiences.db"
    with zerolang.memory.open(memory) as opened:
        opened.remember([("agent", "uses", "sqlite")])
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"
    with open_experiences(older, space="alice") as store:
        held = capture_files(store, [fixtures / "pi_v1.jsonl"]).added.as_dict()
        hits = full_text(store, ["compost"], 5).experiences
    with open_conversations(older, space="alice") as entries:
        entries.put("coder:conversation", {"messages": []}, text="flaky login test", expires_at=None)
    stores = resolve_stores(memory, space="alice", environ={}, cwd=tmp_path)
    assert stores.experiences.path == older  # used where it is until it moves
    assert move_conversations(stores) == held["turns"] + 1
    assert not older.exists() and stores.experiences.path == memory
    with open_experiences(memory, space="alice") as store:
        assert store.counts() == held and full_text(store, ["compost"], 5).experiences == hits
        assert store.term_totals().experiences == held["experiences"]  # recall's own terms moved too
    with open_conversations(memory, space="alice") as entries:
        assert [key for key, _ in entries.search("", ["flaky"], 5, now=0)] == ["coder:conversation"]
    with zerolang.memory.open(memory, space="alice") as opened:
        assert opened.get("agent") is None  # facts of the default space, not alice's
        assert opened.recall_turns("compost")
    assert move_conversations(stores) == 0  # nothing left to move


def test_a_memory_file_holding_conversations_checks_clean(tmp_path: Path) -> None:
    """The experience tables share the memory's file: the memory's own check (SQLite's integrity
    check included) passes, whichever was made first."""
    from zerolang.experience.capture import capture_files
    from zerolang.storage import open_conversations, open_experiences, open_store

    memory = tmp_path / "m.db"
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"
    with open_experiences(memory, space="a") as store:  # the conversations first
        capture_files(store, sorted(fixtures.iterdir()))
    open_conversations(memory).close()
    with zerolang.memory.open(memory, space="a") as opened:
        opened.remember([("agent", "uses", "sqlite")])
        assert opened.recall_turns("compost")
    with open_store(memory, space="a", create=False) as store:
        report = store.check()
        assert report.ok, report.problems


def test_a_project_that_names_its_space_captures_and_recalls_there(tmp_path: Path) -> None:
    """The hooks' and commands' space comes from the settings: one per user by default, the
    project's where its pyproject names one; the per-user memory holds both, apart."""
    import os
    import subprocess
    import sys

    from zerolang.storage import open_experiences

    root = Path(__file__).resolve().parents[2]
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.zero.memory]\nspace = "proj"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZERO_")}
    env.update({"PYTHONPATH": str(root), "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")})
    pi = root / "examples" / "transcripts" / "pi-session.jsonl"

    def zero(cwd: Path, *arguments: str) -> str:
        run = subprocess.run(
            [sys.executable, "-m", "zerolang", *arguments], capture_output=True, text=True, env=env, cwd=cwd
        )
        assert run.returncode == 0, run.stderr
        return run.stdout

    assert '"turns": 4' in zero(project, "capture", str(pi), "--json")
    assert "conversations:" in zero(project, "recall", "Melissa")
    assert "conversations:" not in zero(tmp_path, "recall", "Melissa")  # the per-user default space
    memory = tmp_path / "data" / "zerolang" / "memory.db"
    with open_experiences(memory, space="proj", create=False) as store:
        assert store.counts()["turns"] == 4
    with open_experiences(memory, create=False) as store:
        assert store.counts()["turns"] == 0
