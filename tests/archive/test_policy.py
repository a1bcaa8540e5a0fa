"""The consent policy and the gate, attacked: every refusal names its rule, and nothing leaks."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from fnmatch import fnmatchcase
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerolang.archive import Archive, MemoryDocument, make_document
from zerolang.archive.gate import Gate, Refused, subject_of
from zerolang.archive.index import IndexRecord, MemoryIndex
from zerolang.archive.policy import (
    Caller,
    Policy,
    PolicyError,
    Subject,
    Use,
    decide,
    load_policy,
    parse_policy,
)

TODAY = date(2026, 11, 24)
POLICY = """
version = 1

[scopes.personal]
uses = ["summary", "full"]
channels = ["dm:*"]

[scopes.team]
uses = ["summary"]

[scopes.old-project]
uses = ["summary", "full"]
revoked = true

[channels."dm:alice"]
reads = ["dm:alice", "email:*"]
clearance = 10

[channels."slack:general"]
reads = ["slack:general"]
clearance = 0

[channels."dm:bob"]
reads = ["dm:bob"]
clearance = 15
"""


def secret(name: str) -> str:
    return f"CANARY-{name}-fulltext"


DOCS = {  # name: (channel, scope, privacy, flags)
    "A": ("dm:alice", "personal", 5, ()),
    "B": ("slack:general", "team", 0, ()),
    "C": ("dm:alice", "old-project", 0, ()),
    "D": ("dm:alice", "personal", 0, ("revoked",)),
    "E": ("dm:alice", "personal", 12, ()),
    "F": ("email:alice", "personal", 0, ()),
    "G": ("dm:bob", "personal", 0, ()),
    "H": ("dm:alice", "secret-unknown", 0, ()),
}


def document(name: str) -> MemoryDocument:
    channel, scope, _privacy, _flags = DOCS[name]
    return make_document(
        [{"role": "user", "content": f"{secret(name)} my bank PIN is 4321"}],
        channel=channel,
        consent_scope=scope,
        session=f"s-{name}",
        created_at="2026-11-20T09:30:00Z",
    )


@pytest.fixture
def world(tmp_path: Path) -> tuple[Gate, dict[str, str]]:
    archive = Archive(tmp_path / "archive", create=True)
    index = MemoryIndex()
    hashes = {}
    for name, (channel, scope, privacy, flags) in DOCS.items():
        digest = archive.put(document(name)).hash
        hashes[name] = digest
        index.put(
            IndexRecord(
                hash=digest,
                summary=f"note {name} about banking",
                day=date(2026, 11, 20),
                source_channel=channel,
                created_at="2026-11-20T09:30:00Z",
                consent_scope=scope,
                y_privacy=privacy,
                consent_flags=flags,
                source_session=f"s-{name}",
            )
        )
    (tmp_path / "policy.toml").write_text(POLICY)
    gate = Gate(archive, index, load_policy(tmp_path / "policy.toml"), clock=lambda: "2026-11-24T12:00:00Z")
    return gate, hashes


def refusal(gate: Gate, caller: Caller, hash_text: str) -> Refused:
    with pytest.raises(Refused) as caught:
        gate.get(caller, hash_text)
    message = caught.value.message
    assert "CANARY" not in message and "PIN" not in message  # zero leaks, even in the error
    return caught.value


ALICE, BOB, SLACK = Caller("dm:alice"), Caller("dm:bob"), Caller("slack:general")


def test_allowed_gets_return_the_verified_document_and_count_the_access(
    world: tuple[Gate, dict[str, str]],
) -> None:
    gate, hashes = world
    assert gate.get(ALICE, hashes["A"]) == document("A")
    assert gate.get(ALICE, f"sha256:{hashes['F'].upper()}") == document("F")
    record = gate.index.get(hashes["A"])
    assert record is not None and record.reinforcement_count == 1
    assert record.last_accessed_at == "2026-11-24T12:00:00Z"


@pytest.mark.parametrize(
    ("caller", "name", "rule"),
    [
        (SLACK, "A", "consent.channel"),  # another channel: the scope is for direct messages
        (BOB, "A", "channel.boundary"),  # another person's direct messages
        (ALICE, "G", "channel.boundary"),
        (ALICE, "B", "consent.use"),  # rules are checked in order: the use fails before the boundary
        (SLACK, "B", "consent.use"),  # the team scope releases summaries only
        (ALICE, "C", "consent.revoked"),  # the scope's consent was withdrawn
        (ALICE, "D", "consent.revoked"),  # this memory's consent was withdrawn
        (ALICE, "E", "privacy.clearance"),  # privacy 12 > clearance 10
        (Caller("dm:alice", clearance=3), "A", "privacy.clearance"),  # a caller may lower its clearance
        (Caller("dm:alice", clearance=15), "E", "privacy.clearance"),  # ... never raise it
        (ALICE, "H", "consent.scope"),  # a scope the policy does not know
        (Caller("dm:mallory"), "A", "caller.channel"),
        (Caller("DM:ALICE"), "A", "caller.channel"),  # channels are exact names
    ],
)
def test_each_refusal_names_its_rule(
    world: tuple[Gate, dict[str, str]], caller: Caller, name: str, rule: str
) -> None:
    """`decide` names the rule; `get` tells the caller only what it would tell of a hash never archived
    (an undeclared caller, that its channel is not in the policy), naming no consent scope."""
    gate, hashes = world
    record = gate.index.get(hashes[name])
    assert record is not None
    assert decide(gate.policy, caller, Use.FULL, subject_of(record)).rule == rule
    told = "caller.channel" if rule == "caller.channel" else "hash.unknown"
    refused = refusal(gate, caller, hashes[name])
    assert refused.rule == told and gate.check(caller, hashes[name]).rule == told
    absent = refusal(gate, caller, "c" * 64)
    assert (absent.rule, absent.message.replace("c" * 64, "H")) == (
        refused.rule,
        refused.message.replace(hashes[name], "H"),
    )
    for scope in ("personal", "team", "old-project", "secret-unknown"):
        assert scope not in refused.message


@pytest.mark.parametrize(
    "text",
    [
        "../../etc/passwd",
        "/etc/passwd",
        "hot/00/00/" + "0" * 64 + ".json",
        "archive.json",
        "",
        "*",
        "%",
        "sha1:" + "a" * 40,
        "md5:" + "a" * 32,
        "a" * 63,
        "a" * 65,
        "a" * 64 + "/../x",
        "a" * 63 + "\n",
        "a" * 32 + "\x00" + "a" * 31,
    ],
)
def test_malformed_and_path_like_hashes(world: tuple[Gate, dict[str, str]], text: str) -> None:
    gate, _ = world
    assert refusal(gate, ALICE, text).rule == "hash.format"


def test_prefixes_of_real_hashes_do_not_resolve(world: tuple[Gate, dict[str, str]]) -> None:
    gate, hashes = world
    for length in (4, 8, 12, 32, 63):
        assert refusal(gate, ALICE, hashes["A"][:length]).rule == "hash.format"
        assert refusal(gate, ALICE, "sha256:" + hashes["A"][:length]).rule == "hash.format"


def test_unknown_and_forged_hashes(world: tuple[Gate, dict[str, str]]) -> None:
    gate, hashes = world
    assert refusal(gate, ALICE, "f" * 64).rule == "hash.unknown"
    flipped = hashes["A"][:-1] + ("0" if hashes["A"][-1] != "0" else "1")
    assert refusal(gate, ALICE, flipped).rule == "hash.unknown"
    # archived but never indexed: the policy has nothing to decide on, so no
    orphan = gate.archive.put(
        make_document(
            [{"role": "user", "content": secret("O")}],
            channel="dm:alice",
            consent_scope="personal",
            created_at="2026-11-20T09:30:00Z",
        )
    ).hash
    assert refusal(gate, ALICE, orphan).rule == "hash.unknown"


def test_a_forged_index_row_cannot_launder_a_document(world: tuple[Gate, dict[str, str]]) -> None:
    gate, hashes = world
    row = gate.index.get(hashes["G"])  # Bob's note, re-labelled as Alice's
    assert row is not None
    gate.index.put(replace(row, source_channel="dm:alice"))
    assert refusal(gate, ALICE, hashes["G"]).rule == "archive.mismatch"
    row = gate.index.get(hashes["B"])  # a team (summary-only) note, re-labelled personal
    assert row is not None
    gate.index.put(replace(row, consent_scope="personal", source_channel="dm:alice"))
    assert refusal(gate, ALICE, hashes["B"]).rule == "archive.mismatch"


def test_index_rows_without_a_good_document(world: tuple[Gate, dict[str, str]]) -> None:
    gate, hashes = world
    row = gate.index.get(hashes["A"])
    assert row is not None
    gate.index.put(replace(row, hash="e" * 64))
    assert refusal(gate, ALICE, "e" * 64).rule == "archive.missing"
    path = gate.archive.hot_path(hashes["A"])
    path.chmod(0o644)
    path.write_bytes(path.read_bytes().replace(b"PIN", b"pin"))
    assert refusal(gate, ALICE, hashes["A"]).rule == "archive.corrupt"


def test_search_returns_only_summaries_the_caller_may_see(world: tuple[Gate, dict[str, str]]) -> None:
    gate, hashes = world
    found = {hit.hash for hit in gate.search(ALICE, "banking", today=TODAY)}
    assert found == {hashes["A"], hashes["F"]}
    assert {hit.hash for hit in gate.search(SLACK, today=TODAY)} == {hashes["B"]}  # summary-only scope
    assert gate.search(Caller("dm:mallory"), today=TODAY) == []
    hit = gate.search(ALICE, "note a", today=TODAY)[0]
    assert (hit.hash, hit.t_x, hit.y_privacy) == (hashes["A"], -4, 5)


def test_search_cannot_reach_full_text(world: tuple[Gate, dict[str, str]]) -> None:
    gate, hashes = world
    for caller in (ALICE, BOB, SLACK, Caller("dm:alice", clearance=15)):
        for text in ("CANARY", secret("A"), "PIN", "4321", hashes["A"], hashes["A"][:12]):
            assert gate.search(caller, text, today=TODAY) == []
        everything = gate.search(caller, today=TODAY, limit=100, include_revoked=True, privacy_max=15)
        dumped = json.dumps([hit.to_json() for hit in everything])
        assert "CANARY" not in dumped and "PIN" not in dumped
        assert all(not hasattr(hit, "messages") for hit in everything)
    revoked = {hashes["C"], hashes["D"]}
    assert not revoked & {hit.hash for hit in gate.search(ALICE, today=TODAY, include_revoked=True)}
    assert hashes["E"] not in {hit.hash for hit in gate.search(ALICE, today=TODAY, privacy_max=15)}


def test_search_fills_its_limit_past_refused_rows(tmp_path: Path) -> None:
    index = MemoryIndex()
    for number in range(30):
        index.put(
            IndexRecord(
                hash=f"{number:064x}",
                summary="note",
                day=date(2026, 11, 1 + number % 28),
                source_channel="dm:bob" if number < 25 else "dm:alice",
                created_at="2026-11-20T09:30:00Z",
                consent_scope="personal",
            )
        )
    gate = Gate(Archive(tmp_path / "a", create=True), index, parse_policy(_toml(POLICY)))
    assert len(gate.search(ALICE, limit=4, today=TODAY)) == 4


def _toml(text: str) -> dict[str, object]:
    import tomllib

    return tomllib.loads(text)


callers = st.builds(
    Caller,
    st.sampled_from(["dm:alice", "dm:bob", "slack:general", "dm:eve", "email:alice"]),
    st.none() | st.integers(min_value=-20, max_value=20),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(callers, st.sampled_from(sorted(DOCS)))
def test_no_get_ever_releases_what_the_rules_forbid(
    world: tuple[Gate, dict[str, str]], caller: Caller, name: str
) -> None:
    """An independent statement of the rules: anything get returns must satisfy every one."""
    gate, hashes = world
    policy = parse_policy(_toml(POLICY))
    try:
        released = gate.get(caller, hashes[name])
    except Refused as refused:
        assert "CANARY" not in refused.message
        return
    channel, scope_name, privacy, flags = DOCS[name]
    scope = policy.scopes[scope_name]
    declared = policy.channels[caller.channel]
    clearance = declared.clearance if caller.clearance is None else min(declared.clearance, caller.clearance)
    assert not scope.revoked and "revoked" not in flags and Use.FULL in scope.uses
    assert scope.channels is None or any(fnmatchcase(caller.channel, p) for p in scope.channels)
    assert any(fnmatchcase(channel, pattern) for pattern in declared.reads)
    assert privacy <= clearance
    assert released == document(name)


def test_decide_is_pure_and_defaults_to_deny() -> None:
    subject = Subject("personal", "dm:alice", 0)
    assert decide(Policy.deny_all(), ALICE, Use.SUMMARY, subject).rule == "caller.channel"
    policy = parse_policy(_toml(POLICY))
    assert decide(policy, ALICE, Use.SUMMARY, subject).allowed
    assert decide(policy, ALICE, Use.FULL, subject).describe() == "allowed"
    team = Subject("team", "slack:general", 0)
    assert decide(policy, ALICE, Use.SUMMARY, team).describe() == (
        "refused by channel.boundary: the channel 'dm:alice' may not read memories from 'slack:general'"
    )
    no_uses = parse_policy({"version": 1, "scopes": {"x": {"uses": []}}, "channels": {}})
    assert no_uses.scopes["x"].uses == frozenset()


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({}, "version must be 1"),
        ({"version": 2}, "version must be 1"),
        ({"version": 1, "rules": {}}, "unknown key 'rules'"),
        ({"version": 1, "scopes": {"x": {"uses": ["read"]}}}, "'read' is not a use"),
        ({"version": 1, "scopes": {"x": {"uses": "full"}}}, "scopes.x.uses must be a list"),
        ({"version": 1, "scopes": {"x": {"uses": [], "revoked": "yes"}}}, "revoked must be true or false"),
        ({"version": 1, "scopes": {"x": {"uses": [], "channel": []}}}, "unknown key 'channel'"),
        (
            {"version": 1, "channels": {"c": {"reads": ["c"], "clearance": 16}}},
            "clearance must be an integer",
        ),
        (
            {"version": 1, "channels": {"c": {"reads": ["c"], "clearance": True}}},
            "clearance must be an integer",
        ),
        ({"version": 1, "channels": {"c": {"reads": [], "clearance": 0}}}, "reads must be a list"),
        ({"version": 1, "channels": []}, "channels must be a table"),
    ],
)
def test_bad_policies_are_clear_errors(document: object, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        parse_policy(document, "p.toml")


def test_policy_files_toml_and_json(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text(json.dumps(_toml(POLICY)))
    assert load_policy(tmp_path / "p.json").channels["dm:alice"].clearance == 10
    (tmp_path / "bad.toml").write_text("version = ")
    with pytest.raises(PolicyError, match=r"bad.toml: not TOML"):
        load_policy(tmp_path / "bad.toml")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(PolicyError, match=r"bad.json:1:2: not JSON"):
        load_policy(tmp_path / "bad.json")
    with pytest.raises(PolicyError, match="cannot read the policy"):
        load_policy(tmp_path / "missing.toml")
