"""Erasure reaches every copy: a store built through every surface, a purge, then its bytes scanned.

The CLI (typer's runner), the Python API and the MCP server (the SDK's own client) each store
content that names a secret (facts, knowledge-graph entities and observations, captured turns,
conversation entries, archived documents in every tier, their summaries) beside content that
does not. `zero memory forget SECRET --purge` then leaves no byte of the secret in any file under
the data folder (SQLite files, WAL, archive files, decompressed too) nor, on PostgreSQL, in a
`pg_dump` of the database, while the unrelated content stays findable; storing the same content
again, through every surface, stores none of it and counts it as forgotten.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from typer.testing import CliRunner

import zerolang.memory
from tests.backends import postgres_server
from zerolang.cli.app import app
from zerolang.memory.erasure import PLACES

SECRET = "Zorblax Quuxly"
NEEDLES = (b"zorblax", b"quuxly", "zorblax".encode("utf-16-le"))
UNRELATED = "Ferdinand"

runner = CliRunner()


def zero(*arguments: str, environment: dict[str, str]) -> str:
    result = runner.invoke(app, list(arguments), env=environment)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(memory location, experience location): SQLite files, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "data" / "memory.db"), str(tmp_path / "data" / "experiences.db")
        return
    server = postgres_server()
    if server.url is None:
        pytest.skip(server.reason)
    import psycopg

    name = f"zt_erase_{secrets.token_hex(4)}"
    with psycopg.connect(server.url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = server.url.rpartition("/")[0] + f"/{name}"
    try:
        yield url, url
    finally:
        with psycopg.connect(server.url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _write(path: Path, value: Any) -> str:
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


def _hits(data: bytes) -> list[bytes]:
    low = data.lower()
    return [needle for needle in NEEDLES if needle in low]


def _scan_files(folder: Path) -> dict[str, list[bytes]]:
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and (hits := _hits(path.read_bytes())):
            found[str(path.relative_to(folder))] = hits
    return found


def _scan_archive(root: Path) -> list[str]:
    """Every stored document's canonical bytes (warm and cold ones decompressed)."""
    from zerolang.archive.store import Archive

    archive = Archive(root)
    return [digest for digest in archive.hashes() if _hits(archive.read_canonical(digest))]


def _pg_dump(url: str) -> list[bytes]:
    dump = shutil.which("pg_dump")
    if dump is None:
        pytest.skip("pg_dump is not installed")
    data = subprocess.run([dump, "--data-only", url], check=True, capture_output=True).stdout
    return _hits(data)


