"""Issue 40, point 3: a purge reaches every store of the memory the one setting names, without extra
flags. With the conversations in the memory's own database, `zero memory forget --purge` (no
`--experiences`) erases the captured turns and the `zero convo` entries that mention the label, on
SQLite (no byte left in the file) and on PostgreSQL (none in `pg_dump`), and keeps what does not.
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


@contextmanager
def memory(engine: str, folder: Path) -> Iterator[str]:
    if engine == "postgres":
        with scratch() as url:
            yield url
    else:
        yield str(folder / "memory.db")


def zero(*arguments: str) -> str:
    result = CliRunner().invoke(app, list(arguments), env={"ZERO_MEMORY_SPACE": "", "ZERO_EXPERIENCE_DB": ""})
    assert result.exit_code == 0, result.output
    return result.output


def every_byte(engine: str, db: str) -> bytes:
    if engine == "postgres":
        from urllib.parse import urlsplit

        name = urlsplit(db).path.lstrip("/")
        dump = subprocess.run(
            ["pg_dump", "-h", "127.0.0.1", "-U", "postgres", name], capture_output=True, check=True
        )
        return dump.stdout
    return b"".join(path.read_bytes() for path in Path(db).parent.glob("memory.db*"))


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
def test_a_purge_reaches_the_memory_s_own_conversations_by_default(engine: str, tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    said = f"{SECRET} told me the vault code is 7788"
    chat.write_text(
        json.dumps([{"role": "user", "content": said}, {"role": "assistant", "content": "Noted."}])
    )
    with memory(engine, tmp_path) as db:
        zero("remember", SECRET, "works_at", "Acme", "--db", db)
        zero("remember", "Mo", "likes", "chess", "--db", db)
        zero("convo", "store", "coder", str(chat), "--db", db)
        assert SECRET.split()[0].encode() in every_byte(engine, db)
        out = zero("memory", "forget", SECRET, "--purge", "--db", db)
        assert "erased:" in out and "conversation entr" in out, out  # by store, what each erased
        assert b"zelda" not in every_byte(engine, db).lower()
        assert "mo likes chess" in zero("recall", "What does Mo like?", "--db", db)
        history = json.loads(zero("convo", "restore", "coder", "--db", db))
        assert history == [{"role": "assistant", "content": "Noted."}]  # only what mentions it went


def test_a_purge_reaches_the_conversations_where_the_one_rule_finds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40, point 4: one rule says where a memory's conversations are (`Stores.experiences`):
    an older release's `NAME.experiences.db` beside `NAME.db` while it holds turns, else the
    memory's own file. A purge with no flag reaches exactly that: the older file of this memory,
    and not the per-user `experiences.db`, which is the per-user memory's (its purge reaches it)."""
    from zerolang.util.config import default_experiences

    data = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))  # where the per-user stores are, here and in the CLI
    env = {
        "ZERO_MEMORY_SPACE": "",
        "ZERO_EXPERIENCE_DB": "",
        "XDG_DATA_HOME": str(data),
        "ZERO_MEMORY_DB": "",
    }
    transcript = tmp_path / "t.jsonl"
    lines = [
        {"role": "user", "content": f"Where does {SECRET} live?"},
        {"role": "assistant", "content": "Far."},
    ]
    transcript.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")

    def run(*arguments: str) -> str:
        result = CliRunner().invoke(app, list(arguments), env=env)
        assert result.exit_code == 0, result.output
        return result.output

    db, older = tmp_path / "memory.db", tmp_path / "memory.experiences.db"
    run("remember", SECRET, "works_at", "Acme", "--db", str(db))
    run("capture", str(transcript), "--format", "openai", "--experiences", str(older))
    run("remember", SECRET, "works_at", "Acme")  # the per-user memory, with its older file beside
    per_user = default_experiences()
    assert per_user.is_relative_to(data)
    run("capture", str(transcript), "--format", "openai", "--experiences", str(per_user))
    untouched = per_user.read_bytes()

    out = run("memory", "forget", SECRET, "--purge", "--db", str(db))
    assert "experience record" in out, out
    assert b"zelda" not in b"".join(p.read_bytes() for p in tmp_path.glob("memory*.db*")).lower()
    assert per_user.read_bytes() == untouched  # another memory's: not this purge's to take

    out = run("memory", "forget", SECRET, "--purge")  # the per-user memory: its own older file
    assert "experience record" in out, out
    assert b"zelda" not in per_user.read_bytes().lower()
