"""`zero archive search|policy|compact|expand` and `get --as` end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zerolang.archive.compaction import Conversation
from zerolang.cli.app import app
from zerolang.storage import open_index

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "archive"
POLICY = str(EXAMPLES / "policy.toml")
NOTE = "205c2697d7549d36b830c8455dcd293928517678e7aed33371e261974c720557"
STANDUP = "889e3294fe414be5c1ac2a53a8e0092150d3a4115184626eb00163e935d78b6f"


def zero(*arguments: str, root: Path) -> Any:
    return runner.invoke(app, ["archive", *arguments, "--root", str(root)])


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "archive"
    assert zero("put", str(EXAMPLES / "note.json"), "--privacy", "6", root=path).exit_code == 0
    assert zero("put", str(EXAMPLES / "standup.json"), root=path).exit_code == 0
    return path


def test_put_indexes_each_document_once(root: Path, memory_db: Path) -> None:
    index = open_index(str(memory_db))
    record = index.get(NOTE)
    assert record is not None and record.y_privacy == 6 and record.consent_scope == "personal"
    assert record.summary.startswith("user: My sister's birthday is 3 March.")
    assert (
        zero("put", str(EXAMPLES / "note.json"), "--privacy", "-3", "--summary", "x", root=root).exit_code
        == 0
    )
    assert index.get(NOTE) == record  # the existing row stays
    assert index.count() == 2


def test_search_shows_only_permitted_summaries(root: Path) -> None:
    alice = zero("search", "--as", "dm:alice", "--policy", POLICY, "--json", root=root)
    assert [hit["hash"] for hit in json.loads(alice.output)] == [STANDUP, NOTE]
    team = zero("search", "--as", "slack:team", "--policy", POLICY, root=root)
    assert team.output.startswith(f"{STANDUP}  t=") and NOTE not in team.output
    assert (
        zero("search", "birthday", "--as", "slack:team", "--policy", POLICY, root=root).output
        == "no summaries\n"
    )
    assert (
        "March"
        not in zero("search", "--as", "dm:alice", "--clearance", "5", "--policy", POLICY, root=root).output
    )
    assert (
        json.loads(
            zero("search", "--as", "dm:alice", "--since", "0", "--policy", POLICY, "--json", root=root).output
        )
        == []
    )


@pytest.mark.parametrize(
    ("channel", "hash_text", "extra", "message"),
    [
        ("slack:team", NOTE, [], f"refused by hash.unknown: no document {NOTE} that this caller may read"),
        ("slack:team", STANDUP, [], f"refused by hash.unknown: no document {STANDUP} that this caller"),
        ("dm:alice", NOTE, ["--clearance", "3"], f"refused by hash.unknown: no document {NOTE} that"),
        ("dm:alice", NOTE[:12], [], "refused by hash.format"),
        ("dm:alice", "../../etc/passwd", [], "refused by hash.format"),
        ("dm:alice", "a" * 64, [], "refused by hash.unknown"),
        ("dm:eve", NOTE, [], "refused by caller.channel"),
    ],
)
def test_get_as_a_caller_is_refused_with_the_rule(
    root: Path, channel: str, hash_text: str, extra: list[str], message: str
) -> None:
    result = zero("get", hash_text, "--as", channel, "--policy", POLICY, *extra, root=root)
    assert result.exit_code == 1
    assert f"error: {message}" in result.output
    assert "sister" not in result.output


def test_get_as_a_permitted_caller(root: Path) -> None:
    result = zero("get", NOTE, "--as", "dm:alice", "--policy", POLICY, root=root)
    assert result.exit_code == 0 and json.loads(result.output)["hash"] == NOTE


def test_a_caller_needs_a_policy(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = zero("get", NOTE, "--as", "dm:alice", root=root)
    assert result.exit_code == 1 and "no consent policy: pass --policy FILE" in result.output


def test_policy_shows_the_rules() -> None:
    result = runner.invoke(app, ["archive", "policy", POLICY])
    assert result.exit_code == 0
    assert "scope    team           releases summary on any channel" in result.output
    bad = runner.invoke(app, ["archive", "policy", str(EXAMPLES / "trip.jsonl")])
    assert bad.exit_code == 1 and "not TOML" in bad.output
    document = runner.invoke(app, ["archive", "policy", str(EXAMPLES / "note.json")])
    assert "the policy: unknown key 'consent_scope'" in document.output


def test_compact_then_expand_restores_the_file(tmp_path: Path) -> None:
    root = tmp_path / "archive"
    compacted = tmp_path / "trip.compact.jsonl"
    arguments = ["--channel", "dm:alice", "--session", "trip", "--scope", "personal", "--keep-last", "1"]
    result = zero("compact", str(EXAMPLES / "trip.jsonl"), *arguments, "-o", str(compacted), root=root)
    assert result.exit_code == 0, result.output
    assert "compacted messages 0..3 (4 messages) into sha256:" in result.output
    lines = compacted.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["kind"] == "zero.summary"
    again = zero("compact", str(compacted), *arguments, root=root)
    assert "nothing to compact" in again.output
    restored = tmp_path / "back.jsonl"
    expanded = zero(
        "expand", str(compacted), "--as", "dm:alice", "--policy", POLICY, "-o", str(restored), root=root
    )
    assert expanded.exit_code == 0 and "restored 1 block, kept 0" in expanded.output
    original = Conversation.from_jsonl((EXAMPLES / "trip.jsonl").read_text(), channel="x", session="y")
    assert restored.read_bytes() == original.to_jsonl()
    refused = zero("expand", str(compacted), "--as", "slack:team", "--policy", POLICY, root=root)
    assert "refused by hash.unknown" in refused.output and "Manteigaria" not in refused.output


def test_compact_needs_a_range_and_good_input(tmp_path: Path) -> None:
    root = tmp_path / "archive"
    base = ["--channel", "c", "--session", "s", "--scope", "p"]
    assert "say which range" in zero("compact", str(EXAMPLES / "trip.jsonl"), *base, root=root).output
    both = zero("compact", str(EXAMPLES / "trip.jsonl"), *base, "--keep-last", "1", "--from", "0", root=root)
    assert "not both" in both.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "user", "content": "x"}\n{"role": \n')
    result = zero("compact", str(bad), *base, "--from", "0", root=root)
    assert result.exit_code == 1 and f"{bad}: line 2:1:10: not JSON" in result.output


def test_revoke_hides_a_memory_until_undone(root: Path) -> None:
    assert zero("revoke", NOTE, root=root).output == f"revoked  {NOTE}\n"
    hidden = zero("search", "--as", "dm:alice", "--policy", POLICY, "--json", root=root)
    assert [hit["hash"] for hit in json.loads(hidden.output)] == [STANDUP]
    refused = zero("get", NOTE, "--as", "dm:alice", "--policy", POLICY, root=root)
    assert f"refused by hash.unknown: no document {NOTE} that this caller may read" in refused.output
    assert zero("get", NOTE, root=root).exit_code == 0  # the owner still has the document
    assert zero("revoke", NOTE, "--undo", root=root).output == f"restored  {NOTE}\n"
    assert zero("get", NOTE, "--as", "dm:alice", "--policy", POLICY, root=root).exit_code == 0
    unknown = zero("revoke", "a" * 64, root=root)
    assert unknown.exit_code == 1 and "no index entry" in unknown.output
    assert "not a document hash" in zero("revoke", "../x", root=root).output


def test_the_index_lives_in_the_memory_store_by_space(
    tmp_path: Path, memory_db: Path, postgres_url: str
) -> None:
    """--db takes a SQLite path or a postgresql:// URL, --space a space; spaces do not see each other."""
    import secrets

    root = tmp_path / "archive"
    mine, theirs = f"a-{secrets.token_hex(4)}", f"b-{secrets.token_hex(4)}"
    for db in (str(memory_db), postgres_url):
        put = zero(
            "put", str(EXAMPLES / "note.json"), "--privacy", "6", "--db", db, "--space", mine, root=root
        )
        assert put.exit_code == 0, put.output
        search = ["search", "--as", "dm:alice", "--policy", POLICY, "--json", "--db", db]
        found = zero(*search, "--space", mine, root=root)
        assert [hit["hash"] for hit in json.loads(found.output)] == [NOTE]
        assert json.loads(zero(*search, "--space", theirs, root=root).output) == []
        refused = zero(
            "get", NOTE, "--as", "dm:alice", "--policy", POLICY, "--db", db, "--space", theirs, root=root
        )
        assert refused.exit_code == 1 and "refused by" in refused.output
        index = open_index(db, space=mine)
        try:
            record = index.get(NOTE)
            assert record is not None and record.y_privacy == 6 and record.t_x() <= 0
        finally:
            index.close()
    bad = zero("search", "--as", "dm:alice", "--policy", POLICY, "--space", "no space", root=root)
    assert bad.exit_code == 1 and "not a space name" in bad.output
    missing = zero(
        "search", "--as", "dm:alice", "--policy", POLICY, "--db", str(tmp_path / "none.db"), root=root
    )
    assert missing.exit_code == 1 and "no memory database here" in missing.output


@pytest.mark.parametrize(
    ("channel", "extra"),
    [
        ("dm:eve", []),  # not in the policy
        ("slack:team", []),  # declared: the scope is for direct messages only
        ("dm:alice", ["--clearance", "3"]),  # declared: the note's privacy is above the clearance
    ],
)
def test_get_answers_a_refused_caller_alike_whether_or_not_the_hash_exists(
    root: Path, channel: str, extra: list[str]
) -> None:
    """Nothing in the answer tells a held document from a hash never archived, and no answer names a
    consent scope."""
    absent = "c" * 64
    answers = []
    for digest in (NOTE, absent):
        result = zero("get", digest, "--as", channel, "--policy", POLICY, *extra, root=root)
        assert result.exit_code == 1 and result.stdout == ""
        answers.append(result.output.replace(digest, "HASH"))
    assert answers[0] == answers[1]
    assert answers[0].count("\n") == 1 and "personal" not in answers[0] and "team" not in answers[0]