def _build(tmp_path: Path, memory_at: str, experiences_at: str, env: dict[str, str]) -> dict[str, str]:
    """Content naming the secret through the CLI, the Python API and MCP; what was archived."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    root = str(tmp_path / "data" / "archive")
    facts = {
        "tuples": [
            {"subject": SECRET, "predicate": "lives_in", "object": "Lyon"},
            {"subject": "Bob", "predicate": "met", "object": f"{SECRET}'s sister"},
            {"subject": UNRELATED, "predicate": "plays", "object": "cello"},
        ],
        "context": {"source": "chat", "scope": "s1", "event_time": "2026-01-01T00:00:00Z"},
    }
    zero("memory", "ingest", _write(inputs / "facts.json", facts), "--db", memory_at, environment=env)
    secret_doc = {
        "created_at": "2026-11-20T09:30:00Z",
        "source": {"channel": "dm:alice", "session": "s-1"},
        "messages": [{"role": "user", "content": f"Remember that {SECRET} is allergic to nuts."}],
        "consent_scope": "personal",
    }
    other_doc = {**secret_doc, "messages": [{"role": "user", "content": f"{UNRELATED} plays the cello."}]}
    cold_doc = {**secret_doc, "messages": [{"role": "user", "content": f"zorblax quuxly, cold: {'x' * 50}"}]}
    cold_other = {**secret_doc, "messages": [{"role": "user", "content": f"{UNRELATED} likes cold tea."}]}
    put = zero(
        "archive", "put", _write(inputs / "docs.json", [secret_doc, other_doc]),
        "--root", root, "--db", memory_at, environment=env,
    )  # fmt: skip
    cold = zero(
        "archive", "put", _write(inputs / "cold.json", [cold_doc, cold_other]),
        "--root", root, "--db", memory_at, environment=env,
    )  # fmt: skip
    hashes = {
        "secret": put.split()[1],
        "other": put.split()[4],
        "cold secret": cold.split()[1],
        "cold other": cold.split()[4],
    }
    zero(
        "archive",
        "tier",
        "cold",
        hashes["cold secret"],
        hashes["cold other"],
        "--root",
        root,
        environment=env,
    )
    zero("archive", "tier", "warm", hashes["secret"], "--root", root, environment=env)
    transcript = "\n".join(
        json.dumps(line)
        for line in (
            {"role": "user", "content": f"Where does {SECRET} live?"},
            {"role": "assistant", "content": "In Lyon."},
        )
    )
    env_capture = _write(inputs / "secret.jsonl", transcript)
    zero("capture", env_capture, "--format", "openai", "--experiences", experiences_at, environment=env)
    unrelated = "\n".join(
        json.dumps(line)
        for line in (
            {"role": "user", "content": f"What does {UNRELATED} play?"},
            {"role": "assistant", "content": "The cello."},
        )
    )
    zero("capture", _write(inputs / "other.jsonl", unrelated), "--format", "openai", "--experiences", experiences_at,
         environment=env)  # fmt: skip
    conversation = {
        "messages": [
            {"role": "user", "content": f"Tell {SECRET} hello."},
            {"role": "assistant", "content": "Will do."},
        ]
    }
    zero("convo", "store", "coder", _write(inputs / "convo.json", conversation), "--experiences", experiences_at,
         environment=env)  # fmt: skip

    with zerolang.memory.open(memory_at, experiences=experiences_at, archive=root) as memory:
        memory.remember([(SECRET, "speaks", "Esperanto"), (UNRELATED, "speaks", "French")])
        memory.capture(session="api-1", user_said=f"{SECRET} called.", agent_said="Noted.")
        memory.archive_document(
            [{"role": "user", "content": f"API note about {SECRET}."}],
            channel="dm:alice",
            consent_scope="personal",
        )
        _mcp(memory)
    hashes["inputs"] = str(inputs)
    return hashes


def _mcp(memory: zerolang.memory.Memory) -> None:
    from mcp import Client

    from zerolang.mcp.server import build_server

    server = build_server(memory)

    async def main() -> None:
        async with Client(server) as client:
            for name, arguments in (
                ("create_entities", {"entities": [{"name": SECRET, "entityType": "person", "observations": ["a spy"]}]}),
                ("create_entities", {"entities": [{"name": UNRELATED, "entityType": "person", "observations": ["a cellist"]}]}),
                ("add_observations", {"observations": [{"entityName": "Bob", "contents": ["x"]}]}),
                ("add_observations", {"observations": [{"entityName": UNRELATED, "contents": [f"knows {SECRET}"]}]}),
                ("store", {"turn": {"session": "mcp-1", "user_said": f"Is {SECRET} here?", "agent_said": "No."}}),
            ):  # fmt: skip
                await client.call_tool(name, arguments)

    anyio.run(main)


def test_every_place_that_holds_content_is_registered() -> None:
    names = {place.name for place in PLACES}
    assert names >= {
        "memory",
        "event log",
        "experiences",
        "conversations",
        "archive summaries",
        "archived documents",
        "MCP graph log",
        "caches",
    }


def _purge_over_mcp(memory_at: str, experiences_at: str, root: str) -> None:
    from mcp import Client

    from zerolang.mcp.server import build_server

    async def main() -> None:
        with zerolang.memory.open(memory_at, experiences=experiences_at, archive=root) as memory:
            async with Client(build_server(memory)) as client:
                result = await client.call_tool(
                    "forget", {"kind": "concept", "target": SECRET, "purge": True}
                )
                assert not result.is_error, result.content

    anyio.run(main)


@pytest.mark.parametrize("surface", ["cli", "mcp"])
def test_a_purge_leaves_no_byte_of_the_label_anywhere(
    stores: tuple[str, str], tmp_path: Path, surface: str
) -> None:
    memory_at, experiences_at = stores
    (tmp_path / "data").mkdir()
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg"), "ZERO_ARCHIVE": ""}
    hashes = _build(tmp_path, memory_at, experiences_at, env)
    data = tmp_path / "data"
    root = str(data / "archive")
    assert _scan_files(data) or _pg_dump(memory_at) or _scan_archive(data / "archive")  # it was there

    if surface == "cli":
        out = zero(
            "memory", "forget", SECRET, "--purge", "--db", memory_at, "--experiences", experiences_at,
            "--root", root, environment=env,
        )  # fmt: skip
        assert "purged: content erased" in out
        assert "3 archived documents" in out  # two put by the CLI, one by the API
    else:  # the MCP `forget` tool, through the Python API's Memory.forget
        _purge_over_mcp(memory_at, experiences_at, root)

    assert _scan_files(data) == {}
    assert _scan_archive(data / "archive") == []
    if memory_at.startswith("postgresql"):
        assert _pg_dump(memory_at) == []

    # the erased documents' hashes stay, as tombstones: get says erased (one line, exit 1)
    for key in ("secret", "cold secret"):
        result = runner.invoke(app, ["archive", "get", hashes[key], "--root", root], env=env)
        assert result.exit_code == 1
        assert "erased" in result.output and len(result.output.strip().splitlines()) == 1
    # unrelated content stays, through every surface
    for key in ("other", "cold other"):
        assert UNRELATED in zero("archive", "get", hashes[key], "--root", root, environment=env)
    assert "cello" in zero("query", f"match ({UNRELATED} plays ?x)", "--db", memory_at, environment=env)
    recalled = zero("recall", UNRELATED, "--experiences", experiences_at, environment=env)
    assert UNRELATED in recalled
    with zerolang.memory.open(memory_at, experiences=experiences_at, archive=root) as memory:
        rows = memory.query(f"match ({UNRELATED.lower()} speaks ?x)").rows
        assert len(rows) == 1 and "french" in json.dumps(rows)

    # storing it all again stores none of it, counted as forgotten
    inputs = Path(hashes["inputs"])
    again = zero("memory", "ingest", str(inputs / "facts.json"), "--db", memory_at, environment=env)
    assert "forgotten" in again
    put = zero(
        "archive", "put", str(inputs / "docs.json"), "--root", root, "--db", memory_at, environment=env
    )
    assert put.splitlines()[0].startswith("forgotten") and put.splitlines()[1].startswith("exists")
    secret, convo = str(inputs / "secret.jsonl"), str(inputs / "convo.json")
    captured = zero("capture", secret, "--format", "openai", "--experiences", experiences_at, environment=env)
    assert "forgotten" in captured
    zero("convo", "store", "coder", convo, "--experiences", experiences_at, environment=env)
    # an experience database the purge never reached takes the memory's purges when written to
    late, late_at = {**env, "ZERO_MEMORY_DB": memory_at}, str(data / "late.db")
    captured = zero("capture", secret, "--format", "openai", "--experiences", late_at, environment=late)
    assert "2 experiences forgotten" in captured
    zero("convo", "store", "coder", convo, "--experiences", late_at, environment=late)
    with zerolang.memory.open(memory_at, experiences=experiences_at, archive=root) as memory:
        assert memory.remember([(SECRET, "speaks", "Esperanto")]).forgotten == 1
        assert (
            memory.capture(session="api-2", user_said=f"{SECRET} again.", agent_said="Ok.").forgotten == 2
        )  # the whole turn
        _mcp(memory)
    assert _scan_files(data) == {}
    if memory_at.startswith("postgresql"):
        assert _pg_dump(memory_at) == []


def test_recall_shows_nothing_a_purge_never_reached(tmp_path: Path) -> None:
    """A reader writes nothing, yet `zero recall` of an experience database a purge never reached
    (its memory's experiences were elsewhere) leaves out what mentions the purged concept."""
    memory_at, experiences_at = str(tmp_path / "memory.db"), tmp_path / "elsewhere.db"
    with zerolang.memory.open(memory_at, experiences=str(experiences_at), archive=tmp_path / "a") as memory:
        memory.remember([(SECRET, "speaks", "Esperanto")])
        memory.capture(session="s", user_said=f"{SECRET} speaks Esperanto fluently.", agent_said="Noted.")
    env = {"ZERO_MEMORY_DB": memory_at, "ZERO_MEMORY_SPACE": ""}
    before = zero("recall", "Esperanto fluently", "--experiences", str(experiences_at), environment=env)
    assert SECRET in before
    with zerolang.memory.open(memory_at, experiences=":memory:", archive=tmp_path / "b") as memory:
        memory.forget("concept", SECRET, purge=True)
    unread = experiences_at.read_bytes()
    after = zero("recall", "Esperanto fluently", "--experiences", str(experiences_at), environment=env)
    assert SECRET.lower() not in after.lower() and "zorblax" not in after.lower()
    assert experiences_at.read_bytes() == unread  # read, not carried: the file is as it was
