"""Signed transfer between stores, and replicas that converge whatever the order of their exchanges."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerolang import storage
from zerolang.knowledge.backend import FactFilter
from zerolang.knowledge.forget import Selector, forget
from zerolang.knowledge.formats import checkpoint as checkpoints
from zerolang.knowledge.formats.bundle import BundleError, make, receive
from zerolang.knowledge.ingest import ingest, parse_inputs
from zerolang.memory import MemoryStore
from zerolang.runtime.signing import Ed25519Signer

from .conftest import inputs

ALICE = Ed25519Signer.generate()
EVE = Ed25519Signer.generate()
AT = "2026-03-01T00:00:00.000Z"
GROUPS = [
    (f"2026-02-0{i + 1}T00:00:00Z", f"s{i % 2}", "x", tuples)
    for i, tuples in enumerate(
        [
            [("ann", "knows", "bob", 0.5), ("bob", "likes", "tea", 0.7)],
            [("ann", "knows", "bob", 0.6), ("cat", "likes", "tea", 0.4)],
            [("bob", "visits", "rome", 0.9), ("ann", "likes", "cat", 0.3)],
            [("dan", "knows", "ann", 0.8), ("cat", "visits", "rome", 0.2)],
            [("eve", "likes", "tea", 0.5), ("ann", "knows", "bob", 0.9)],
        ]
    )
]


def load(store: MemoryStore, index: int, now: str = AT) -> None:
    ingest(store, parse_inputs(inputs(GROUPS[index])), now=now)


def test_a_bundle_passes_between_two_stores(open_store, space: str) -> None:  # type: ignore[no-untyped-def]
    sender, receiver = open_store(), open_store(space + "-r")
    for index in range(3):
        load(sender, index)
    forget(sender, Selector("concept", "cat"), at=AT)
    text = make(sender, ALICE)
    got = receive(receiver, text, [ALICE.public_key_bytes])
    assert got.checkpoint == checkpoints.of_store(sender).hash == checkpoints.of_store(receiver).hash
    assert got.tombstones == 1 and receiver.find_concept("cat") is None
    load(receiver, 1)  # the forgotten concept stays forgotten on the receiver too
    assert receiver.find_concept("cat") is None
    assert b"cat" not in json.dumps(json.loads(text)["tombstones"]).encode()  # hashes only

    # a delta since the receiver's checkpoint applies on it, and only on it
    base = checkpoints.of_store(sender).hash
    load(sender, 3, now="2026-03-05T00:00:00.000Z")
    delta = make(sender, ALICE, since=base)
    assert json.loads(delta)["base"] == base
    receive(receiver, delta, [ALICE.public_key_bytes])
    assert checkpoints.of_store(receiver) == checkpoints.of_store(sender)
    with pytest.raises(BundleError, match="refused: a delta on checkpoint"):
        receive(receiver, delta, [ALICE.public_key_bytes])


def test_bad_bundles_are_refused_with_the_reason_and_change_nothing(open_store, space: str) -> None:  # type: ignore[no-untyped-def]
    sender, receiver = open_store(), open_store(space + "-r")
    load(sender, 0)
    load(receiver, 4)
    state = checkpoints.of_store(receiver)
    good = json.loads(make(sender, ALICE))
    tampered = dict(good, content=good["content"].replace("tea", "rum"))
    unsigned = {k: v for k, v in good.items() if k != "signature"}
    swapped = dict(good, public_key=EVE.public_key_bytes.hex())
    cases = {
        "not a bundle": "{nope",
        "no .format": json.dumps({"format": "other"}),
        "is unsigned": json.dumps(unsigned),
        "is not trusted": json.dumps(good),
        "does not match": json.dumps(tampered),
        "malformed tombstone": json.dumps(dict(good, tombstones=[{"hash": "zz"}])),
    }
    for reason, text in cases.items():
        trusted = [EVE.public_key_bytes] if reason == "is not trusted" else [ALICE.public_key_bytes]
        with pytest.raises(BundleError, match=reason):
            receive(receiver, text, trusted)
    with pytest.raises(BundleError, match="does not match"):
        receive(receiver, json.dumps(swapped), [EVE.public_key_bytes])
    assert checkpoints.of_store(receiver) == state
    public_only = Ed25519Signer(None, ALICE._public)
    with pytest.raises(Exception, match="cannot sign"):
        make(sender, public_only)


def test_cli_bundle_and_receive(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    runner = CliRunner()
    source = tmp_path / "in.json"
    source.write_text(inputs(*GROUPS[:3]))
    for args in (["keygen", str(tmp_path / "a.pem")], ["keygen", str(tmp_path / "e.pem")]):
        assert runner.invoke(app, args).exit_code == 0
    a, b, bundle = str(tmp_path / "a.db"), str(tmp_path / "b.db"), str(tmp_path / "m.bundle")
    assert runner.invoke(app, ["memory", "ingest", str(source), "--db", a]).exit_code == 0
    out = runner.invoke(app, ["memory", "bundle", "--key", str(tmp_path / "a.pem"), "-o", bundle, "--db", a])
    assert out.exit_code == 0 and out.output.startswith(f"wrote {bundle}: signed by ")
    refused = runner.invoke(app, ["memory", "receive", bundle, "--trust", str(tmp_path / "e.pem"), "--db", b])
    assert refused.exit_code == 1 and "is not trusted" in refused.output
    got = runner.invoke(
        app,
        [
            "memory",
            "receive",
            bundle,
            "--trust",
            str(tmp_path / "e.pem"),
            "--trust",
            str(tmp_path / "a.pem"),
            "--db",
            b,
            "--json",
        ],
    )
    assert got.exit_code == 0, got.output
    same = [runner.invoke(app, ["memory", "checkpoint", "--db", db]).output for db in (a, b)]
    assert same[0] == same[1]


# ---- replicas ------------------------------------------------------------------------------------

steps = st.lists(
    st.one_of(
        st.tuples(st.just("ingest"), st.sampled_from("ab"), st.integers(0, len(GROUPS) - 1)),
        st.tuples(
            st.just("forget"), st.sampled_from("ab"), st.sampled_from(["ann", "bob", "cat", "tea", "rome"])
        ),
        st.tuples(st.just("send"), st.sampled_from("ab"), st.integers(0, 5)),
    ),
    max_size=14,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_replicas_exchanging_bundles_in_any_order_converge(plan: list[tuple[str, str, object]]) -> None:
    stores = {"a": storage.open_store(single_valued=[]), "b": storage.open_store(single_valued=[])}
    sent: dict[str, list[str]] = {"a": [], "b": []}
    forgotten: set[str] = set()
    trusted = [ALICE.public_key_bytes]
    try:
        for action, side, arg in plan:
            store, other = stores[side], stores["b" if side == "a" else "a"]
            if action == "ingest":
                assert isinstance(arg, int)
                load(store, arg)
            elif action == "forget":
                assert isinstance(arg, str)
                if store.find_concept(arg) is not None:
                    forget(store, Selector("concept", arg), at=AT)
                    forgotten.add(arg)
            else:  # send a fresh bundle, or re-deliver an older one (duplicates, out of order)
                sent[side].append(make(store, ALICE))
                assert isinstance(arg, int)
                receive(other, sent[side][arg % len(sent[side])], trusted)
        for _ in range(2):  # the final exchange, both ways
            receive(stores["b"], make(stores["a"], ALICE), trusted)
            receive(stores["a"], make(stores["b"], ALICE), trusted)
        a, b = stores["a"], stores["b"]
        assert checkpoints.of_store(a) == checkpoints.of_store(b)
        facts_a = {f.fact_hash: f for f in a.backend.find_facts(FactFilter())}
        facts_b = {f.fact_hash: f for f in b.backend.find_facts(FactFilter())}
        assert facts_a.keys() == facts_b.keys()
        for key, fact in facts_a.items():  # the fold over distinct episodes does not depend on order
            assert fact.observations == facts_b[key].observations
            assert fact.confidence == pytest.approx(facts_b[key].confidence, abs=1e-12)
        for label in forgotten:  # a tombstone wins over every re-add
            assert a.find_concept(label) is None and b.find_concept(label) is None
        assert a.check().ok and b.check().ok
    finally:
        for store in stores.values():
            store.close()


def test_a_refused_receive_leaves_no_new_store(location: str, space: str, tmp_path: Path) -> None:
    """Whatever refuses the bundle (its signer, its signature, its base, its content), a store that did
    not exist does not exist after (a SQLite file), and a space that held nothing holds nothing."""
    from typer.testing import CliRunner

    from zerolang.cli.app import app
    from zerolang.knowledge.formats.bundle import canonical

    runner = CliRunner()
    key, other = tmp_path / "a.pem", tmp_path / "e.pem"
    for path in (key, other):
        assert runner.invoke(app, ["keygen", str(path)]).exit_code == 0
    signer = Ed25519Signer.from_key_file(key)
    with storage.open_store(tmp_path / "sender.db") as sender:
        load(sender, 0)
        start = checkpoints.of_store(sender).hash
        load(sender, 1, now="2026-03-05T00:00:00.000Z")
        full, delta = json.loads(make(sender, signer)), json.loads(make(sender, signer, start))
    broken = {k: v for k, v in full.items() if k != "signature"} | {"content": "this is not .0c"}
    broken["signature"] = signer.sign(canonical(broken)).hex()
    cases = {
        "is not trusted": (full, other),
        "does not match": (full | {"checkpoint": "0" * 64}, key),
        "a delta on checkpoint": (delta, key),
        "a .0c document starts with": (broken, key),
    }
    target = location if location.startswith("postgres") else str(tmp_path / "new.db")
    fresh = f"{space}-new"
    for reason, (document, trusted) in cases.items():
        path = tmp_path / "in.bundle"
        path.write_text(json.dumps(document))
        at = ["--trust", str(trusted), "--db", target, "--space", fresh]
        result = runner.invoke(app, ["memory", "receive", str(path), *at])
        assert result.exit_code == 1 and reason in result.stderr, result.output
        assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr
        assert not (tmp_path / "new.db").exists()
        assert list(tmp_path.glob("new.db*")) == []
    if target == location:
        with storage.open_store(location, space=fresh) as store:
            assert fresh not in store.spaces()
            assert store.counts().episodes == 0 and store.backend.log_entries() == []
    path = tmp_path / "in.bundle"
    path.write_text(json.dumps(full))
    accepted = runner.invoke(app, ["memory", "receive", str(path), "--trust", str(key), "--db", target])
    assert accepted.exit_code == 0, accepted.output


def test_a_refused_import_leaves_no_new_store(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    runner = CliRunner()
    bad = tmp_path / "bad.0c"
    bad.write_text("not an export\n")
    result = runner.invoke(app, ["memory", "import", str(bad), "--db", str(tmp_path / "new.db")])
    assert result.exit_code == 1 and result.stderr.startswith("error: ")
    assert list(tmp_path.glob("new.db*")) == []
    with storage.open_store(tmp_path / "kept.db") as store:
        load(store, 0)
        state = checkpoints.of_store(store)
    result = runner.invoke(app, ["memory", "import", str(bad), "--db", str(tmp_path / "kept.db")])
    assert result.exit_code == 1
    with storage.open_store(tmp_path / "kept.db", create=False) as store:
        assert checkpoints.of_store(store) == state  # an existing store is kept, as it was
