"""Issue 40, point 3: a label that only the conversations, the experiences or the archive hold (no
concept in the facts) is forgotten and purged by its label, on both engines, without extra flags.

`zero memory forget LABEL --purge` searches every store of the memory the one setting names (its
facts' contexts, its own conversations and experiences, the archive and its summaries), erases
what mentions the label in each and says, by store, what it took; no byte of it stays and
`zero memory check` passes. A plain forget hides it from the conversations and `restore` shows it
again. Only when no store mentions the label is it refused, the error naming the stores searched
and writing nothing.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.backends import scratch
from zerolang.cli.app import app

SECRET = "Zelda Quux"
NEEDLES = (b"zelda", b"quux")
ENGINES = ["sqlite", "postgres"]


@contextmanager
def memory(engine: str, folder: Path) -> Iterator[str]:
    if engine == "postgres":
        with scratch() as url:
            yield url
    else:
        yield str(folder / "data" / "memory.db")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The one setting: the memory (`--db`), with the archive where `$ZERO_ARCHIVE` says."""
    (tmp_path / "data").mkdir()
    return {
        "ZERO_MEMORY_SPACE": "",
        "ZERO_EXPERIENCE_DB": "",
        "ZERO_ARCHIVE": str(tmp_path / "data" / "archive"),
        "XDG_DATA_HOME": str(tmp_path / "xdg"),
    }


def zero(env: dict[str, str], *arguments: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, list(arguments), env=env)
    assert result.exit_code == code, result.output
    return result.output


def dumped(db: str) -> bytes:
    """Every live byte of a PostgreSQL database, as `pg_dump` writes it."""
    bindir = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True).stdout.strip()
    dump = Path(bindir) / "pg_dump"
    return subprocess.run(
        [str(dump) if dump.is_file() else "pg_dump", db], capture_output=True, check=True
    ).stdout


def leaks(folder: Path, db: str) -> dict[str, list[bytes]]:
    """The files under `folder` (and, on PostgreSQL, the dump of `db`) that hold the secret's bytes."""
    found: dict[str, list[bytes]] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and (hits := [n for n in NEEDLES if n in path.read_bytes().lower()]):
            found[str(path.relative_to(folder))] = hits
    if db.startswith("postgresql") and (hits := [n for n in NEEDLES if n in dumped(db).lower()]):
        found["pg_dump"] = hits
    return found


def write(path: Path, value: object) -> str:
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


def conversation(tmp_path: Path, env: dict[str, str], db: str) -> None:
    """A `zero convo` entry and a captured turn that name the secret, beside ones that do not."""
    said = [
        {"role": "user", "content": f"{SECRET} told me the vault code"},
        {"role": "assistant", "content": "Noted."},
    ]
    zero(env, "convo", "store", "coder", write(tmp_path / "chat.json", said), "--db", db)
    lines = [
        {"role": "user", "content": f"Where does {SECRET} live?"},
        {"role": "assistant", "content": "Far."},
    ]
    other = [{"role": "user", "content": "What does Mo play?"}, {"role": "assistant", "content": "Chess."}]
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    zero(env, "capture", str(transcript), "--format", "openai", "--db", db)
    (tmp_path / "o.jsonl").write_text("\n".join(json.dumps(line) for line in other), encoding="utf-8")
    zero(env, "capture", str(tmp_path / "o.jsonl"), "--format", "openai", "--db", db)


def archived(tmp_path: Path, env: dict[str, str], db: str) -> tuple[str, str]:
    """An archived document that names the secret and one that does not: their hashes."""
    doc = {
        "created_at": "2026-11-20T09:30:00Z",
        "source": {"channel": "dm:alice", "session": "s-1"},
        "messages": [{"role": "user", "content": f"Remember that {SECRET} is allergic to nuts."}],
        "consent_scope": "personal",
    }
    other = {**doc, "messages": [{"role": "user", "content": "Mo plays chess on Sundays."}]}
    put = zero(env, "archive", "put", write(tmp_path / "docs.json", [doc, other]), "--db", db)
    return put.split()[1], put.split()[4]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_label_only_conversations_and_the_archive_hold_is_purged_by_label(
    engine: str, tmp_path: Path, env: dict[str, str]
) -> None:
    with memory(engine, tmp_path) as db:
        zero(env, "remember", "Mo", "likes", "chess", "--db", db)
        conversation(tmp_path, env, db)
        secret, other = archived(tmp_path, env, db)
        assert leaks(tmp_path / "data", db)  # it was there
        assert "no concept" in zero(env, "memory", "get", SECRET, "--db", db, code=1)

        out = json.loads(zero(env, "memory", "forget", SECRET, "--purge", "--db", db, "--json"))
        assert out["purged"] and out["target"] == "zelda quux"
        erased = out["erased"]  # by store: what each took
        # the conversation and its turn's entry; the captured turn's experiences
        assert erased["conversations"] == 2 and erased["experiences"] >= 1, erased
        assert erased["archived documents"] == 1 and erased["archive summaries"] == 1, erased

        assert leaks(tmp_path / "data", db) == {}
        assert zero(env, "memory", "check", "--db", db).startswith("ok")
        assert "erased" in zero(env, "archive", "get", secret, code=1)
        assert "Mo plays chess" in zero(env, "archive", "get", other)
        assert "mo likes chess" in zero(env, "recall", "What does Mo like?", "--db", db)
        assert json.loads(zero(env, "convo", "restore", "coder", "--db", db)) == [
            {"role": "assistant", "content": "Noted."}
        ]
        again = zero(env, "memory", "forget", SECRET, "--purge", "--db", db, code=1)
        assert "forgotten already, tombstone " + out["tombstone"] in again.replace("\n", "")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_label_only_the_archive_holds_is_purged_by_label(
    engine: str, tmp_path: Path, env: dict[str, str]
) -> None:
    with memory(engine, tmp_path) as db:
        zero(env, "remember", "Mo", "likes", "chess", "--db", db)
        archived(tmp_path, env, db)
        out = zero(env, "memory", "forget", SECRET, "--purge", "--db", db)
        assert "erased: 1 archive summary, 1 archived document" in out, out
        assert leaks(tmp_path / "data", db) == {}
        assert zero(env, "memory", "check", "--db", db).startswith("ok")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_label_no_store_holds_is_refused_naming_the_stores_searched(
    engine: str, tmp_path: Path, env: dict[str, str]
) -> None:
    with memory(engine, tmp_path) as db:
        zero(env, "remember", "Mo", "likes", "chess", "--db", db)
        conversation(tmp_path, env, db)
        archived(tmp_path, env, db)
        purged = zero(env, "memory", "forget", "Nobody Known", "--purge", "--db", db, code=1)
        assert purged.startswith("error: no concept `Nobody Known`") and len(purged.splitlines()) == 1
        for store in ("facts", "experiences", "conversations", "archived documents", "archive summaries"):
            assert store in purged, purged
        forgot = zero(env, "memory", "forget", "Nobody Known", "--db", db, code=1)
        assert "experiences, conversations mentions it" in forgot, forgot
        assert zero(env, "memory", "tombstones", "--db", db).strip() == "no tombstones"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_plain_forget_of_a_label_only_conversations_hold_hides_it_until_restored_or_purged(
    engine: str, tmp_path: Path, env: dict[str, str]
) -> None:
    with memory(engine, tmp_path) as db:
        zero(env, "remember", "Mo", "likes", "chess", "--db", db)
        conversation(tmp_path, env, db)
        whole = json.loads(zero(env, "convo", "restore", "coder", "--db", db))
        out = zero(env, "memory", "forget", SECRET, "--db", db)
        assert out.startswith("forgot concept zelda quux: 0 facts, 0 episodes, 0 concepts, 0 contexts")
        hidden = json.loads(zero(env, "convo", "restore", "coder", "--db", db))
        assert hidden == [{"role": "assistant", "content": "Noted."}]
        assert SECRET not in zero(env, "recall", "Where does she live?", "--db", db)
        zero(env, "memory", "restore", SECRET, "--db", db)
        assert json.loads(zero(env, "convo", "restore", "coder", "--db", db)) == whole
        # forgotten again, then purged later by its label: the conversations go for good
        zero(env, "memory", "forget", SECRET, "--db", db)
        assert "experience records, 2 conversation entries" in zero(
            env, "memory", "purge", SECRET, "--db", db
        )
        assert leaks(tmp_path / "data", db) == {}
        assert zero(env, "memory", "check", "--db", db).startswith("ok")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_purge_leaves_no_byte_of_the_label_in_any_file_of_the_memory(
    engine: str, tmp_path: Path, env: dict[str, str]
) -> None:
    """Facts, a conversation, captured turns and an archived document name the secret; a purge with
    no flag beyond `--db` leaves none of its bytes in the memory's files (main file, WAL, shared
    memory, the archive's files and index) nor in `pg_dump`, and `check` passes."""
    facts = {
        "tuples": [
            {"subject": SECRET, "predicate": "lives_in", "object": "Lyon"},
            {"subject": "Bob", "predicate": "met", "object": f"{SECRET}'s sister"},
            {"subject": "Mo", "predicate": "plays", "object": "chess"},
        ],
        "context": {"source": "chat", "scope": "s1", "event_time": "2026-01-01T00:00:00Z"},
    }
    with memory(engine, tmp_path) as db:
        zero(env, "memory", "ingest", write(tmp_path / "facts.json", facts), "--db", db)
        conversation(tmp_path, env, db)
        secret, other = archived(tmp_path, env, db)
        before = leaks(tmp_path / "data", db)
        assert before and (engine == "postgres" or "memory.db" in before or "memory.db-wal" in before)

        out = zero(env, "memory", "forget", SECRET, "--purge", "--db", db)
        assert "(purged: content erased)" in out and "conversation entries" in out, out

        assert leaks(tmp_path / "data", db) == {}
        assert zero(env, "memory", "check", "--db", db).startswith("ok")
        assert "erased" in zero(env, "archive", "get", secret, code=1)
        assert "Mo plays chess" in zero(env, "archive", "get", other)
        assert "chess" in zero(env, "query", "match (mo plays ?x)", "--db", db)
